import { Effect } from "effect"
import { decodeInputEffect, NotFound, now, type OrganisationId, type PaykitError, type StorageError, type Timestamp, timestampToMillis } from "@paykit/core"
import { type BillingRequest, BillingRequestInstitutionParams, type BillingRequestFlow, HOSTED_PAGE_PATHS, HostedPagesBaseUrl, type RedirectFlow } from "@paykit/engine"
import type { ApiResponse } from "../api-response.ts"
import type { PageRoute } from "../routes.ts"
import { html, type HtmlValue } from "./html.ts"
import { layout, type Theme } from "./layout.ts"
import { actOn, institutionCountry } from "./flow-actions.ts"
import { bankAccountForm, detailsForm } from "./flow-detail-forms.ts"
import { type FormInput, NO_INPUT, type StepForm } from "./flow-form-kit.ts"
import { authoriseForm, confirmForm, currencyForm, institutionForm, requestSummary } from "./flow-forms.ts"
import { type FlowState, type FlowStep, flowStateOf } from "./flow-steps.ts"
import { csrfToken, csrfValid, errorPage, formFields, inLanguageOf, page, type PageAnswer, pageAt, type PageRequest, redirect, withQuery } from "./page-kit.ts"
import type { PageServices } from "./page-services.ts"
import type { MessageKey } from "./messages/en.ts"

/**
 * The billing request flow pages (at a flow's `authorisation_url`) and the redirect flow pages (at
 * a redirect flow's `redirect_url`): one page whose form is the step the billing request is at
 * (`flow-steps.ts`), each step posting to the engine action the API has for it, so the billing
 * request's actions and events are those of an API-driven flow. Once every required action is
 * done, a flow with `auto_fulfil` fulfils the request (the API's fulfil), and the payer is sent
 * to `redirect_uri` (a redirect flow's: `success_redirect_url` with `redirect_flow_id`, after
 * which the merchant completes it with its session token).
 */

interface FlowView {
  readonly flow: BillingRequestFlow
  readonly expiresAt: Timestamp
  /** Where the payer goes at the end; null: the last page is the end. */
  readonly finishUrl: string | null
}

interface Loader {
  /** The CSRF purpose of the page's forms. */
  readonly purpose: string
  readonly load: (services: PageServices, p: PageRequest) => Effect.Effect<FlowView, PaykitError>
}

const billingRequestFlowView: Loader = {
  purpose: "billing_request_flow",
  load: (services, p) =>
    Effect.map(services.billingRequestFlows.get(p.organisation, p.id), (flow) => ({
      flow,
      expiresAt: flow.expires_at,
      finishUrl: flow.redirect_uri
    }))
}

/**
 * A redirect flow's own billing request flow (its language is the redirect flow's) (its stored link), never a later one made on the
 * same request through the API. Flows stored before the link was kept: their request's newest.
 */
export const ownFlowOf = (services: PageServices, organisation: OrganisationId, redirectFlow: RedirectFlow): Effect.Effect<BillingRequestFlow, NotFound | StorageError> =>
  Effect.gen(function*() {
    const own = yield* services.redirectFlows.ownBillingRequestFlow(organisation, redirectFlow.id)
    const flow = own === undefined ? yield* services.billingRequestFlows.forBillingRequest(organisation, redirectFlow.links.billing_request) : yield* services.billingRequestFlows.get(organisation, own)
    return flow ?? (yield* new NotFound({ resource: "redirect_flows", id: redirectFlow.id }))
  })

const redirectFlowView: Loader = {
  purpose: "redirect_flow",
  load: (services, p) =>
    Effect.gen(function*() {
    const redirectFlow = yield* services.redirectFlows.get(p.organisation, p.id)
    const flow = yield* ownFlowOf(services, p.organisation, redirectFlow)
    return {
      flow,
      expiresAt: redirectFlow.expires_at,
      finishUrl: withQuery(redirectFlow.success_redirect_url, { redirect_flow_id: redirectFlow.id })
    }
  })
}

interface FlowContext {
  readonly services: PageServices
  readonly p: PageRequest
  readonly view: FlowView
  /** The CSRF purpose of the page's forms. */
  readonly purpose: string
  readonly request: BillingRequest
  readonly payee: string
  readonly theme: Theme
  readonly expired: boolean
}

/**
 * The payer's part is over (the last step, or the bank's return): the flow fulfils as the API's
 * fulfil. A concurrent page that fulfilled first (InvalidState) leaves the request as it is now.
 */
