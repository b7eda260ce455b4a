import { Effect } from "effect"
import type { PaykitError } from "@paykit/core"
import { type ApiResponse, type Html, html, type PageRoute, type QueryValues, STATUS_CLASSES } from "@paykit/http"
import { dashboardPage } from "./frame.ts"
import { pagesNav } from "./resource-pages.ts"
import { asList, asRecord, underKey, valueView } from "./views.ts"
import { type DashboardServices, signedIn, type Visit } from "./visit.ts"

/**
 * The request log (`/dashboard/logs`, docs/dashboard.md): the organisation's recent API requests
 * from the API's `/request_logs`, newest first, filtered by status class, path prefix and resource
 * id; one request's page shows its bodies (redacted as stored) and links to what it touched.
 */

const LOGS = "request_logs"
const PAGE_SIZE = "25"
const FILTERS = ["status_class", "path", "resource_id"] as const

/** A status code as a badge: a success, a client's error or the server's. */
const statusBadge = (status: unknown): Html => {
  const code = typeof status === "number" ? status : 0
  const tone = code >= 500 ? "bad" : code >= 400 ? "attention" : code >= 200 && code < 300 ? "good" : "neutral"
  return html`<span class="badge badge-${tone}">${String(status ?? "")}</span>`
}

const text = (value: unknown): string => typeof value === "string" || typeof value === "number" ? String(value) : ""

/** The token a request came with: its id and the first characters paykit shows of it. */
const tokenView = (row: Readonly<Record<string, unknown>>): Html => {
  const prefix = text(row["token_prefix"])
  return html`<code>${text(asRecord(row["links"])["access_token"])}</code>${prefix === "" ? "" : html` <code>${prefix}…</code>`}`
}

const optional = (value: unknown): Html => text(value) === "" ? html`<span class="notice">none</span>` : html`<code>${text(value)}</code>`

const filterForm = (visit: Visit, query: QueryValues): Html => {
  const value = (name: string) => text(query[name])
  return html`<form class="filters" method="get" action="${visit.root}/logs" aria-label="Filters">
<span><label for="f-status">status</label><select id="f-status" name="status_class"><option value="">any</option>${
    STATUS_CLASSES.map((c) => html`<option value="${c}"${value("status_class") === c ? html` selected` : ""}>${c}</option>`)}</select></span>
<span><label for="f-path">path starts with</label><input id="f-path" name="path" value="${value("path")}" size="22" placeholder="/payments"></span>
<span><label for="f-resource">resource id</label><input id="f-resource" name="resource_id" value="${value("resource_id")}" pattern="[A-Z0-9]+" size="18"></span>
<button class="secondary" type="submit">Filter</button></form>`
}

const logsTable = (visit: Visit, rows: ReadonlyArray<Readonly<Record<string, unknown>>>): Html =>
  rows.length === 0 ? html`<p>No requests.</p>` : html`<div class="scroll"><table><caption>API requests, newest first</caption><thead><tr>${
    ["time", "method", "path", "status", "duration", "request id", "idempotency key", "token"].map((h) => html`<th scope="col">${h}</th>`)
  }</tr></thead><tbody>${rows.map((row) => html`<tr><td>${valueView(visit.links, row["created_at"])}</td><td>${text(row["method"])}</td><td><code>${text(row["path"])}</code></td><td>${
    statusBadge(row["status"])}</td><td>${text(row["duration_ms"])} ms</td><td><a href="${visit.root}/logs/${encodeURIComponent(text(row["id"]))}"><code>${text(row["id"])}</code></a></td><td>${
    optional(row["idempotency_key"])}</td><td>${tokenView(row)}</td></tr>`)}</tbody></table></div>`

const listPage = (services: DashboardServices) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> =>
  Effect.gen(function*() {
    // Empty fields of the filter form are no filter; nothing else of the page's query reaches the API.
    const query: QueryValues = Object.fromEntries(Object.entries(visit.request.query)
      .filter(([key, v]) => (FILTERS.some((f) => f === key) || key === "after" || key === "before") && typeof v === "string" && v !== ""))
    const body = yield* services.api.call(visit.token, "GET", `/${LOGS}`, { limit: PAGE_SIZE, ...query })
    const rows = asList(underKey(body, LOGS)).map(asRecord)
    return dashboardPage(visit, "Request log", html`
<p>Every API request of this organisation, as stored: bodies redacted (no token, secret or full account number), kept as long as events are.</p>
${filterForm(visit, query)}${logsTable(visit, rows)}${pagesNav(`${visit.root}/logs`, query, body)}`)
  })

const bodyView = (title: string, id: string, body: unknown): Html =>
  html`<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${body === null || body === undefined ? html`<p>None.</p>` : html`<pre>${JSON.stringify(body, null, 2)}</pre>`}</section>`

const detailPage = (services: DashboardServices) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> =>
  Effect.gen(function*() {
    const id = visit.request.params["id"] ?? ""
    const row = asRecord(underKey(yield* services.api.call(visit.token, "GET", `/${LOGS}/${encodeURIComponent(id)}`), LOGS))
    const touched = asList(row["resource_ids"])
    return dashboardPage(visit, `${text(row["method"])} ${text(row["path"])}`, html`
<dl><dt>status</dt><dd>${statusBadge(row["status"])}</dd><dt>time</dt><dd>${valueView(visit.links, row["created_at"])}</dd><dt>duration</dt><dd>${text(row["duration_ms"])} ms</dd>
<dt>request id</dt><dd><code>${text(row["id"])}</code></dd><dt>idempotency key</dt><dd>${optional(row["idempotency_key"])}</dd><dt>token</dt><dd>${tokenView(row)}</dd>
<dt>query</dt><dd>${row["query"] === null ? html`<span class="notice">none</span>` : html`<pre>${JSON.stringify(row["query"], null, 2)}</pre>`}</dd></dl>
<section aria-labelledby="touched"><h2 id="touched">Resources it touched</h2>${
      touched.length === 0 ? html`<p>None.</p>` : html`<ul>${touched.map((resource) => html`<li>${valueView(visit.links, resource)}</li>`)}</ul>`}</section>
${bodyView("Request body", "request-body", row["request_body"])}${bodyView("Response body", "response-body", row["response_body"])}
<p><a href="${visit.root}/logs">Back to the request log</a></p>`)
  })

export const logsPages = (services: DashboardServices): ReadonlyArray<PageRoute> => [
  signedIn(services, "GET", "/dashboard/logs", listPage(services)),
  signedIn(services, "GET", "/dashboard/logs/:id", detailPage(services))
]
