import { Effect } from "effect"
import { NotFound, type PaykitError } from "@paykit/core"
import { type ApiResponse, formFields, type Html, html, type PageRoute, type QueryValues, seeOther } from "@paykit/http"
import { csrfField, dashboardPage } from "./frame.ts"
import { collectionsOfId, eventFilterOf, scenariosFor, singularOf, titleOf } from "./resources.ts"
import { asList, asRecord, fieldsView, tableView, underKey, valueView } from "./views.ts"
import { type DashboardServices, signedIn, type Visit } from "./visit.ts"

/**
 * One list page and one detail page for every resource the API lists and reads: the list is the
 * API's list (its filters and cursors passed through, one indexed query per page), the detail the
 * API's read, with the resource's stored status history, its events and the scenarios that
 * apply to it where it is now.
 */

const LIST_LIMIT = "25"

const paramOf = (visit: Visit, name: string): string => visit.request.params[name] ?? ""

/** The list's query: the page's own, with a page size unless one was asked for. */
const listQuery = (query: QueryValues): QueryValues => ({ limit: LIST_LIMIT, ...query })

/** The page's query with `cursor` in place of the other cursor. */
const cursorHref = (visit: Visit, collection: string, query: QueryValues, cursor: "after" | "before", value: string): string => {
  const params = new URLSearchParams()
  for (const [key, v] of Object.entries(query)) {
    if (key === "after" || key === "before" || v === undefined) continue
    for (const one of typeof v === "string" ? [v] : v) params.append(key, one)
  }
  params.set(cursor, value)
  return `${visit.root}/resources/${collection}?${params.toString()}`
}

/** A filter for each field the rows show that the API filters by (status, and each link): inputs named as the API's parameters. */
const filterForm = (visit: Visit, collection: string, rows: ReadonlyArray<unknown>, query: QueryValues): Html => {
  const records = rows.map(asRecord)
  const names = [
    ...(records.some((r) => "status" in r) ? ["status"] : []),
    ...new Set(records.flatMap((r) => Object.keys(asRecord(r["links"]))))
  ]
  const kept = Object.keys(query).filter((key) => !names.includes(key) && key !== "after" && key !== "before")
  return html`<form method="get" action="${visit.root}/resources/${collection}" aria-label="Filters">${
    kept.map((key) => html`<input type="hidden" name="${key}" value="${String(query[key] ?? "")}">`)
  }${names.map((name) => html`<span class="inline"><label for="f-${name}">${name}</label><input id="f-${name}" name="${name}" value="${typeof query[name] === "string" ? String(query[name]) : ""}"></span>`)}
<div class="actions"><button class="secondary" type="submit">Filter</button></div></form>`
}

const listPage = (services: DashboardServices) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> =>
  Effect.gen(function*() {
    const collection = paramOf(visit, "collection")
    if (!services.api.serves("GET", `/${collection}`)) return yield* new NotFound({ resource: collection, id: "" })
    // Empty fields of the filter form are no filter.
    const query = Object.fromEntries(Object.entries(visit.request.query).filter(([, v]) => v !== "" && v !== undefined))
    const body = yield* services.api.call(visit.token, "GET", `/${collection}`, listQuery(query))
    const rows = asList(underKey(body, collection))
    const cursors = asRecord(asRecord(underKey(body, "meta"))["cursors"])
    const before = cursors["before"]
    const after = cursors["after"]
    return dashboardPage(visit, titleOf(collection), html`
${filterForm(visit, collection, rows, query)}
${tableView(visit.links, `${titleOf(collection)}, newest first`, rows)}
<nav aria-label="Pages"><ul>${typeof before === "string" ? html`<li><a href="${cursorHref(visit, collection, query, "before", before)}">Newer</a></li>` : ""}${
      typeof after === "string" ? html`<li><a href="${cursorHref(visit, collection, query, "after", after)}">Older</a></li>` : ""}</ul></nav>`)
  })

/** A transition's cause: its code (`payment_submitted`) and the words of its description. */
const causeView = (visit: Visit, cause: unknown): Html => {
  const record = asRecord(cause)
  return html`${valueView(visit.links, record["cause"])}<br><span class="notice">${String(record["description"] ?? "")}</span>`
}

const historyView = (visit: Visit, rows: ReadonlyArray<Readonly<Record<string, unknown>>>): Html =>
  rows.length === 0 ? html`<p>No stored transitions.</p>` : html`<div class="scroll"><table><caption>Status history, oldest first</caption><thead><tr><th scope="col">at</th><th scope="col">from</th><th scope="col">to</th><th scope="col">cause</th><th scope="col">API event</th></tr></thead><tbody>${
    rows.map((row) => html`<tr><td>${valueView(visit.links, row["at"])}</td><td>${valueView(visit.links, row["from"])}</td><td>${valueView(visit.links, row["to"])}</td><td>${causeView(visit, row["cause"])}</td><td>${valueView(visit.links, row["event_id"])}</td></tr>`)
  }</tbody></table></div>`