const fulfilled = (services: PageServices, p: PageRequest, flow: BillingRequestFlow, current: BillingRequest): Effect.Effect<BillingRequest, PaykitError> =>
  current.status !== "ready_to_fulfil" || !flow.auto_fulfil
    ? Effect.succeed(current)
    : Effect.catchTag(services.billingRequests.fulfil(p.organisation, current.id), "InvalidState", () => services.billingRequests.get(p.organisation, current.id))

/** The flow, its billing request as it is now (fulfilled if the payer is done and the flow fulfils), its payee and theme, in the flow's language. */
const contextOf = (services: PageServices, loader: Loader, given: PageRequest): Effect.Effect<FlowContext, PaykitError> =>
  Effect.gen(function*() {
    const view = yield* loader.load(services, given)
    const p = inLanguageOf(given, view.flow.language)
    // Checked before anything is done: an expired flow's link, opened later, fulfils nothing.
    const expired = timestampToMillis(view.expiresAt) <= timestampToMillis(yield* now)
    const current = yield* services.billingRequests.get(p.organisation, view.flow.links.billing_request)
    const request = expired ? current : yield* fulfilled(services, p, view.flow, current)
    const creditor = yield* services.creditors.get(p.organisation, request.links.creditor)
    const theme = yield* services.themeOf(p.organisation, creditor.id)
    return { services, p, view, purpose: loader.purpose, request, payee: creditor.name, theme, expired }
  })

const TITLES: Readonly<Record<FlowStep, MessageKey>> = {
  choose_currency: "flow_title_currency",
  collect_customer_details: "flow_title_details",
  collect_bank_account: "flow_title_bank_account",
  confirm_payer_details: "flow_title_confirm",
  select_institution: "flow_title_institution",
  bank_authorisation: "flow_title_authorise"
}

const framed = (ctx: FlowContext, status: number, title: string, content: HtmlValue): ApiResponse =>
  page(status, layout({ language: ctx.p.language, messages: ctx.p.messages, title, theme: ctx.theme, path: ctx.p.href, content: html`${content}` }))

const exitLink = (ctx: FlowContext): HtmlValue =>
  ctx.view.flow.exit_uri === null ? "" : html`<p><a href="${ctx.view.flow.exit_uri}">${ctx.p.messages.flow_exit}</a></p>`

const stepContent = (ctx: FlowContext, step: FlowStep, input: FormInput): Effect.Effect<HtmlValue, PaykitError> => {
  const form: StepForm = { p: ctx.p, token: csrfToken(ctx.services.csrf, ctx.p, ctx.purpose), request: ctx.request, flow: ctx.view.flow, input }
  switch (step) {
    case "choose_currency":
      return Effect.succeed(currencyForm(form))
    case "collect_customer_details":
      return Effect.succeed(detailsForm(form))
    case "collect_bank_account":
      return Effect.succeed(bankAccountForm(form))
    case "confirm_payer_details":
      return Effect.succeed(confirmForm(form))
    case "select_institution":
      return Effect.map(
        Effect.flatMap(decodeInputEffect(BillingRequestInstitutionParams, "institutions")({ country_code: institutionCountry(ctx.request) }), (params) =>
          ctx.services.billingRequests.institutions(ctx.p.organisation, ctx.request.id, params)),
        (institutions) => institutionForm(form, institutions)
      )
    case "bank_authorisation": {
      const outcome = ctx.p.request.query["outcome"]
      const chosen = ctx.request.links.institution
      const institution = chosen === undefined ? Effect.succeed(undefined) : Effect.match(ctx.services.institutions.get(chosen), { onFailure: () => undefined, onSuccess: (i) => i })
      return Effect.map(institution, (i) => authoriseForm(form, i, outcome === "failure" || outcome === "timeout"))
    }
  }
}

