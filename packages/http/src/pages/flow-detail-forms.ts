import type { BillingRequest, BillingRequestFlow } from "@paykit/engine"
import { type Html, html } from "./html.ts"
import { field, labelOf, type StepForm, stepForm } from "./flow-form-kit.ts"

/**
 * The payer's details and bank account forms. Locked details (`lock_customer_details`) are shown,
 * not asked: their post sends what the flow holds, never what the form says.
 */

export const CUSTOMER_FIELDS = ["email", "given_name", "family_name", "company_name"] as const
export const BILLING_FIELDS = ["address_line1", "address_line2", "address_line3", "city", "region", "postal_code", "country_code", "swedish_identity_number", "danish_identity_number"] as const
export type DetailField = (typeof CUSTOMER_FIELDS)[number] | (typeof BILLING_FIELDS)[number]

const isDetailField = (name: string): name is DetailField => (CUSTOMER_FIELDS as ReadonlyArray<string>).includes(name) || (BILLING_FIELDS as ReadonlyArray<string>).includes(name)

const isCustomerField = (name: DetailField): name is (typeof CUSTOMER_FIELDS)[number] => (CUSTOMER_FIELDS as ReadonlyArray<string>).includes(name)

const blank = (value: string | null | undefined): boolean => value === undefined || value === null || value.trim() === ""

/** What the billing request already holds for a field, else what the flow prefilled. */
export const knownValue = (request: BillingRequest, flow: BillingRequestFlow, name: DetailField): string | null => {
  const held = isCustomerField(name) ? request.resources.customer[name] : request.resources.customer_billing_detail[name]
  return blank(held) ? flow.prefilled_customer?.[name] ?? null : held ?? null
}

/** The fields `collect_customer_details` still misses (its `incomplete_fields`). */
const incompleteFields = (request: BillingRequest): ReadonlyArray<string> => {
  const incomplete = request.actions.find((a) => a.type === "collect_customer_details")?.collect_customer_details?.incomplete_fields
  return incomplete === undefined ? [] : [...incomplete.customer, ...incomplete.customer_billing_detail]
}

const valueOf = (form: StepForm, name: DetailField): string => form.input.values[name] ?? knownValue(form.request, form.flow, name) ?? ""

const ADDRESS_FIELDS: ReadonlyArray<DetailField> = ["address_line1", "address_line2", "address_line3", "city", "region", "postal_code", "country_code"]
const IDENTITY_FIELDS: ReadonlyArray<DetailField> = ["swedish_identity_number", "danish_identity_number"]
/** What the form asks for with `required`: every field but the extra address lines, the region and company name. */
const OPTIONAL_FIELDS: ReadonlyArray<DetailField> = ["address_line2", "address_line3", "region", "company_name"]

const AUTOCOMPLETE: Readonly<Record<DetailField, string | undefined>> = {
  email: "email",
  given_name: "given-name",
  family_name: "family-name",
  company_name: "organization",
  address_line1: "address-line1",
  address_line2: "address-line2",
  address_line3: "address-line3",
  city: "address-level2",
  region: "address-level1",
  postal_code: "postal-code",
  country_code: "country",
  swedish_identity_number: undefined,
  danish_identity_number: undefined
}

/** The fields a payer is asked: the name and email always, the address and identity numbers when the request needs them. */
const askedFields = (request: BillingRequest): ReadonlyArray<DetailField> => {
  const incomplete = incompleteFields(request)
  const address = ADDRESS_FIELDS.some((name) => incomplete.includes(name)) ? ADDRESS_FIELDS : []
  const identity = IDENTITY_FIELDS.filter((name) => incomplete.includes(name))
  return [...CUSTOMER_FIELDS, ...address, ...identity]
}

const detailInput = (form: StepForm, name: DetailField): Html => {
  const autocomplete = AUTOCOMPLETE[name]
  return field(form, name, form.p.messages[`flow_${name}`], valueOf(form, name), {
    required: !OPTIONAL_FIELDS.includes(name),
    ...(autocomplete === undefined ? {} : { autocomplete }),
    ...(name === "email" ? { type: "email" } : {})
  })
}

