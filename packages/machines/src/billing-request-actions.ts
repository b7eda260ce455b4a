import { MandateScheme } from "@paykit/core"
import { Result, Schema } from "effect"
import type { Refusal } from "./machine.ts"

/** Action types, as the real API (`BillingRequestActionType`). */
export const BILLING_REQUEST_ACTION_TYPES = [
  "choose_currency", "collect_amount", "collect_customer_details", "collect_bank_account", "bank_authorisation",
  "confirm_payer_details", "select_institution"
] as const
export const BillingRequestActionType = Schema.Literals(BILLING_REQUEST_ACTION_TYPES)
  .annotate({ identifier: "BillingRequestActionType" })
export type BillingRequestActionType = typeof BillingRequestActionType.Type

export const BillingRequestActionStatus = Schema.Literals(["pending", "completed"])
  .annotate({ identifier: "BillingRequestActionStatus" })
export type BillingRequestActionStatus = typeof BillingRequestActionStatus.Type

export const IncompleteFields = Schema.Struct({
  customer: Schema.Array(Schema.String),
  customer_billing_detail: Schema.Array(Schema.String)
})
export type IncompleteFields = typeof IncompleteFields.Type

/** One item of a billing request's `actions`, with the real API's field names. */
export const BillingRequestAction = Schema.Struct({
  type: BillingRequestActionType,
  required: Schema.Boolean,
  completes_actions: Schema.Array(BillingRequestActionType),
  requires_actions: Schema.Array(BillingRequestActionType),
  status: BillingRequestActionStatus,
  collect_customer_details: Schema.optionalKey(Schema.Struct({ incomplete_fields: IncompleteFields })),
  bank_authorisation: Schema.optionalKey(Schema.Struct({ authorisation_type: Schema.Literals(["payment", "mandate"]) }))
}).annotate({ identifier: "BillingRequestAction" })
export type BillingRequestAction = typeof BillingRequestAction.Type

/** Schemes of a billing request's `payment_request`. */
export const PaymentRequestScheme = Schema.Literals(["faster_payments", "sepa_credit_transfer", "sepa_instant_credit_transfer"])
  .annotate({ identifier: "PaymentRequestScheme" })
export type PaymentRequestScheme = typeof PaymentRequestScheme.Type

const OptionalText = Schema.optionalKey(Schema.NullOr(Schema.String))

/** What a billing request holds that decides its actions. */
export const BillingRequestFacts = Schema.Struct({
  mandate_request: Schema.NullOr(Schema.Struct({
    /** Null for a mandate-only request where the payer chooses. */
    scheme: Schema.NullOr(MandateScheme),
    currency: Schema.NullOr(Schema.String)
  })),
  payment_request: Schema.NullOr(Schema.Struct({ scheme: PaymentRequestScheme, currency: Schema.String })),
  customer: Schema.Struct({
    email: OptionalText,
    given_name: OptionalText,
    family_name: OptionalText,
    company_name: OptionalText
  }),
  customer_billing_detail: Schema.Struct({
    address_line1: OptionalText,
    city: OptionalText,
    postal_code: OptionalText,
    country_code: OptionalText,
    swedish_identity_number: OptionalText,
    danish_identity_number: OptionalText
  }),
  bank_account_present: Schema.Boolean,
  institution_selected: Schema.Boolean
}).annotate({ identifier: "BillingRequestFacts" })
export type BillingRequestFacts = typeof BillingRequestFacts.Type

/** Mandate schemes authorised at the payer's bank (open banking) rather than by bank details. */
export const OPEN_BANKING_MANDATE_SCHEMES: ReadonlyArray<MandateScheme> = ["pay_to", "faster_payments"]

const isOpenBankingMandate = (scheme: MandateScheme | null): boolean =>
  scheme !== null && OPEN_BANKING_MANDATE_SCHEMES.includes(scheme)

const blank = (v: string | null | undefined): boolean => v === undefined || v === null || v.trim() === ""

/**
 * The customer fields a billing request still needs. Our rule, after the real API's answers:
 * every request needs `email` and a name (`given_name` and `family_name`, or `company_name`);
 * a direct-debit mandate also needs the billing address, plus the Swedish identity number on
 * Autogiro and the Danish one on Betalingsservice.
 */