/** The page for where the flow is: a step's form, or the end. */
const render = (ctx: FlowContext, state: FlowState, input: FormInput, status = 200): Effect.Effect<ApiResponse, PaykitError> => {
  const m = ctx.p.messages
  const summary = requestSummary(ctx.p, ctx.request, ctx.payee)
  if (ctx.expired && state.kind !== "fulfilled") return Effect.succeed(framed(ctx, 410, m.flow_title_expired, html`<p role="status">${m.flow_expired}</p>${exitLink(ctx)}`))
  switch (state.kind) {
    case "step":
      return Effect.map(stepContent(ctx, state.step, input), (form) => framed(ctx, status, m[TITLES[state.step]], html`${summary}${form}${exitLink(ctx)}`))
    case "ready":
    case "fulfilled": {
      const finish = ctx.view.finishUrl
      return Effect.succeed(framed(ctx, status, m.flow_title_done, html`<p role="status" class="status">${m.flow_done}</p>${summary}${
        finish === null ? "" : html`<p><a href="${finish}">${m.bank_continue}</a></p>`
      }`))
    }
    case "closed":
      return Effect.succeed(framed(ctx, status, m.flow_title_closed, html`<p role="status">${m.flow_closed}</p>${exitLink(ctx)}`))
    case "blocked":
      return Effect.succeed(framed(ctx, status, m.flow_title_closed, html`<p role="status">${m.flow_blocked}</p>${exitLink(ctx)}`))
  }
}

/** Straight to the merchant once the payer is done, when the flow skips its success screen. */
const skipToMerchant = (ctx: FlowContext, state: FlowState): ApiResponse | undefined =>
  (state.kind === "ready" || state.kind === "fulfilled") && ctx.view.flow.skip_success_screen && ctx.view.finishUrl !== null
    ? redirect(ctx.view.finishUrl)
    : undefined

/**
 * The page again (the flow's state decides what it shows). No `lang`: the page's language is the
 * flow's, or the one the payer chose with the language switch (its cookie).
 */
const again = (ctx: FlowContext): ApiResponse => redirect(ctx.p.path)

const show = (services: PageServices, load: Loader): PageAnswer => (given) =>
  Effect.gen(function*() {
    const ctx = yield* contextOf(services, load, given)
    const state = flowStateOf(ctx.request, ctx.view.flow)
    return skipToMerchant(ctx, state) ?? (yield* render(ctx, state, NO_INPUT))
  })

/** The bank authorisation of the payer's choice, coming back to this page (`?outcome=...`), then the sandbox bank's page. */
const toTheBank = (ctx: FlowContext): Effect.Effect<ApiResponse, PaykitError> =>
  Effect.gen(function*() {
    const base = yield* HostedPagesBaseUrl
    const authorisation = yield* ctx.services.bankAuthorisations.create(ctx.p.organisation, {
      links: { billing_request: ctx.request.id },
      redirect_uri: `${base.replace(/\/+$/, "")}${ctx.p.path}`
    })
    return redirect(authorisation.url)
  })

const post = (services: PageServices, load: Loader): PageAnswer => (given) =>
  Effect.gen(function*() {
    // Before anything is looked up or done: a post without its page's token changes nothing.
    if (!csrfValid(services.csrf, given, load.purpose)) return errorPage(given, 403, given.messages.error_form_expired)
    const ctx = yield* contextOf(services, load, given)
    const state = flowStateOf(ctx.request, ctx.view.flow)
    const fields = formFields(ctx.p.request)
    // A form of another step (a second tab, the back button): the page shows where the flow is now.
    if (ctx.expired || state.kind !== "step" || fields["step"] !== state.step) return again(ctx)
    if (state.step === "bank_authorisation") return yield* toTheBank(ctx)
    const acted = yield* Effect.result(actOn(state.step, { services, p: ctx.p, flow: ctx.view.flow, request: ctx.request, fields }))
    if (acted._tag === "Failure") {
      const error = acted.failure
      // Another post of this step (a double click, a second tab) won: the page shows where the flow is now.
      if (error._tag === "InvalidState") return again(ctx)
      if (error._tag !== "ValidationFailed") return yield* Effect.fail(error)
      return yield* render(ctx, state, { values: fields, problems: error.errors }, 422)
    }
    const next = yield* contextOf(services, load, given)
    const nextState = flowStateOf(next.request, next.view.flow)
    return skipToMerchant(next, nextState) ?? again(next)
  })

export const flowPages = (services: PageServices): ReadonlyArray<PageRoute> => [
  pageAt(services, "GET", HOSTED_PAGE_PATHS.billingRequestFlow, show(services, billingRequestFlowView)),
  pageAt(services, "POST", HOSTED_PAGE_PATHS.billingRequestFlow, post(services, billingRequestFlowView)),
  pageAt(services, "GET", HOSTED_PAGE_PATHS.redirectFlow, show(services, redirectFlowView)),
  pageAt(services, "POST", HOSTED_PAGE_PATHS.redirectFlow, post(services, redirectFlowView))
]
