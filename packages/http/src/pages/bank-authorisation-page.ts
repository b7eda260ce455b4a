import { Effect } from "effect"
import { type Currency, decodeInputEffect, formatMinorUnits, now, timestampToMillis } from "@paykit/core"
import {
  type BankAuthorisation,
  BankAuthorisationOutcomeRequest,
  bankReportsAccount,
  type BillingRequest,
  HOSTED_PAGE_PATHS,
  type Institution
} from "@paykit/engine"
import type { PageRoute } from "../routes.ts"
import { type Html, html } from "./html.ts"
import { layout } from "./layout.ts"
import { csrfToken, csrfValid, errorPage, formFields, formGuard, page, type PageAnswer, pageAt, type PageRequest, redirect, withQuery } from "./page-kit.ts"
import type { PageServices } from "./page-services.ts"

/**
 * The sandbox bank's authorisation page, at a bank authorisation's `url`. Opening it is the
 * payer's visit (`last_visited_at`); its form's Authorise and Deny are the bank's answer, through
 * the same engine actions as the sandbox API's; either sends the payer to `redirect_uri` with
 * `outcome` and `id`. Everything shown is looked up from the authorisation: the form carries only
 * the payer's choice and its CSRF token.
 */

const PURPOSE = "bank_authorisation"

export const OUTCOMES = ["success", "failure", "timeout"] as const
export type Outcome = (typeof OUTCOMES)[number]

/** `redirect_uri` with the outcome and the authorisation's id added to its query. */
export const outcomeUrl = (redirectUri: string, outcome: Outcome, id: string): string => withQuery(redirectUri, { outcome, id })

/** The outcome a finished authorisation reports; `undefined` while the payer may still choose. */
const outcomeOf = (a: BankAuthorisation, nowMs: number): Outcome | undefined => {
  switch (a.status) {
    case "authorised":
      return "success"
    case "denied":
    case "failed":
      return "failure"
    case "expired":
      return "timeout"
    default:
      // Expiry is due work: until it runs, an unfinished authorisation past `expires_at` is expired all the same.
      return timestampToMillis(a.expires_at) <= nowMs ? "timeout" : undefined
  }
}

const amountOf = (request: BillingRequest, p: PageRequest): string => {
  const payment = request.payment_request
  if (payment === null) return p.messages.bank_kind_mandate
  return `${formatMinorUnits(payment.amount, payment.currency as Currency)} ${payment.currency}`
}

/** An instant as people of the page's language write it, in UTC (the sandbox's clocks are UTC). */
const formatInstant = (timestamp: string, language: string): string =>
  `${new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(timestamp))} UTC`

interface Shown {
  readonly authorisation: BankAuthorisation
  readonly request: BillingRequest
  readonly payee: string
  readonly institution: Institution | undefined
}

const details = (p: PageRequest, s: Shown): Html => html`<dl>
<dt>${p.messages.bank_institution}</dt><dd>${s.institution === undefined ? "—" : html`<img src="${s.institution.icon_url}" alt="" width="24" height="24"> ${s.institution.name}`}</dd>
<dt>${p.messages.bank_payee}</dt><dd>${s.payee}</dd>
<dt>${p.messages.bank_kind}</dt><dd>${s.authorisation.authorisation_type === "payment" ? p.messages.bank_kind_payment : p.messages.bank_kind_mandate}</dd>
<dt>${p.messages.bank_amount}</dt><dd>${amountOf(s.request, p)}</dd>
${s.request.payment_request?.description ? html`<dt>${p.messages.bank_description}</dt><dd>${s.request.payment_request.description}</dd>` : ""}
<dt>${p.messages.bank_expires}</dt><dd><time datetime="${s.authorisation.expires_at}">${formatInstant(s.authorisation.expires_at, p.language)}</time></dd>
</dl>`

/** The account the sandbox bank reports for a mandate (the payer types what a real bank would know). */
const accountFields = (p: PageRequest): Html => html`<fieldset>
<legend>${p.messages.bank_account_intro}</legend>
<label for="account_holder_name">${p.messages.bank_account_holder}</label>
<input id="account_holder_name" name="account_holder_name" autocomplete="name" required>
<label for="branch_code">${p.messages.bank_branch_code}</label>
<input id="branch_code" name="branch_code" inputmode="numeric" required>
<label for="account_number">${p.messages.bank_account_number}</label>
<input id="account_number" name="account_number" inputmode="numeric" required>
</fieldset>`

const choiceForm = (p: PageRequest, token: string, withAccount: boolean): Html => html`<form method="post" action="${p.href}">
${formGuard(p, token)}
${withAccount ? accountFields(p) : ""}
<div class="actions">
<button type="submit" class="primary" name="choice" value="authorise">${p.messages.bank_authorise}</button>
<button type="submit" class="secondary" name="choice" value="deny" formnovalidate>${p.messages.bank_deny}</button>
</div>
</form>`

const decodeOutcome = decodeInputEffect(BankAuthorisationOutcomeRequest, "bank_authorisations")

/** The bank's outcome: the account from the form when the bank must report one (a UK account: the sandbox bank is British). */
const outcomeOfForm = (p: PageRequest, request: BillingRequest) => {
  if (!bankReportsAccount(request)) return decodeOutcome({})
  const fields = formFields(p.request)
  return decodeOutcome({
    bank_account: {
      account_holder_name: fields["account_holder_name"] ?? "",
      branch_code: fields["branch_code"] ?? "",
      account_number: fields["account_number"] ?? "",
      country_code: "GB"
    }
  })
}