export const incompleteFields = (facts: BillingRequestFacts): IncompleteFields => {
  const c = facts.customer
  const customer: Array<string> = []
  if (blank(c.email)) customer.push("email")
  if (blank(c.company_name)) {
    if (blank(c.given_name)) customer.push("given_name")
    if (blank(c.family_name)) customer.push("family_name")
  }
  const billing: Array<string> = []
  const mandate = facts.mandate_request
  if (mandate !== null && !isOpenBankingMandate(mandate.scheme)) {
    const d = facts.customer_billing_detail
    if (blank(d.address_line1)) billing.push("address_line1")
    if (blank(d.city)) billing.push("city")
    if (blank(d.postal_code)) billing.push("postal_code")
    if (blank(d.country_code)) billing.push("country_code")
    if (mandate.scheme === "autogiro" && blank(d.swedish_identity_number)) billing.push("swedish_identity_number")
    if (mandate.scheme === "betalingsservice" && blank(d.danish_identity_number)) billing.push("danish_identity_number")
  }
  return { customer, customer_billing_detail: billing }
}

/** Whether the payer must authorise at their bank: payment requests, PayTo and VRP mandates. */
export const needsBankAuthorisation = (facts: BillingRequestFacts): boolean =>
  facts.payment_request !== null || (facts.mandate_request !== null && isOpenBankingMandate(facts.mandate_request.scheme))

/**
 * The actions of a billing request built from what it holds, as the real API lists them:
 * - `choose_currency` with a mandate request (completed once the currency is known);
 * - `collect_customer_details` always, requiring `choose_currency` when present, with its
 *   `incomplete_fields` (completed when none is missing);
 * - `collect_bank_account`, required for a direct-debit mandate, optional for bank authorisation
 *   flows (the bank authorisation completes it); it completes `choose_currency`;
 * - `confirm_payer_details` with a mandate request (not required for PayTo), requiring the
 *   customer details and the bank account;
 * - `select_institution` and `bank_authorisation` (requiring the institution) for payment
 *   requests on Faster Payments or SEPA credit transfers and for PayTo / VRP mandates.
 */
export const buildActions = (facts: BillingRequestFacts): ReadonlyArray<BillingRequestAction> => {
  const actions: Array<BillingRequestAction> = []
  const mandate = facts.mandate_request
  const bankAuthorisation = needsBankAuthorisation(facts)
  const hasChooseCurrency = mandate !== null
  if (hasChooseCurrency) {
    const currencyKnown = mandate.currency !== null || facts.payment_request !== null
    actions.push({
      type: "choose_currency", required: true, completes_actions: [], requires_actions: [],
      status: currencyKnown ? "completed" : "pending"
    })
  }
  const incomplete = incompleteFields(facts)
  // Prefilled details count as collected only once the currency they were checked against is
  // settled: an action is never completed ahead of what it requires.
  const currencySettled = actions.every((a) => a.status === "completed")
  const detailsComplete = incomplete.customer.length === 0 && incomplete.customer_billing_detail.length === 0 &&
    currencySettled
  actions.push({
    type: "collect_customer_details", required: true, completes_actions: [],
    requires_actions: hasChooseCurrency ? ["choose_currency"] : [],
    status: detailsComplete ? "completed" : "pending",
    collect_customer_details: { incomplete_fields: incomplete }
  })
  const directDebitMandate = mandate !== null && !isOpenBankingMandate(mandate.scheme)
  if (mandate !== null || bankAuthorisation) {
    actions.push({
      type: "collect_bank_account", required: directDebitMandate,
      completes_actions: hasChooseCurrency ? ["choose_currency"] : [], requires_actions: [],
      status: facts.bank_account_present ? "completed" : "pending"
    })
  }
  if (mandate !== null) {
    actions.push({
      type: "confirm_payer_details", required: mandate.scheme !== "pay_to", completes_actions: [],
      requires_actions: ["collect_customer_details", "collect_bank_account"], status: "pending"
    })
  }
  if (bankAuthorisation) {
    actions.push({
      type: "select_institution", required: true, completes_actions: [], requires_actions: [],
      status: facts.institution_selected ? "completed" : "pending"
    })
    actions.push({
      type: "bank_authorisation", required: true, completes_actions: ["collect_bank_account"],
      requires_actions: ["select_institution"], status: "pending",
      bank_authorisation: { authorisation_type: facts.payment_request !== null ? "payment" : "mandate" }
    })
  }
  return actions
}

