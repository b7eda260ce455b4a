import { Effect } from "effect"
import { NotFound } from "@paykit/core"
import { HOSTED_PAGE_PATHS } from "@paykit/engine"
import type { PageRoute } from "../routes.ts"
import { html } from "./html.ts"
import { layout } from "./layout.ts"
import { page, type PageAnswer, pageAt } from "./page-kit.ts"
import type { PageServices } from "./page-services.ts"

/**
 * A completed redirect flow's `confirmation_url`: the Direct Debit the payer set up (payee,
 * account holder, the account number's ending, the mandate's reference and scheme), all looked up
 * from the flow's links. Before completion the flow has no mandate, and the page is a 404.
 */
const show = (services: PageServices): PageAnswer => (p) =>
  Effect.gen(function*() {
    const flow = yield* services.redirectFlows.get(p.organisation, p.id)
    const { mandate: mandateId, customer_bank_account: accountId } = flow.links
    if (mandateId === undefined || accountId === undefined) return yield* new NotFound({ resource: "redirect_flows", id: p.id })
    const mandate = yield* services.mandates.get(p.organisation, mandateId)
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
