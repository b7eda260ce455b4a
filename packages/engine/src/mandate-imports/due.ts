import { Effect } from "effect"
import { sweepKind } from "../due-work/deadlines.ts"
import type { DueWorkDeclarations } from "../due-work/port.ts"
import type { DueWorkDeclaration } from "../due-work/jobs.ts"
import { MANDATE_IMPORT_PROCESSING, MandateImports } from "./mandate-imports.ts"

/** The sandbox processes a submitted import seconds after its submission (a due kind of its own). */
export const mandateImportDeadlines: Effect.Effect<DueWorkDeclarations, never, MandateImports> = Effect.gen(function*() {
  const imports = yield* MandateImports
  return { pumps: [], kinds: [sweepKind(MANDATE_IMPORT_PROCESSING, imports.processSubmitted)] }
})

/** The daily run processes any import still submitted (an engine run by the simulator, without due work). */
export const mandateImportDueWork: DueWorkDeclaration<MandateImports> = Effect.gen(function*() {
  const imports = yield* MandateImports
  return [{ name: "mandate imports", order: 15, deadline: false, run: (o) => Effect.asVoid(imports.processSubmitted(o)) }]
})
