import { Effect } from "effect"
import { NotFound, type PaykitError } from "@paykit/core"
import { type ApiResponse, type Html, html, type PageRoute } from "@paykit/http"
import { badgeView } from "./format.ts"
import { asList, asRecord, fieldValueView, valueView } from "./views.ts"
import { type DashboardServices, signedIn, type Visit } from "./visit.ts"

/**
 * What the dashboard adds to the bank rails' pages (paykit's own extension, docs/bank-rails.md),
 * beside the generic list and detail of `/bank_submissions` and `/bank_reports`: each file to
 * download as its exact bytes (through the API, with the session's token), and a report's
 * entries as a table, the ones that matched nothing of this organisation said so.
 */

/** The collections with a file (`GET /<collection>/{id}/file`). */
const WITH_FILE: ReadonlyArray<string> = ["bank_submissions", "bank_reports"]

const ENTRY_COLUMNS = ["position", "reference", "kind", "code", "amount", "outcome", "matched", "flags", "cause", "links"] as const

const entryCell = (visit: Visit, column: (typeof ENTRY_COLUMNS)[number], entry: Readonly<Record<string, unknown>>): Html => {
  if (column === "outcome" && typeof entry["outcome"] === "string") return badgeView(entry["outcome"])
  if (column === "matched") return html`${entry["matched"] === true ? "yes" : "no: kept, never applied"}`
  return fieldValueView(visit.links, column, entry[column], entry)
}

/** A report's entries, in file order. */
const entriesView = (visit: Visit, report: Readonly<Record<string, unknown>>): Html => {
  const entries = asList(report["entries"]).map(asRecord)
  const unmatched = entries.filter((entry) => entry["matched"] !== true).length
  const shown = entries.length < Number(report["entry_count"] ?? 0) ? html`<p>The first ${String(entries.length)} of ${valueView(visit.links, report["entry_count"])} entries (the rest: <code>GET /bank_reports/{id}/entries</code>).</p>` : ""
  return html`<section aria-labelledby="entries"><h2 id="entries">Entries</h2>${
    unmatched === 0 ? "" : html`<p role="note">${String(unmatched)} ${unmatched === 1 ? "entry names" : "entries name"} nothing of this organisation: kept and shown here, never applied.</p>`
  }${shown}${entries.length === 0 ? html`<p>None.</p>` : html`<div class="scroll" tabindex="0" role="region" aria-label="Entries, in file order"><table><caption>Entries, in file order</caption><thead><tr>${
    ENTRY_COLUMNS.map((c) => html`<th scope="col">${c}</th>`)
  }</tr></thead><tbody>${entries.map((entry) => html`<tr>${ENTRY_COLUMNS.map((c) => html`<td>${entryCell(visit, c, entry)}</td>`)}</tr>`)}</tbody></table></div>`}</section>`
}

/** What a bank submission's or report's page adds: its file to download, a report's entries. */
export const bankExtras = (visit: Visit, collection: string, id: string, resource: Readonly<Record<string, unknown>>): Html | undefined => {
  if (!WITH_FILE.includes(collection)) return undefined
  const download = html`<p><a href="${visit.root}/resources/${collection}/${encodeURIComponent(id)}/file" download>Download the file</a> (its exact bytes${
    typeof resource["file_size"] === "number" ? `, ${String(resource["file_size"])} bytes` : ""})</p>`
  return collection === "bank_reports" ? html`${download}${entriesView(visit, resource)}` : download
}

/** The fields a resource's page lists: a report's entries have a table of their own. */
export const shownFields = (collection: string, resource: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> =>
  collection === "bank_reports" ? Object.fromEntries(Object.entries(resource).filter(([key]) => key !== "entries")) : resource

/** The file, as the API answers it with the session's token (its type and name kept). */
const file = (services: DashboardServices) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> => {
  const collection = visit.request.params["collection"] ?? ""
  const id = visit.request.params["id"] ?? ""
  if (!WITH_FILE.includes(collection)) return Effect.fail(new NotFound({ resource: collection, id }))
  return services.api.answer(visit.token, `/${collection}/${id}/file`)
}

export const bankPages = (services: DashboardServices): ReadonlyArray<PageRoute> => [
  signedIn(services, "GET", "/dashboard/resources/:collection/:id/file", file(services))
]
