import { Effect, Schema } from "effect"
import { HttpApiEndpoint } from "effect/http-api"
import { CustomerBankAccountListParams, customerBankAccounts, CustomerListParams, Customers, customers, REQUEST_BODIES } from "@paykit/engine"
import { BANK_DETAILS_LOOKUPS, BankDetailsLookupCreate, BankDetailsLookupFields, lookupBankDetails } from "@paykit/validation"
import { idParamOf } from "../api-request.ts"
import { ok } from "../api-response.ts"
import { bodilessActionEndpoint, createEndpoint, declare, type EndpointDeclaration, getEndpoint, IdParams, listEndpoint, updateEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"
import { single } from "../wire.ts"
import { postHandler } from "../write-handlers.ts"

/**
 * Customers and their bank accounts, and the bank details lookup a client makes before it adds an
 * account.
 */

const services = Effect.gen(function*() {
  return { customers: yield* Customers }
})

const BODIES = REQUEST_BODIES
const CUSTOMERS = "customers"
const ACCOUNTS = "customer_bank_accounts"

/** An answer computed by @paykit/validation with no exported Schema (the bank details lookup): declared as an object. */
const LookupAnswer = Schema.Record(Schema.String, Schema.Unknown)

type Declaration = EndpointDeclaration<Effect.Success<typeof services>>

/** `DELETE /customers/:id`: no body; the answer is the customer as removed (its personal data erased). */
const removeCustomer: Declaration = declare(
  CUSTOMERS,
  HttpApiEndpoint.delete("remove", `/${CUSTOMERS}/:id`, { params: IdParams, success: single(CUSTOMERS, customers.schema) }),
  (s) => (request, caller) =>
    Effect.flatMap(idParamOf(request), (id) => Effect.map(s.customers.remove(caller.organisation, id), (customer) => ok({ [CUSTOMERS]: customer })))
)

/** The lookup is a pure function of the bank details (@paykit/validation); nothing is stored. */
const lookup: Declaration = declare(
  BANK_DETAILS_LOOKUPS,
  HttpApiEndpoint.post("lookup", "/bank_details_lookups", {
    payload: single(BANK_DETAILS_LOOKUPS, BankDetailsLookupFields),
    success: Schema.Struct({ bank_details_lookups: LookupAnswer })
  }),
  () => postHandler(BANK_DETAILS_LOOKUPS, BankDetailsLookupCreate, (_o, request) => Effect.succeed(lookupBankDetails(request)))
)

const declarations: ReadonlyArray<Declaration> = [
  listEndpoint(CUSTOMERS, customers.schema, CustomerListParams, (s) => s.customers.list),
  getEndpoint(CUSTOMERS, customers.schema, (s) => s.customers.get),
  createEndpoint(CUSTOMERS, customers.schema, BODIES.customers.create, (s) => s.customers.create),
  updateEndpoint(CUSTOMERS, customers.schema, BODIES.customers.update, (s) => s.customers.update),
  removeCustomer,
  listEndpoint(ACCOUNTS, customerBankAccounts.schema, CustomerBankAccountListParams, (s) => s.customers.listBankAccounts),
  getEndpoint(ACCOUNTS, customerBankAccounts.schema, (s) => s.customers.getBankAccount),
  createEndpoint(ACCOUNTS, customerBankAccounts.schema, BODIES.customer_bank_accounts.create, (s) => s.customers.createBankAccount),
  updateEndpoint(ACCOUNTS, customerBankAccounts.schema, BODIES.customer_bank_accounts.update, (s) => s.customers.updateBankAccount),
  bodilessActionEndpoint("disable", ACCOUNTS, customerBankAccounts.schema, (s) => s.customers.disableBankAccount),
  lookup
]

export const customersRoom = routeRoom([CUSTOMERS, ACCOUNTS, BANK_DETAILS_LOOKUPS], services, declarations)
