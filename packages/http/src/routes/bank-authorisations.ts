import { Effect, Schema } from "effect"
import { HttpApiEndpoint } from "effect/http-api"
import { BankAuthorisations, bankAuthorisations, Institution, InstitutionListParams, Institutions, REQUEST_BODIES } from "@paykit/engine"
import { createEndpoint, declare, type EndpointDeclaration, getEndpoint } from "../endpoints.ts"
import { queryDeclaration, queryShapeOf } from "../query-params.ts"
import { plainListHandler } from "../read-handlers.ts"
import { routeRoom } from "../routes.ts"

/** Bank authorisations (the payer's visit to their bank) and the institutions a payer chooses among. */

const services = Effect.gen(function*() {
  return { bankAuthorisations: yield* BankAuthorisations, institutions: yield* Institutions }
})

const BA = "bank_authorisations"
const INSTITUTIONS = "institutions"

/** An answer of institutions: all of them at once, without a page's cursors (`/institutions` and a billing request's). */
export const InstitutionsAnswer = Schema.Struct({ institutions: Schema.Array(Institution) })

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  createEndpoint(BA, bankAuthorisations.schema, REQUEST_BODIES.bank_authorisations.create, (s) => s.bankAuthorisations.create),
  getEndpoint(BA, bankAuthorisations.schema, (s) => s.bankAuthorisations.get),
  declare(
    INSTITUTIONS,
    HttpApiEndpoint.get("list", `/${INSTITUTIONS}`, { query: queryDeclaration(queryShapeOf(InstitutionListParams)), success: InstitutionsAnswer }),
    (s) => plainListHandler(INSTITUTIONS, InstitutionListParams, (_o, p) => s.institutions.list(p))
  )
]

export const bankAuthorisationsRoom = routeRoom([BA, INSTITUTIONS], services, declarations)
