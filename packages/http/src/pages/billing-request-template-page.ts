import { Effect } from "effect"
import { HOSTED_PAGE_PATHS } from "@paykit/engine"
import type { PageRoute } from "../routes.ts"
import { html } from "./html.ts"
import { layout } from "./layout.ts"
import { csrfToken, csrfValid, errorPage, formGuard, page, type PageAnswer, pageAt, redirect } from "./page-kit.ts"
import type { PageServices } from "./page-services.ts"

/**
 * A billing request template's `authorisation_url`: a reusable link. Its GET only shows what the
 * payer is starting and a "Start" button, so a preview, a crawler or a reload creates nothing;
 * the button's post (CSRF-checked) starts a billing request of the template's requests and its
 * flow (the engine's `BillingRequestTemplates.start`), then sends the payer to the flow's page.
 */

const PURPOSE = "billing_request_template"

const show = (services: PageServices): PageAnswer => (p) =>
  Effect.gen(function*() {
    const template = yield* services.templates.get(p.organisation, p.id)
    const creditor = yield* services.creditors.get(p.organisation, template.links.creditor)
    const theme = yield* services.themeOf(p.organisation, creditor.id)
    const m = p.messages
    const content = html`<p>${m.template_intro}</p>
<dl><dt>${m.bank_payee}</dt><dd>${creditor.name}</dd>${template.name === null ? "" : html`<dt>${m.bank_description}</dt><dd>${template.name}</dd>`}</dl>
<form method="post" action="${p.href}">
${formGuard(p, csrfToken(services.csrf, p, PURPOSE))}
<div class="actions"><button type="submit" class="primary">${m.template_start}</button></div>
</form>`
    return page(200, layout({ language: p.language, messages: m, title: `${m.template_title} ${creditor.name}`, theme, path: p.href, content }))
  })

const start = (services: PageServices): PageAnswer => (p) =>
  Effect.gen(function*() {
    // Before anything is created: a post without this page's token starts nothing.
    if (!csrfValid(services.csrf, p, PURPOSE)) return errorPage(p, 403, p.messages.error_form_expired)
    const flow = yield* services.templates.start(p.organisation, p.id)
    return redirect(flow.authorisation_url)
  })

export const billingRequestTemplatePages = (services: PageServices): ReadonlyArray<PageRoute> => [
  pageAt(services, "GET", HOSTED_PAGE_PATHS.billingRequestTemplate, show(services)),
  pageAt(services, "POST", HOSTED_PAGE_PATHS.billingRequestTemplate, start(services))
]
