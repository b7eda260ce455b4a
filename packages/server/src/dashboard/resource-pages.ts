import { Effect } from "effect"
import { NotFound, type PaykitError } from "@paykit/core"
import { type ApiResponse, formFields, type Html, html, type PageRoute, type QueryValues, seeOther } from "@paykit/http"
import { scenarioEntry, scenariosFor } from "@paykit/engine/scenario-catalogue"
import { bankExtras, shownFields } from "./bank-pages.ts"
import { customerColumn, customersOf, customerView, WITH_CUSTOMER } from "./customers.ts"
import { filterForm } from "./filters.ts"
import { badgeView } from "./format.ts"
import { csrfField, dashboardPage } from "./frame.ts"
import { enabledEndpoints, eventsSince, eventsText, newestEvent } from "./outcomes.ts"
import { collectionsOfId, eventFilterOf, singularOf, titleOf } from "./resources.ts"
import { asList, asRecord, eventsTable, fieldsView, tableView, underKey, valueView } from "./views.ts"
import { type DashboardServices, doneThen, signedIn, type Visit } from "./visit.ts"

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

/** The page at `base` with its query and `cursor` in place of the other cursor. */
export const cursorHref = (base: string, query: QueryValues, cursor: "after" | "before", value: string): string => {
  const params = new URLSearchParams()
  for (const [key, v] of Object.entries(query)) {
    if (key === "after" || key === "before" || v === undefined) continue
    for (const one of typeof v === "string" ? [v] : v) params.append(key, one)
  }
  params.set(cursor, value)
  return `${base}?${params.toString()}`
}

/** A list's links to the newer and the older page, from its answer's cursors. */
export const pagesNav = (base: string, query: QueryValues, body: unknown): Html => {
  const cursors = asRecord(asRecord(underKey(body, "meta"))["cursors"])
  const before = cursors["before"]
  const after = cursors["after"]
  return html`<nav aria-label="Pages"><ul>${typeof before === "string" ? html`<li><a href="${cursorHref(base, query, "before", before)}">Newer</a></li>` : ""}${
    typeof after === "string" ? html`<li><a href="${cursorHref(base, query, "after", after)}">Older</a></li>` : ""}</ul></nav>`
}

/** A list's table: events with their resources, payments and mandates with their customers, the rest as they come. */
const listTable = (services: DashboardServices, visit: Visit, collection: string, caption: string, rows: ReadonlyArray<unknown>): Effect.Effect<Html, PaykitError> => {
  if (collection === "events") return Effect.succeed(eventsTable(visit.links, caption, rows))
  if (!WITH_CUSTOMER.includes(collection)) return Effect.succeed(tableView(visit.links, caption, rows))
  return Effect.map(customersOf(services, visit, collection, rows.map(asRecord)), (customers) => tableView(visit.links, caption, rows, [customerColumn(visit, customers)]))
}

const listPage = (services: DashboardServices) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> =>
  Effect.gen(function*() {
    const collection = paramOf(visit, "collection")
    if (!services.api.serves("GET", `/${collection}`)) return yield* new NotFound({ resource: collection, id: "" })
    // Empty fields of the filter form are no filter.
    const query = Object.fromEntries(Object.entries(visit.request.query).filter(([, v]) => v !== "" && v !== undefined))
    const body = yield* services.api.call(visit.token, "GET", `/${collection}`, listQuery(query))
    const rows = asList(underKey(body, collection))
    return dashboardPage(visit, titleOf(collection), html`
${filterForm(visit, collection, services.api.listFilters(collection), query)}
${yield* listTable(services, visit, collection, `${titleOf(collection)}, newest first`, rows)}
${pagesNav(`${visit.root}/resources/${collection}`, query, body)}`)
  })

/** A transition's cause: its code (`payment_submitted`) and the words of its description. */
const causeView = (visit: Visit, cause: unknown): Html => {
  const record = asRecord(cause)
  return html`${valueView(visit.links, record["cause"])}<br><span class="notice">${String(record["description"] ?? "")}</span>`
}

/** A status of the history as its badge (a resource's first row comes from none). */
const statusOrNone = (visit: Visit, status: unknown): Html => typeof status === "string" ? badgeView(status) : valueView(visit.links, status)

const historyView = (visit: Visit, rows: ReadonlyArray<Readonly<Record<string, unknown>>>): Html =>
  rows.length === 0 ? html`<p>No stored transitions.</p>` : html`<div class="scroll"><table><caption>Status history, oldest first</caption><thead><tr><th scope="col">at</th><th scope="col">from</th><th scope="col">to</th><th scope="col">cause</th><th scope="col">API event</th></tr></thead><tbody>${
    rows.map((row) => html`<tr><td>${valueView(visit.links, row["at"])}</td><td>${statusOrNone(visit, row["from"])}</td><td>${statusOrNone(visit, row["to"])}</td><td>${causeView(visit, row["cause"])}</td><td>${valueView(visit.links, row["event_id"])}</td></tr>`)
  }</tbody></table></div>`

/** Where a resource is, for the scenarios: its status (a creditor's verification) and a mandate's scheme. */
const targetOf = (collection: string, resource: Readonly<Record<string, unknown>>) => {
  const text = (key: string) => typeof resource[key] === "string" ? String(resource[key]) : undefined
  return { collection, status: text(collection === "creditors" ? "verification_status" : "status"), scheme: collection === "mandates" ? text("scheme") : undefined }
}