const finished = (p: PageRequest, s: Shown, outcome: Outcome): Html => html`<p class="status" role="status">${
  outcome === "timeout" ? p.messages.bank_expired : p.messages.bank_finished
}</p>
<p><a href="${outcomeUrl(s.authorisation.redirect_uri, outcome, s.authorisation.id)}">${p.messages.bank_continue}</a></p>`

/** What the page shows of an authorisation: its billing request, payee, institution and theme. */
const shownOf = (services: PageServices, p: PageRequest, authorisation: BankAuthorisation) =>
  Effect.gen(function*() {
    const request = yield* services.billingRequests.get(p.organisation, authorisation.links.billing_request)
    const creditor = yield* services.creditors.get(p.organisation, request.links.creditor)
    const institutionId = authorisation.links.institution ?? request.links.institution
    const institution = institutionId === undefined
      ? undefined
      : yield* Effect.match(services.institutions.get(institutionId), { onFailure: () => undefined, onSuccess: (i) => i })
    const theme = yield* services.themeOf(p.organisation, creditor.id)
    return { shown: { authorisation, request, payee: creditor.name, institution }, theme }
  })

const show = (services: PageServices): PageAnswer => (p) =>
  Effect.gen(function*() {
    const current = yield* services.bankAuthorisations.get(p.organisation, p.id)
    const nowMs = timestampToMillis(yield* now)
    const pending = outcomeOf(current, nowMs) === undefined
    // Opening the page is the payer's visit; a second opening changes nothing.
    const authorisation = pending && current.status === "created" ? yield* services.bankAuthorisations.visit(p.organisation, p.id) : current
    const { shown, theme } = yield* shownOf(services, p, authorisation)
    const outcome = outcomeOf(authorisation, nowMs)
    const content = html`<p>${p.messages.bank_intro}</p>
<p class="notice">${p.messages.sandbox_notice}</p>
${details(p, shown)}
${outcome === undefined ? choiceForm(p, csrfToken(services.csrf, p, PURPOSE), bankReportsAccount(shown.request)) : finished(p, shown, outcome)}`
    return page(200, layout({ language: p.language, messages: p.messages, title: p.messages.bank_title, theme, path: p.href, content }))
  })

const choose = (services: PageServices): PageAnswer => (p) =>
  Effect.gen(function*() {
    if (!csrfValid(services.csrf, p, PURPOSE)) return errorPage(p, 403, p.messages.error_form_expired)
    const choice = formFields(p.request)["choice"]
    if (choice !== "authorise" && choice !== "deny") return errorPage(p, 400, p.messages.error_form_expired)
    const current = yield* services.bankAuthorisations.get(p.organisation, p.id)
    const settled = outcomeOf(current, timestampToMillis(yield* now))
    // A choice made after expiry, or after another tab's choice, reports what happened instead.
    if (settled !== undefined) return redirect(outcomeUrl(current.redirect_uri, settled, current.id))
    const next = choice === "authorise"
      ? yield* Effect.flatMap(
        Effect.flatMap(services.billingRequests.get(p.organisation, current.links.billing_request), (request) => outcomeOfForm(p, request)),
        (outcome) => services.bankAuthorisations.authorise(p.organisation, p.id, outcome)
      )
      : yield* services.bankAuthorisations.deny(p.organisation, p.id)
    return redirect(outcomeUrl(next.redirect_uri, choice === "authorise" ? "success" : "failure", next.id))
  })

/** Where the payer lands when the merchant gave no `redirect_uri`: the outcome, said in words. */
const complete = (services: PageServices): PageAnswer => (p) =>
  Effect.gen(function*() {
    const authorisation = yield* services.bankAuthorisations.get(p.organisation, p.id)
    const { theme } = yield* shownOf(services, p, authorisation)
    const outcome = outcomeOf(authorisation, timestampToMillis(yield* now))
    const said = outcome === "success" ? p.messages.outcome_success : outcome === "timeout" ? p.messages.outcome_timeout : p.messages.outcome_failure
    const content = html`<p class="status" role="status">${outcome === undefined ? p.messages.bank_intro : said}</p>`
    return page(200, layout({ language: p.language, messages: p.messages, title: p.messages.complete_title, theme, path: p.href, content }))
  })

/** On a live server: no sandbox bank, so neither a visit, a choice nor an outcome (`SandboxBankPage`). */
const liveRefusal: PageAnswer = (p) => Effect.succeed(errorPage(p, 403, p.messages.bank_sandbox_only))

export const bankAuthorisationPages = (services: PageServices): ReadonlyArray<PageRoute> => {
  const served = (answer: PageAnswer): PageAnswer => services.sandboxBank ? answer : liveRefusal
  return [
    pageAt(services, "GET", HOSTED_PAGE_PATHS.bankAuthorisation, served(show(services))),
    pageAt(services, "POST", HOSTED_PAGE_PATHS.bankAuthorisation, served(choose(services))),
    pageAt(services, "GET", HOSTED_PAGE_PATHS.bankAuthorisationComplete, served(complete(services)))
  ]
}