const lockedDetails = (form: StepForm): Html => {
  const m = form.p.messages
  const known = askedFields(form.request).flatMap((name) => {
    const value = knownValue(form.request, form.flow, name)
    return value === null ? [] : [html`<dt>${m[`flow_${name}`]}</dt><dd>${value}</dd>`]
  })
  const missing = incompleteFields(form.request).filter((name) => !isDetailField(name) || knownValue(form.request, form.flow, name) === null)
  const shown = html`<p>${m.flow_details_locked}</p><dl>${known}</dl>`
  if (missing.length === 0) return stepForm(form, "collect_customer_details", shown, m.flow_continue)
  return html`${shown}<p role="alert">${m.flow_details_locked_missing}</p><ul>${missing.map((name) => html`<li>${labelOf(m, name)}</li>`)}</ul>`
}

export const detailsForm = (form: StepForm): Html => {
  if (form.flow.lock_customer_details) return lockedDetails(form)
  const fields = askedFields(form.request)
  const customer = fields.filter(isCustomerField).map((name) => detailInput(form, name))
  const billing = fields.filter((name) => !isCustomerField(name)).map((name) => detailInput(form, name))
  return stepForm(form, "collect_customer_details", html`${customer}
${billing.length === 0 ? "" : html`<fieldset><legend>${form.p.messages.flow_address}</legend>${billing}</fieldset>`}`, form.p.messages.flow_continue)
}

/** The account fields the bank account form posts (the API's `collect_bank_account` names). */
export const ACCOUNT_FIELDS = ["account_holder_name", "country_code", "iban", "branch_code", "account_number", "bank_code"] as const

const holderOf = (request: BillingRequest): string => {
  const c = request.resources.customer
  return c.company_name ?? [c.given_name, c.family_name].filter((part) => part !== null).join(" ")
}

const accountType = (form: StepForm): Html => {
  const m = form.p.messages
  const prefilled = form.flow.prefilled_bank_account?.account_type
  if (form.flow.lock_bank_account && prefilled !== undefined) {
    return html`<dl><dt>${m.flow_account_type}</dt><dd>${prefilled === "savings" ? m.flow_account_type_savings : m.flow_account_type_checking}</dd></dl>`
  }
  const chosen = form.input.values["account_type"] ?? prefilled ?? ""
  const option = (value: string, label: string) => html`<option value="${value}"${value === chosen ? html` selected` : ""}>${label}</option>`
  return html`<label for="account_type">${m.flow_account_type}</label>
<select id="account_type" name="account_type">${option("", m.flow_account_type_none)}${option("savings", m.flow_account_type_savings)}${option("checking", m.flow_account_type_checking)}</select>`
}

export const bankAccountForm = (form: StepForm): Html => {
  const m = form.p.messages
  const v = form.input.values
  const country = v["country_code"] ?? form.request.resources.customer_billing_detail.country_code ?? "GB"
  return stepForm(form, "collect_bank_account", html`<p class="notice" id="account_hint">${m.flow_account_hint}</p>
${field(form, "account_holder_name", m.bank_account_holder, v["account_holder_name"] ?? holderOf(form.request), { required: true, autocomplete: "name" })}
${field(form, "country_code", m.flow_account_country, country, { required: true, autocomplete: "country" })}
${field(form, "iban", m.flow_iban, v["iban"] ?? "", { describedBy: "account_hint" })}
${field(form, "branch_code", m.bank_branch_code, v["branch_code"] ?? "", { inputmode: "numeric", describedBy: "account_hint" })}
${field(form, "account_number", m.bank_account_number, v["account_number"] ?? "", { inputmode: "numeric", describedBy: "account_hint" })}
${field(form, "bank_code", m.flow_bank_code, v["bank_code"] ?? "", { describedBy: "account_hint" })}
${accountType(form)}`, m.flow_continue)
}