const scenarioForms = (visit: Visit, collection: string, id: string, status: unknown): Html => {
  const names = scenariosFor(collection, status)
  if (names.length === 0 || !visit.canAct) return html``
  return html`<section aria-labelledby="scenarios"><h2 id="scenarios">Scenario simulators</h2><p>Those that start from where this ${singularOf(collection).replaceAll("_", " ")} is now.</p>${
    names.map((name) => html`<form class="inline" method="post" action="${visit.root}/scenarios/${name}">${csrfField(visit.csrfToken)}<input type="hidden" name="collection" value="${collection}"><input type="hidden" name="resource" value="${id}"><button class="secondary" type="submit">Run ${name}</button></form>`)
  }</section>`
}

/** What a resource's page adds for its kind: a payout's items, a delivery's retry, an endpoint's disabling. */
const extrasOf = (visit: Visit, collection: string, id: string, resource: Readonly<Record<string, unknown>>): Html => {
  const form = (action: string, label: string) => visit.canAct ? html`<form class="inline" method="post" action="${visit.root}/${action}">${csrfField(visit.csrfToken)}<button class="secondary" type="submit">${label}</button></form>` : ""
  if (collection === "payouts") return html`<p><a href="${visit.root}/resources/payout_items?payout=${id}">This payout's items</a></p>`
  if (collection === "webhooks") return html`${form(`webhooks/${id}/retry`, "Retry this delivery")}`
  if (collection === "webhook_endpoints") {
    return html`${form(`webhook_endpoints/${id}/test`, "Send a test webhook")}${form(`webhook_endpoints/${id}/rotate_secret`, "Rotate the signing secret")}${resource["enabled"] === true ? form(`webhook_endpoints/${id}/disable`, "Disable this endpoint") : ""}`
  }
  return html``
}

const detailPage = (services: DashboardServices) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> =>
  Effect.gen(function*() {
    const collection = paramOf(visit, "collection")
    const id = paramOf(visit, "id")
    if (!services.api.serves("GET", `/${collection}/x`)) return yield* new NotFound({ resource: collection, id })
    const resource = asRecord(underKey(yield* services.api.call(visit.token, "GET", `/${collection}/${id}`), collection))
    const history = yield* services.history.history(visit.caller.organisation, collection, id)
    const filter = eventFilterOf(collection)
    const events = filter === undefined ? [] : asList(underKey(yield* services.api.call(visit.token, "GET", "/events", { [filter]: id, limit: "50" }), "events"))
    return dashboardPage(visit, `${titleOf(singularOf(collection))} ${id}`, html`
${extrasOf(visit, collection, id, resource)}
<section aria-labelledby="fields"><h2 id="fields">Fields</h2>${fieldsView(visit.links, resource)}</section>
<section aria-labelledby="history"><h2 id="history">Status history</h2>${historyView(visit, history.map(asRecord))}</section>
${filter === undefined ? "" : html`<section aria-labelledby="timeline"><h2 id="timeline">Events</h2>${tableView(visit.links, "Event timeline, newest first", events)}</section>`}
${services.mode === "sandbox" ? scenarioForms(visit, collection, id, resource["status"]) : ""}`)
  })

/** The id's resource: the one collection its prefix names, else the first of those sharing the prefix that holds it. */
const search = (services: DashboardServices) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> =>
  Effect.gen(function*() {
    const id = typeof visit.request.query["id"] === "string" ? visit.request.query["id"].trim() : ""
    for (const collection of collectionsOfId(id).filter((c) => services.api.serves("GET", `/${c}/x`))) {
      const found = yield* Effect.option(services.api.call(visit.token, "GET", `/${collection}/${id}`))
      if (found._tag === "Some") return seeOther(`/dashboard/resources/${collection}/${encodeURIComponent(id)}`)
    }
    return dashboardPage(visit, "Not found", html`<p role="alert">No resource of this organisation has the id ${id === "" ? "given" : html`<code>${id}</code>`}.</p>`, 404)
  })

const runScenario = (services: DashboardServices) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> => {
  const fields = formFields(visit.request)
  const resource = fields["resource"] ?? ""
  const collection = fields["collection"] ?? ""
  const back = collectionsOfId(resource).includes(collection) ? `/dashboard/resources/${collection}/${encodeURIComponent(resource)}` : "/dashboard"
  return Effect.as(
    services.api.call(visit.token, "POST", `/scenario_simulators/${encodeURIComponent(paramOf(visit, "name"))}/actions/run`, {}, { data: { links: { resource } } }),
    seeOther(back)
  )
}

export const resourcePages = (services: DashboardServices): ReadonlyArray<PageRoute> => [
  signedIn(services, "GET", "/dashboard/resources/:collection", listPage(services)),
  signedIn(services, "GET", "/dashboard/resources/:collection/:id", detailPage(services)),
  signedIn(services, "GET", "/dashboard/search", search(services)),
  signedIn(services, "POST", "/dashboard/scenarios/:name", runScenario(services))
]
