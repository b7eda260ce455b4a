import { Effect } from "effect"
import { FeatureNotInstalled } from "@paykit/core"

/**
 * A feature's optional packages, imported on its first use. The engine declares sharp, pdfkit and
 * the fonts as optional peer dependencies, so an app that never draws a mandate PDF or scales a
 * logo installs none of them; the feature then fails with a `FeatureNotInstalled` naming what to
 * install (the HTTP API answers it as a 501), and every other feature works. The load is kept once
 * it succeeds; a failed one is tried again, so installing the package needs only a restart.
 */
export const optionalPackages = <A>(
  feature: string,
  packages: ReadonlyArray<string>,
  load: () => Promise<A>
): Effect.Effect<A, FeatureNotInstalled> => {
  let loaded: Promise<A> | undefined
  const attempt = () => (loaded ??= load().catch((cause: unknown) => {
    loaded = undefined
    throw cause
  }))
  return Effect.tryPromise({ try: attempt, catch: (cause) => cause }).pipe(
    Effect.catch((cause) =>
      // Installed but unloadable (sharp without its platform's binary) reads the same to the caller; the log keeps why.
      Effect.logWarning(`${feature}: could not load ${packages.join(", ")}`).pipe(
        Effect.annotateLogs({ cause: cause instanceof Error ? cause.message : String(cause) }),
        Effect.andThen(Effect.fail(new FeatureNotInstalled({ feature, packages })))
      ))
  )
}
