import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, type FeatureNotInstalled, type IdGenerator, InvalidState, LOGO_IMAGE_MAX_BASE64_LENGTH, newId, type NotFound, now, type OrganisationId, type StorageError, type ValidationFailed } from "@paykit/core"
import { LOGOS } from "@paykit/validation"
import { CreditorRepository } from "../creditors/repositories.ts"
import { resolveCreditor } from "../creditors/creditor-link.ts"
import { eq } from "../kernel/ports/list-query.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { captureIdGenerator, save } from "../kernel/support.ts"
import { type Logo, LogoCreateRequest } from "./domain/logos.ts"
import { scaleLogo } from "./logo-image.ts"
import { LogoRepository } from "./repositories.ts"

// The image is base64 text far longer than other fields: its own maximum, as the HTTP layer allows it.
const decodeUpload = decodeAtBoundary(LogoCreateRequest, LOGOS, { image: LOGO_IMAGE_MAX_BASE64_LENGTH })

/**
 * Creditors' logos (`POST /branding/logos`): one per creditor, an upload replacing the image
 * (the id stays). The image is scaled before anything is stored (`scaleLogo`); the hosted pages
 * read `forCreditor` and serve the bytes at the logo's page path.
 */
export class Logos extends Context.Service<Logos, {
  /** A concurrent first upload for the same creditor that wins the race makes this one a 409 `conflict`. */
  readonly upload: (organisation: OrganisationId, command: typeof LogoCreateRequest.Encoded) => Effect.Effect<Logo, ValidationFailed | InvalidState | FeatureNotInstalled | StorageError>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<Logo, NotFound | StorageError>
  /** The creditor's logo, or null when it has none. */
  readonly forCreditor: (organisation: OrganisationId, creditor: string) => Effect.Effect<Logo | null, StorageError>
}>()("@paykit/engine/Logos") {
  static readonly layer: Layer.Layer<Logos, never, LogoRepository | CreditorRepository | Transactor | IdGenerator> = Layer.effect(
    Logos,
    Effect.gen(function*() {
      const logos = yield* LogoRepository
      const creditors = yield* CreditorRepository
      const transactor = yield* Transactor
      const provideIds = yield* captureIdGenerator

      const existing = (organisation: string, creditor: string) =>
        Effect.map(logos.scan(organisation, { creditor: eq(creditor) }), (rows) => rows[0])

      const store = (organisation: string, command: LogoCreateRequest, scaled: Effect.Success<ReturnType<typeof scaleLogo>>) =>
        Effect.gen(function*() {
          const creditor = yield* resolveCreditor(creditors, organisation, LOGOS, command.links?.creditor ?? undefined)
          const current = yield* existing(organisation, creditor.resource.id)
          const at = yield* now
          const image = { format: scaled.format, width: scaled.width, height: scaled.height, image: Buffer.from(scaled.bytes).toString("base64"), updated_at: at }
          if (current !== undefined) return (yield* save(logos, organisation, current, { ...current.resource, ...image })).resource
          const logo: Logo = { id: yield* newId("logo"), created_at: at, ...image, links: { creditor: creditor.resource.id } }
          // SQL holds one logo per creditor (a unique index): the second of two first uploads lost a race.
          return yield* logos.insert(organisation, logo).pipe(
            Effect.map((stored) => stored.resource),
            Effect.catchTag("DuplicateId", () =>
              Effect.fail(new InvalidState({ reason: "conflict", message: "The creditor's logo was uploaded by another request at the same time" })))
          )
        })

      return Logos.of({
        // The image is scaled outside the unit of work: decoding takes a while and holds no lock.
        upload: (o, command) =>
          Effect.flatMap(decodeUpload(command), (c) => Effect.flatMap(scaleLogo(c.image), (scaled) => transactor.transaction(provideIds(store(o, c, scaled))))),
        get: (o, id) => Effect.map(logos.get(o, id), (v) => v.resource),
        forCreditor: (o, creditor) => Effect.map(existing(o, creditor), (row) => row?.resource ?? null)
      })
    })
  )
}
