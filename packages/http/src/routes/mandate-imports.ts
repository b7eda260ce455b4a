import { Effect } from "effect"
import { HttpApiEndpoint, HttpApiSchema } from "effect/http-api"
import { MandateImport, MandateImportEntry, MandateImportEntryListParams, MandateImports, REQUEST_BODIES } from "@paykit/engine"
import { bodilessActionEndpoint, createEndpoint, declare, type EndpointDeclaration, getEndpoint, Idempotent, listEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"
import { single } from "../wire.ts"
import { createdWithoutLocation } from "../write-handlers.ts"

/** Mandate imports and their entries: made, filled, submitted or cancelled. */

const services = Effect.gen(function*() {
  return { mandateImports: yield* MandateImports }
})

const BODIES = REQUEST_BODIES
const MI = "mandate_imports"
const MIE = "mandate_import_entries"

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  createEndpoint(MI, MandateImport, BODIES.mandate_imports.create, (s) => s.mandateImports.create),
  getEndpoint(MI, MandateImport, (s) => s.mandateImports.get),
  bodilessActionEndpoint("submit", MI, MandateImport, (s) => s.mandateImports.submit),
  bodilessActionEndpoint("cancel", MI, MandateImport, (s) => s.mandateImports.cancel),
  // An entry has no path of its own in the real API: 201 without `Location`.
  declare(
    MIE,
    HttpApiEndpoint.post("create", `/${MIE}`, {
      payload: single(MIE, BODIES.mandate_import_entries.create),
      success: single(MIE, MandateImportEntry).pipe(HttpApiSchema.status(201))
    }).annotate(Idempotent, true),
    (s) => createdWithoutLocation(MIE, BODIES.mandate_import_entries.create, (o, command) => s.mandateImports.addEntry(o, command))
  ),
  listEndpoint(MIE, MandateImportEntry, MandateImportEntryListParams, (s) => s.mandateImports.listEntries)
]

export const mandateImportsRoom = routeRoom([MI, MIE], services, declarations)
