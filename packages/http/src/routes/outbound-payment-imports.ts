import { Effect } from "effect"
import {
  OutboundPaymentImportEntryListParams,
  outboundPaymentImportEntries,
  OutboundPaymentImportListParams,
  OutboundPaymentImports,
  outboundPaymentImports,
  REQUEST_BODIES
} from "@paykit/engine"
import { bodilessActionEndpoint, createEndpoint, type EndpointDeclaration, getEndpoint, listEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"

/** Outbound payment imports (outbound payments made together once the import is authorised) with their entries. */

const services = Effect.gen(function*() {
  return { imports: yield* OutboundPaymentImports }
})

const IMPORTS = "outbound_payment_imports"
const ENTRIES = "outbound_payment_import_entries"

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  createEndpoint(IMPORTS, outboundPaymentImports.schema, REQUEST_BODIES.outbound_payment_imports.create, (s) => s.imports.create),
  listEndpoint(IMPORTS, outboundPaymentImports.schema, OutboundPaymentImportListParams, (s) => s.imports.list),
  getEndpoint(IMPORTS, outboundPaymentImports.schema, (s) => s.imports.get),
  bodilessActionEndpoint("cancel", IMPORTS, outboundPaymentImports.schema, (s) => s.imports.cancel),
  listEndpoint(ENTRIES, outboundPaymentImportEntries.schema, OutboundPaymentImportEntryListParams, (s) => s.imports.listEntries)
]

export const outboundPaymentImportsRoom = routeRoom([IMPORTS, ENTRIES], services, declarations)
