import { CURRENCIES, type Currency, formatMinorUnits } from "@paykit/core"
import type { BillingRequest, Institution } from "@paykit/engine"
import { type Html, html } from "./html.ts"
import type { PageRequest } from "./page-kit.ts"
import { type StepForm, stepForm } from "./flow-form-kit.ts"

/** The flow pages' summary and their short forms: currency, confirmation, bank choice, the way to the bank. */

const amountOf = (request: BillingRequest): string | undefined => {
  const payment = request.payment_request
  return payment === null ? undefined : `${formatMinorUnits(payment.amount, payment.currency as Currency)} ${payment.currency}`
}

/** Who asks for what: the payee, the kind of request, its amount and description, looked up from the request. */
export const requestSummary = (p: PageRequest, request: BillingRequest, payee: string): Html => {
  const m = p.messages
  const kind = request.payment_request === null ? m.bank_kind_mandate : request.mandate_request === null ? m.bank_kind_payment : m.flow_kind_both
  const amount = amountOf(request)
  const description = request.payment_request?.description ?? request.mandate_request?.description
  return html`<dl>
<dt>${m.bank_payee}</dt><dd>${payee}</dd>
<dt>${m.bank_kind}</dt><dd>${kind}</dd>
${amount === undefined ? "" : html`<dt>${m.bank_amount}</dt><dd>${amount}</dd>`}
${description ? html`<dt>${m.bank_description}</dt><dd>${description}</dd>` : ""}
</dl>`
}

export const currencyForm = (form: StepForm): Html => {
  const chosen = form.input.values["currency"] ?? form.request.mandate_request?.currency ?? ""
  return stepForm(form, "choose_currency", html`<fieldset><legend>${form.p.messages.flow_currency}</legend>${
    CURRENCIES.map((currency) =>
      html`<label class="choice"><input type="radio" name="currency" value="${currency}" required${currency === chosen ? html` checked` : ""}> ${currency}</label>`)
  }</fieldset>`, form.p.messages.flow_continue)
}

export const confirmForm = (form: StepForm): Html => {
  const m = form.p.messages
  const customer = form.request.resources.customer
  const detail = form.request.resources.customer_billing_detail
  const account = form.request.resources.customer_bank_account
  const name = [customer.given_name, customer.family_name].filter((part) => part !== null).join(" ")
  const address = [detail.address_line1, detail.address_line2, detail.city, detail.postal_code, detail.country_code].filter((part) => part !== null && part !== "")
  return stepForm(form, "confirm_payer_details", html`<p>${m.flow_confirm_intro}</p>
<dl>
<dt>${m.flow_name}</dt><dd>${customer.company_name ?? name}</dd>
<dt>${m.flow_email}</dt><dd>${customer.email ?? "—"}</dd>
${address.length === 0 ? "" : html`<dt>${m.flow_address}</dt><dd>${address.join(", ")}</dd>`}
${account === null ? "" : html`<dt>${m.bank_account_holder}</dt><dd>${account.account_holder_name}</dd>
<dt>${m.flow_account_ending}</dt><dd>${account.account_number_ending}</dd>
${account.bank_name === null ? "" : html`<dt>${m.bank_institution}</dt><dd>${account.bank_name}</dd>`}`}
</dl>`, m.flow_confirm)
}

export const institutionForm = (form: StepForm, institutions: ReadonlyArray<Institution>): Html => {
  const m = form.p.messages
  if (institutions.length === 0) return html`<p role="status">${m.flow_institution_none}</p>`
  const chosen = form.input.values["institution"] ?? form.request.links.institution
  return stepForm(form, "select_institution", html`<p>${m.flow_institution_intro}</p>
<fieldset><legend>${m.flow_title_institution}</legend>${
    institutions.map((institution) =>
      html`<label class="choice"><input type="radio" name="institution" value="${institution.id}" required${institution.id === chosen ? html` checked` : ""}> <img src="${institution.icon_url}" alt="" width="24" height="24"> ${institution.name}</label>`)
  }</fieldset>`, m.flow_continue)
}

export const authoriseForm = (form: StepForm, institution: Institution | undefined, notAuthorised: boolean): Html => {
  const m = form.p.messages
  return stepForm(form, "bank_authorisation", html`${notAuthorised ? html`<p role="status" class="status">${m.flow_bank_not_authorised}</p>` : ""}
<p>${m.flow_authorise_intro}</p>
${institution === undefined ? "" : html`<p><img src="${institution.icon_url}" alt="" width="24" height="24"> ${institution.name}</p>`}`, m.flow_go_to_bank)
}
