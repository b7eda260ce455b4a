import { Effect } from "effect"
import { decodeInputEffect, type PaykitError } from "@paykit/core"
import {
  type BillingRequest,
  type BillingRequestFlow,
  ChooseCurrencyRequest,
  CollectCustomerDetailsRequest,
  SelectInstitutionRequest
} from "@paykit/engine"
import { CollectBankAccount } from "@paykit/validation"
import { ACCOUNT_FIELDS, BILLING_FIELDS, CUSTOMER_FIELDS, knownValue } from "./flow-detail-forms.ts"
import type { FlowStep } from "./flow-steps.ts"
import type { PageRequest } from "./page-kit.ts"
import type { PageServices } from "./page-services.ts"

/**
 * What each step's post does: the form's answers decoded by the API's own Schemas (the bodies of
 * `collect_customer_details`, `collect_bank_account`, ... under `billing_requests`), then the
 * engine's action the API calls for that endpoint. Only `bank_authorisation` is not here: it
 * leaves the flow for the bank (`flow-page.ts`).
 */

const ROOT = "billing_requests"
const decodeDetails = decodeInputEffect(CollectCustomerDetailsRequest, ROOT)
const decodeAccount = decodeInputEffect(CollectBankAccount, ROOT)
const decodeCurrency = decodeInputEffect(ChooseCurrencyRequest, ROOT)
const decodeInstitution = decodeInputEffect(SelectInstitutionRequest, ROOT)

/** Fields the payer filled in, trimmed; blanks left out (an empty field is not an answer). Country codes upper-cased. */
const answered = (fields: Readonly<Record<string, string>>, names: ReadonlyArray<string>): Record<string, string> =>
  Object.fromEntries(names.flatMap((name) => {
    const value = fields[name]?.trim() ?? ""
    return value === "" ? [] : [[name, name === "country_code" ? value.toUpperCase() : value]]
  }))

/** Locked details: what the page showed (held, else prefilled), whatever the form says. */
const lockedValues = (request: BillingRequest, flow: BillingRequestFlow): Record<string, string> =>
  Object.fromEntries([...CUSTOMER_FIELDS, ...BILLING_FIELDS].flatMap((name) => {
    const value = knownValue(request, flow, name)
    return value === null ? [] : [[name, value]]
  }))

const detailsCommand = (p: PageRequest, request: BillingRequest, flow: BillingRequestFlow, fields: Readonly<Record<string, string>>) => {
  const given = flow.lock_customer_details ? lockedValues(request, flow) : fields
  return {
    // The page's language is the payer's: kept on the customer, as the API's body may set it.
    customer: { ...answered(given, CUSTOMER_FIELDS), language: p.language },
    customer_billing_detail: answered(given, BILLING_FIELDS)
  }
}

/**
 * The account as the API's body: the account type only for a US account (the API refuses it on
 * any other), the flow's prefilled one when locked, whatever the form says.
 */
const accountCommand = (flow: BillingRequestFlow, fields: Readonly<Record<string, string>>) => {
  const account = answered(fields, ACCOUNT_FIELDS)
  const prefilled = flow.prefilled_bank_account?.account_type
  const type = flow.lock_bank_account && prefilled !== undefined ? prefilled : fields["account_type"] || prefilled
  return { ...account, ...(type === undefined || type === "" || account["country_code"] !== "US" ? {} : { account_type: type }) }
}

/** The country whose banks the payer chooses from: the billing address's, else the UK's (the sandbox's banks are British). */
export const institutionCountry = (request: BillingRequest): string => request.resources.customer_billing_detail.country_code ?? "GB"

export interface StepAction {
  readonly services: PageServices
  readonly p: PageRequest
  readonly flow: BillingRequestFlow
  readonly request: BillingRequest
  readonly fields: Readonly<Record<string, string>>
}

export const actOn = (step: Exclude<FlowStep, "bank_authorisation">, a: StepAction): Effect.Effect<BillingRequest, PaykitError> => {
  const { services, p, request } = a
  const br = services.billingRequests
  switch (step) {
    case "choose_currency":
      return Effect.flatMap(decodeCurrency({ currency: a.fields["currency"] ?? "" }), (c) => br.chooseCurrency(p.organisation, request.id, c))
    case "collect_customer_details":
      return Effect.flatMap(decodeDetails(detailsCommand(p, request, a.flow, a.fields)), (c) => br.collectCustomerDetails(p.organisation, request.id, c))
    case "collect_bank_account":
      return Effect.flatMap(decodeAccount(accountCommand(a.flow, a.fields)), (c) => br.collectBankAccount(p.organisation, request.id, c))
    case "confirm_payer_details":
      return br.confirmPayerDetails(p.organisation, request.id, {})
    case "select_institution":
      return Effect.flatMap(
        decodeInstitution({ institution: a.fields["institution"] ?? "", country_code: institutionCountry(request) }),
        (c) => br.selectInstitution(p.organisation, request.id, c)
      )
  }
}