export const findAction = (
  actions: ReadonlyArray<BillingRequestAction>,
  type: BillingRequestActionType
): BillingRequestAction | undefined => actions.find((a) => a.type === type)

const isCompleted = (actions: ReadonlyArray<BillingRequestAction>, type: BillingRequestActionType): boolean =>
  findAction(actions, type)?.status === "completed"

/** The actions `type` requires that are not completed yet. */
export const pendingRequirements = (
  actions: ReadonlyArray<BillingRequestAction>,
  type: BillingRequestActionType
): ReadonlyArray<BillingRequestActionType> =>
  (findAction(actions, type)?.requires_actions ?? []).filter((r) => !isCompleted(actions, r))

/** Every required action is completed: the request is ready to fulfil. */
export const allRequiredCompleted = (actions: ReadonlyArray<BillingRequestAction>): boolean =>
  actions.every((a) => !a.required || a.status === "completed")

/**
 * Completes the pending action `type` and, as a side effect, the actions it lists in
 * `completes_actions` (and those they complete). Refused when the request has no such action, when it is already
 * completed, or when an action it requires is not completed yet.
 */
export const completeAction = (
  actions: ReadonlyArray<BillingRequestAction>,
  type: BillingRequestActionType
): Result.Result<ReadonlyArray<BillingRequestAction>, Refusal> => {
  const action = findAction(actions, type)
  if (action === undefined) {
    return Result.fail({
      reason: "billing_request_action_not_available",
      message: `This billing request has no ${type} action`
    })
  }
  if (action.status === "completed") {
    return Result.fail({
      reason: "billing_request_action_already_completed",
      message: `The ${type} action of this billing request is already completed`
    })
  }
  const pending = pendingRequirements(actions, type)
  if (pending.length > 0) {
    return Result.fail({
      reason: "billing_request_action_requires_actions",
      message: `The ${type} action requires ${pending.join(", ")} to be completed first`
    })
  }
  // Completion is transitive: a bank authorisation completes the bank account, which in turn
  // settles the currency.
  const completes = new Set<BillingRequestActionType>([type])
  const queue: Array<BillingRequestActionType> = [...action.completes_actions]
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (completes.has(next)) continue
    completes.add(next)
    queue.push(...(findAction(actions, next)?.completes_actions ?? []))
  }
  return Result.succeed(actions.map((a) => (completes.has(a.type) ? { ...a, status: "completed" as const } : a)))
}

/**
 * The actions with those of `types` pending again: choosing a currency once more reopens the
 * choice, and the customer details when the new scheme asks for more than was collected.
 */
export const reopenActions = (
  actions: ReadonlyArray<BillingRequestAction>,
  types: ReadonlyArray<BillingRequestActionType>
): ReadonlyArray<BillingRequestAction> =>
  actions.map((a): BillingRequestAction => (types.includes(a.type) ? { ...a, status: "pending" } : a))

/**
 * Falls back from open banking to direct debit: the bank authorisation (and choosing its
 * institution) is no longer required, and the bank account must be collected instead.
 */
export const fallbackActions = (actions: ReadonlyArray<BillingRequestAction>): ReadonlyArray<BillingRequestAction> => {
  const relaxed = actions.map((a): BillingRequestAction =>
    a.type === "bank_authorisation" || a.type === "select_institution"
      ? { ...a, required: false }
      : a.type === "collect_bank_account"
      ? { ...a, required: true }
      : a
  )
  if (findAction(relaxed, "collect_bank_account") !== undefined) return relaxed
  const hasChooseCurrency = findAction(relaxed, "choose_currency") !== undefined
  return [...relaxed, {
    type: "collect_bank_account", required: true,
    completes_actions: hasChooseCurrency ? ["choose_currency"] : [], requires_actions: [], status: "pending"
  }]
}
