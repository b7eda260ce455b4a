import { Effect } from "effect"
import { NotFound, now, REDIRECT_FLOW_CONFIRMATION_LIFE_MS, timestampToMillis } from "@paykit/core"
import { HOSTED_PAGE_PATHS } from "@paykit/engine"
import type { PageRoute } from "../routes.ts"
import { html } from "./html.ts"
import { layout } from "./layout.ts"
import { ownFlowOf } from "./flow-page.ts"
import { errorPage, inLanguageOf, page, type PageAnswer, pageAt } from "./page-kit.ts"
import type { PageServices } from "./page-services.ts"

/**
 * A completed redirect flow's `confirmation_url`: the Direct Debit the payer set up (payee,
 * account holder, the account number's ending, the mandate's reference and scheme), all looked up
 * from the flow's links, in the flow's language. Before completion the flow has no mandate, and
 * the page is a 404; 15 minutes after completion (the mandate's creation, which completion makes,
 * on the organisation's clock) it is gone (410), as the real API's is.
 */
const show = (services: PageServices): PageAnswer => (given) =>
  Effect.gen(function*() {
    const flow = yield* services.redirectFlows.get(given.organisation, given.id)
    const { mandate: mandateId, customer_bank_account: accountId } = flow.links
    if (mandateId === undefined || accountId === undefined) return yield* new NotFound({ resource: "redirect_flows", id: given.id })
    const p = inLanguageOf(given, (yield* ownFlowOf(services, given.organisation, flow)).language)
    const mandate = yield* services.mandates.get(p.organisation, mandateId)
    if (timestampToMillis(mandate.created_at) + REDIRECT_FLOW_CONFIRMATION_LIFE_MS <= timestampToMillis(yield* now)) {
      return errorPage(p, 410, p.messages.flow_expired)
    }
    const account = yield* services.customers.getBankAccount(p.organisation, accountId)
    const creditor = yield* services.creditors.get(p.organisation, flow.links.creditor)
    const theme = yield* services.themeOf(p.organisation, creditor.id)
    const m = p.messages
    const content = html`<p role="status" class="status">${m.flow_confirmation_intro}</p>
<dl>
<dt>${m.bank_payee}</dt><dd>${creditor.name}</dd>
<dt>${m.bank_account_holder}</dt><dd>${account.account_holder_name}</dd>
<dt>${m.flow_account_ending}</dt><dd>${account.account_number_ending}</dd>
<dt>${m.flow_mandate_reference}</dt><dd>${mandate.reference ?? "—"}</dd>
<dt>${m.bank_kind}</dt><dd>${mandate.scheme}</dd>
</dl>`
    return page(200, layout({ language: p.language, messages: m, title: m.flow_confirmation_title, theme, path: p.path, content }))
  })

export const redirectFlowConfirmationPages = (services: PageServices): ReadonlyArray<PageRoute> => [
  pageAt(services, "GET", HOSTED_PAGE_PATHS.redirectFlowConfirmation, show(services))
]
