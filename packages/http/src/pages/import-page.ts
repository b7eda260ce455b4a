import { Effect } from "effect"
import { decodeInputEffect, formatMinorUnits, PAGE_SIZE_MAX } from "@paykit/core"
import {
  HOSTED_PAGE_PATHS,
  type OutboundPaymentImport,
  type OutboundPaymentImportEntry,
  OutboundPaymentImportEntryListParams
} from "@paykit/engine"
import { authenticateFormToken } from "../access-tokens.ts"
import type { PageRoute } from "../routes.ts"
import { type Html, html } from "./html.ts"
import { layout } from "./layout.ts"
import { csrfToken, csrfValid, errorPage, formFields, formGuard, page, type PageAnswer, pageAt, type PageRequest, redirect } from "./page-kit.ts"
import type { PageServices } from "./page-services.ts"

/**
 * The import authorisation page, at an outbound payment import's `authorisation_url`: its entries
 * with their verification results and problems, and, while the import may still be authorised or
 * cancelled, a form doing either through the same engine actions as the sandbox API's. Authorising
 * moves money, so the form asks for one of the organisation's read-write access tokens, in the
 * form's body (never in the URL); the user recorded is that token, as the sandbox records it.
 */

const PURPOSE = "outbound_payment_import"

/** Statuses in which a user may still cancel the import (the machine refuses the rest). */
const CANCELLABLE: ReadonlyArray<OutboundPaymentImport["status"]> = ["created", "validating", "valid", "invalid"]

const decodeEntriesParams = decodeInputEffect(OutboundPaymentImportEntryListParams, "outbound_payment_import_entries")

const problemsOf = (entry: OutboundPaymentImportEntry): ReadonlyArray<string> =>
  Object.values(entry.validation_errors?.outbound_payment ?? {}).flatMap((messages) => Array.isArray(messages) ? messages : [])

const entryRow = (p: PageRequest, entry: OutboundPaymentImportEntry, currency: OutboundPaymentImport["currency"]): Html => {
  const problems = problemsOf(entry)
  return html`<tr>
<td>${formatMinorUnits(entry.amount, currency)} ${currency}</td>
<td>${entry.reference ?? "—"}</td>
<td>${entry.links.recipient_bank_account}</td>
<td>${entry.verification_result ?? "—"}</td>
<td>${problems.length === 0 ? p.messages.import_entry_none : html`<ul>${problems.map((m) => html`<li>${m}</li>`)}</ul>`}</td>
</tr>`
}

const entriesTable = (p: PageRequest, entries: ReadonlyArray<OutboundPaymentImportEntry>, currency: OutboundPaymentImport["currency"]): Html =>
  html`<table>
<caption>${p.messages.import_entries}</caption>
<thead><tr><th scope="col">${p.messages.import_entry_amount}</th><th scope="col">${p.messages.import_entry_reference}</th><th scope="col">${p.messages.import_entry_recipient}</th><th scope="col">${p.messages.import_entry_verification}</th><th scope="col">${p.messages.import_entry_errors}</th></tr></thead>
<tbody>${entries.map((entry) => entryRow(p, entry, currency))}</tbody>
</table>`

const decisionForm = (p: PageRequest, batch: OutboundPaymentImport, token: string): Html => html`<form method="post" action="${p.href}">
${formGuard(p, token)}
<label for="access_token">${p.messages.import_token}</label>
<p class="notice" id="access_token_hint">${p.messages.import_token_hint}</p>
<input id="access_token" name="access_token" type="password" autocomplete="off" required aria-describedby="access_token_hint">
<div class="actions">
${batch.status === "valid" ? html`<button type="submit" class="primary" name="choice" value="authorise">${p.messages.import_authorise}</button>` : ""}
<button type="submit" class="secondary" name="choice" value="cancel">${p.messages.import_cancel}</button>
</div>
</form>`

const show = (services: PageServices): PageAnswer => (p) =>
  Effect.gen(function*() {
    const batch = yield* services.imports.get(p.organisation, p.id)
    const params = yield* decodeEntriesParams({ outbound_payment_import: batch.id, limit: PAGE_SIZE_MAX })
    const entries = yield* services.imports.listEntries(p.organisation, params)
    const theme = yield* services.themeOf(p.organisation, batch.links.creditor)
    const content = html`<p>${p.messages.import_intro}</p>
<dl>
<dt>${p.messages.import_status}</dt><dd class="status">${batch.status}</dd>
<dt>${p.messages.import_total}</dt><dd>${formatMinorUnits(batch.amount_sum, batch.currency)} ${batch.currency}</dd>
</dl>
${entriesTable(p, entries.items, batch.currency)}
${entries.after === null ? "" : html`<p class="notice">${p.messages.import_entries_more}</p>`}
${CANCELLABLE.includes(batch.status)
      ? decisionForm(p, batch, csrfToken(services.csrf, p, PURPOSE))
      : ""}
${batch.status === "invalid" ? html`<p class="notice">${p.messages.import_not_ready}</p>` : ""}`
    return page(200, layout({ language: p.language, messages: p.messages, title: p.messages.import_title, theme, path: p.href, content }))
  })

const decide = (services: PageServices): PageAnswer => (p) =>
  Effect.gen(function*() {
    if (!csrfValid(services.csrf, p, PURPOSE)) return errorPage(p, 403, p.messages.error_form_expired)
    const fields = formFields(p.request)
    const choice = fields["choice"]
    if (choice !== "authorise" && choice !== "cancel") return errorPage(p, 400, p.messages.error_form_expired)
    const caller = yield* authenticateFormToken(services.tokens, fields["access_token"])
    // Another organisation's token, a read-only one, or a partner app's (authorising money out is
    // the merchant's own act, as the sandbox's authorise route says) may not decide this import.
    if (caller.organisation !== p.organisation || caller.scope !== "read_write" || caller.app !== null) {
      return errorPage(p, 403, `${p.messages.error_refused}: access token not allowed for this import`)
    }
    yield* choice === "authorise"
      ? services.imports.authorise(p.organisation, p.id, `access token ${caller.tokenId}`)
      : services.imports.cancel(p.organisation, p.id)
    return redirect(p.path)
  })

export const importPages = (services: PageServices): ReadonlyArray<PageRoute> => [
  pageAt(services, "GET", HOSTED_PAGE_PATHS.outboundPaymentImport, show(services)),
  pageAt(services, "POST", HOSTED_PAGE_PATHS.outboundPaymentImport, decide(services))
]
