import { Effect } from "effect"
import { HttpApiEndpoint } from "effect/http-api"
import { customerBankAccounts, customers, mandates, payments, REQUEST_BODIES, refunds } from "@paykit/engine"
import { idParamOf } from "./api-request.ts"
import { ok } from "./api-response.ts"
import { APP_FEE_PATHS, appFeeOnlyForApps } from "./app-fees.ts"
import type { Declaration } from "./api.ts"
import { actionEndpoint, bodilessActionEndpoint, createEndpoint, declare, IdParams, updateEndpoint } from "./endpoints.ts"
import { single } from "./wire.ts"

/**
 * The direct-debit core's writes (issue 18): customers, their bank accounts, mandates, payments
 * and refunds, as the real API serves them. Their reads are `collectionRoutes` in `api.ts`.
 */


const BODIES = REQUEST_BODIES
/** Actions whose attributes are all optional: `null` is no attributes. */
const OPTIONAL = { nullIsEmpty: true } as const
const CUSTOMERS = "customers"
const ACCOUNTS = "customer_bank_accounts"
const MANDATES = "mandates"
const PAYMENTS = "payments"

/** `DELETE /customers/:id`: no body; the answer is the customer as removed (its personal data erased). */
const removeCustomer: Declaration = declare(
  CUSTOMERS,
  HttpApiEndpoint.delete("remove", `/${CUSTOMERS}/:id`, { params: IdParams, success: single(CUSTOMERS, customers.schema) }),
  (s) => (request, caller) =>
    Effect.flatMap(idParamOf(request), (id) => Effect.map(s.customers.remove(caller.organisation, id), (customer) => ok({ [CUSTOMERS]: customer })))
)

export const CORE_ROUTES: ReadonlyArray<Declaration> = [
  createEndpoint(CUSTOMERS, customers.schema, BODIES.customers.create, (s) => s.customers.create),
  updateEndpoint(CUSTOMERS, customers.schema, BODIES.customers.update, (s) => s.customers.update),
  removeCustomer,
  createEndpoint(ACCOUNTS, customerBankAccounts.schema, BODIES.customer_bank_accounts.create, (s) => s.customers.createBankAccount),
  updateEndpoint(ACCOUNTS, customerBankAccounts.schema, BODIES.customer_bank_accounts.update, (s) => s.customers.updateBankAccount),
  bodilessActionEndpoint("disable", ACCOUNTS, customerBankAccounts.schema, (s) => s.customers.disableBankAccount),
  createEndpoint(MANDATES, mandates.schema, BODIES.mandates.create, (s) => (o, command) => s.mandates.create(o, command)),
  updateEndpoint(MANDATES, mandates.schema, BODIES.mandates.update, (s) => s.mandates.update),
  actionEndpoint("cancel", MANDATES, mandates.schema, BODIES.mandates.cancel, (s) => s.mandates.cancel, OPTIONAL),
  actionEndpoint("reinstate", MANDATES, mandates.schema, BODIES.mandates.reinstate, (s) => s.mandates.reinstate, OPTIONAL),
  createEndpoint(PAYMENTS, payments.schema, BODIES.payments.create, (s) => (o, command) => s.payments.create(o, command), {
    guard: appFeeOnlyForApps(PAYMENTS, APP_FEE_PATHS.top)
  }),
  updateEndpoint(PAYMENTS, payments.schema, BODIES.payments.update, (s) => s.payments.update),
  actionEndpoint("cancel", PAYMENTS, payments.schema, BODIES.payments.cancel, (s) => s.payments.cancel, OPTIONAL),
  actionEndpoint("retry", PAYMENTS, payments.schema, BODIES.payments.retry, (s) => s.payments.retry, OPTIONAL),
  createEndpoint("refunds", refunds.schema, BODIES.refunds.create, (s) => s.payments.createRefund),
  updateEndpoint("refunds", refunds.schema, BODIES.refunds.update, (s) => s.payments.updateRefund)
]