/**
 * The scenario simulators of a resource: a button for each that starts where it is now; where none
 * does, why, and where each of its kind starts instead. A read-only session is told it may not run
 * them. Nothing for a resource no scenario takes.
 */
const scenarioSection = (visit: Visit, collection: string, id: string, resource: Readonly<Record<string, unknown>>): Html => {
  const target = targetOf(collection, resource)
  const { apply, other } = scenariosFor(target)
  if (apply.length === 0 && other.length === 0) return html``
  const noun = singularOf(collection).replaceAll("_", " ")
  const where = `${target.status ?? "its status"}${target.scheme === undefined ? "" : ` (a ${target.scheme} mandate)`}`
  const startsOf = (name: string): string => {
    const entry = scenarioEntry(name)
    const from = entry?.startsFrom === undefined ? "judged on more than the status" : `from ${entry.startsFrom.join(" or ")}`
    return `${from}${entry?.schemes === undefined ? "" : `; ${entry.schemes.join(", ")} mandates only`}`
  }
  const others = other.length === 0 ? html`` : html`<p>${apply.length === 0 ? `No scenario simulator starts from ${where}. The ${noun} scenarios start:` : "The others start:"}</p><ul>${
    other.map((name) => html`<li><code>${name}</code>: ${startsOf(name)}</li>`)
  }</ul>`
  const buttons = !visit.canAct
    ? html`<p>A read-only token cannot run them; sign in with a read-write token.</p>`
    : html`${apply.map((name) => html`<form class="inline" method="post" action="${visit.root}/scenarios/${name}">${csrfField(visit.csrfToken)}<input type="hidden" name="collection" value="${collection}"><input type="hidden" name="resource" value="${id}"><button class="secondary" type="submit">Run ${name}</button></form>`)}`
  return html`<section aria-labelledby="scenarios"><h2 id="scenarios">Scenario simulators</h2>${
    apply.length === 0 ? "" : html`<p>Those that start from where this ${noun} is now (${where}):</p>${buttons}`
  }${others}</section>`
}

/** What a resource's page adds for its kind: a payout's items, a delivery's retry, an endpoint's disabling. */
const extrasOf = (visit: Visit, collection: string, id: string, resource: Readonly<Record<string, unknown>>): Html => {
  const form = (action: string, label: string) => visit.canAct ? html`<form class="inline" method="post" action="${visit.root}/${action}">${csrfField(visit.csrfToken)}<button class="secondary" type="submit">${label}</button></form>` : ""
  if (collection === "payouts") return html`<p><a href="${visit.root}/resources/payout_items?payout=${id}">This payout's items</a></p>`
  const bank = bankExtras(visit, collection, id, resource)
  if (bank !== undefined) return bank
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
    const customer = WITH_CUSTOMER.includes(collection) ? (yield* customersOf(services, visit, collection, [resource])).get(id) : undefined
    return dashboardPage(visit, `${titleOf(singularOf(collection))} ${id}`, html`
${WITH_CUSTOMER.includes(collection) ? html`<p>Customer: ${customerView(visit, customer)}</p>` : ""}
${extrasOf(visit, collection, id, resource)}
<section aria-labelledby="fields"><h2 id="fields">Fields</h2>${fieldsView(visit.links, shownFields(collection, resource))}</section>
<section aria-labelledby="history"><h2 id="history">Status history</h2>${historyView(visit, history.map(asRecord))}</section>
${filter === undefined ? "" : html`<section aria-labelledby="timeline"><h2 id="timeline">Events</h2>${eventsTable(visit.links, "Event timeline, newest first", events)}</section>`}
${services.mode === "sandbox" ? scenarioSection(visit, collection, id, resource) : ""}`)
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

/** Runs a scenario, then says on the resource's page what it ran: the events it made and the webhooks they are queued as. */
const runScenario = (services: DashboardServices) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> =>
  Effect.gen(function*() {
    const fields = formFields(visit.request)
    const resource = fields["resource"] ?? ""
    const collection = fields["collection"] ?? ""
    const name = paramOf(visit, "name")
    const back = collectionsOfId(resource).includes(collection) ? `/dashboard/resources/${collection}/${encodeURIComponent(resource)}` : "/dashboard"
    const marker = yield* newestEvent(services.api, visit.token)
    yield* services.api.call(visit.token, "POST", `/scenario_simulators/${encodeURIComponent(name)}/actions/run`, {}, { data: { links: { resource } } })
    const made = yield* eventsSince(services.api, visit.token, marker)
    return doneThen(services, visit, back, `Ran ${name} on ${resource}. ${eventsText(made, yield* enabledEndpoints(services.api, visit.token))}`)
  })

export const resourcePages = (services: DashboardServices): ReadonlyArray<PageRoute> => [
  signedIn(services, "GET", "/dashboard/resources/:collection", listPage(services)),
  signedIn(services, "GET", "/dashboard/resources/:collection/:id", detailPage(services)),
  signedIn(services, "GET", "/dashboard/search", search(services)),
  signedIn(services, "POST", "/dashboard/scenarios/:name", runScenario(services))
]
