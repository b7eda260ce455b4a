import { Effect } from "effect"
import { Export, ExportListParams, Exports } from "@paykit/engine"
import { type EndpointDeclaration, getEndpoint, listEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"

/** Exports, which the real API makes in its dashboard: only read here, none is made yet (docs/money-reads.md). */

const services = Effect.gen(function*() {
  return { exports: yield* Exports }
})

const EXPORTS = "exports"

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  listEndpoint(EXPORTS, Export, ExportListParams, (s) => s.exports.list),
  getEndpoint(EXPORTS, Export, (s) => s.exports.get)
]

export const exportsRoom = routeRoom([EXPORTS], services, declarations)
