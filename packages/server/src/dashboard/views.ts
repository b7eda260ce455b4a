import { type Html, html } from "@paykit/http"
import { badgeView, isAmountField, isInstant, isStatusField, moneyView, timeView } from "./format.ts"
import { collectionsOfId, singularOf } from "./resources.ts"

/**
 * How the dashboard shows the API's JSON whatever the resource: a value as text, an id as a link
 * to its resource's page, an object as a list of its fields; an amount in its record's currency,
 * an instant as a time, a status as a badge. Everything goes through `html`, so a resource's
 * metadata reaches the page escaped.
 */

/** Where the dashboard's links lead: its root under the host's mount, and whether the API reads `collection/:id`. */
export interface Links {
  readonly root: string
  readonly readable: (collection: string) => boolean
}

/** The page of the resource an id names, when its prefix says which collection (else the search, which tries each). */
export const resourceHref = (links: Links, id: string): string | undefined => {
  const readable = collectionsOfId(id).filter(links.readable)
  if (readable.length === 0) return undefined
  return readable.length === 1 ? `${links.root}/resources/${readable[0]}/${encodeURIComponent(id)}` : `${links.root}/search?id=${encodeURIComponent(id)}`
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === "object" && value !== null && !Array.isArray(value)

/** A string holding a JSON object or array (a webhook's request body), parsed to be shown indented. */
const jsonOf = (text: string): unknown => {
  if (!/^\s*[[{]/.test(text)) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** One value: an id linked, an instant as a time, text and numbers as they are, an object or a list nested. */
export const valueView = (links: Links, value: unknown): Html => {
  if (value === null || value === undefined) return html`<span class="notice">none</span>`
  if (typeof value === "string") {
    if (isInstant(value)) return timeView(value)
    const json = jsonOf(value)
    if (json !== undefined) return html`<pre>${JSON.stringify(json, null, 2)}</pre>`
    const href = resourceHref(links, value)
    return href === undefined ? html`${value}` : html`<a href="${href}"><code>${value}</code></a>`
  }
  if (typeof value === "number" || typeof value === "boolean") return html`${String(value)}`
  if (Array.isArray(value)) return value.length === 0 ? html`<span class="notice">none</span>` : html`<ul>${value.map((item) => html`<li>${valueView(links, item)}</li>`)}</ul>`
  if (isRecord(value)) return fieldsView(links, value)
  return html`${String(value)}`
}

/** Booleans people scan for, as badges: an endpoint enabled or not, a delivery answered well or not. */
const FLAG_WORDS: Readonly<Record<string, readonly [string, string]>> = {
  enabled: ["enabled", "disabled"],
  successful: ["succeeded", "failed"]
}

/** A field of `record`: as `valueView`, but an amount in the record's currency, a status or a flag as a badge. */
export const fieldValueView = (links: Links, key: string, value: unknown, record: Readonly<Record<string, unknown>>): Html => {
  const currency = record["currency"]
  const amount = typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value
  if (isAmountField(key) && typeof amount === "number" && typeof currency === "string") {
    const money = moneyView(amount, currency)
    if (money !== undefined) return money
  }
  if (isStatusField(key) && typeof value === "string") return badgeView(value)
  const flag = FLAG_WORDS[key]
  if (flag !== undefined && typeof value === "boolean") return badgeView(value ? flag[0] : flag[1])
  return valueView(links, value)
}

/** An object's fields as a description list. */
export const fieldsView = (links: Links, record: Readonly<Record<string, unknown>>): Html => {
  const entries = Object.entries(record)
  if (entries.length === 0) return html`<span class="notice">none</span>`
  return html`<dl>${entries.map(([key, value]) => html`<dt>${key}</dt><dd>${fieldValueView(links, key, value, record)}</dd>`)}</dl>`
}

/** The columns a list shows: the first scalar fields, the ones people scan for first. */
const PREFERRED = ["id", "created_at", "status", "enabled", "amount", "currency", "charge_date", "name", "given_name", "family_name", "email", "reference", "action", "resource_type", "url", "successful", "scheme"]

/** How many columns a table shows, its page's own included: what fits beside the menu without scrolling. */
const COLUMNS_SHOWN = 7

export const columnsOf = (rows: ReadonlyArray<Readonly<Record<string, unknown>>>, max = COLUMNS_SHOWN): ReadonlyArray<string> => {
  const keys = new Set(rows.flatMap((row) => Object.keys(row).filter((key) => row[key] === null || typeof row[key] !== "object")))
  // With the amount shown in its currency, the currency's own column says nothing more.
  const columns = PREFERRED.filter((key) => keys.has(key) && !(key === "currency" && keys.has("amount")))
  return columns.slice(0, max)
}

/** A column a page adds to a table (a payment's customer): its heading and each row's cell. */
export interface ExtraColumn {
  readonly heading: string
  readonly cell: (row: Readonly<Record<string, unknown>>) => Html
}

/** Rows of resources as a table, each id linking to its page. */
export const tableView = (links: Links, caption: string, rows: ReadonlyArray<unknown>, extra: ReadonlyArray<ExtraColumn> = []): Html => {
  const records = rows.filter(isRecord)
  if (records.length === 0) return html`<p>None.</p>`
  const columns = columnsOf(records, COLUMNS_SHOWN - extra.length)
  return html`<div class="scroll"><table><caption>${caption}</caption><thead><tr>${columns.map((c) => html`<th scope="col">${c}</th>`)}${
    extra.map((e) => html`<th scope="col">${e.heading}</th>`)
  }</tr></thead><tbody>${
    records.map((row) => html`<tr>${columns.map((c) => html`<td>${fieldValueView(links, c, row[c], row)}</td>`)}${extra.map((e) => html`<td>${e.cell(row)}</td>`)}</tr>`)
  }</tbody></table></div>`
}

/** The resource an event is about: its type's link (`links.payment` of a `payments` event). */
export const eventResourceOf = (event: Readonly<Record<string, unknown>>): { readonly type: string; readonly id: string } => {
  const type = typeof event["resource_type"] === "string" ? event["resource_type"] : ""
  const links = asRecord(event["links"])
  const id = links[singularOf(type)] ?? links[type]
  return { type, id: typeof id === "string" ? id : "" }
}

/**
 * Events as a table: each event's id linking to its page, when, the event, the resource it is
 * about (its type, its id linked), and why (the cause's code and its words).
 */
export const eventsTable = (links: Links, caption: string, events: ReadonlyArray<unknown>): Html => {
  const records = events.filter(isRecord)
  if (records.length === 0) return html`<p>None.</p>`
  return html`<div class="scroll"><table><caption>${caption}</caption><thead><tr><th scope="col">id</th><th scope="col">created_at</th><th scope="col">event</th><th scope="col">resource</th><th scope="col">cause</th></tr></thead><tbody>${
    records.map((event) => {
      const resource = eventResourceOf(event)
      const details = asRecord(event["details"])
      return html`<tr><td>${valueView(links, event["id"])}</td><td>${valueView(links, event["created_at"])}</td><td><code>${resource.type}.${String(event["action"] ?? "")}</code></td><td>${singularOf(resource.type).replaceAll("_", " ")} ${
        resource.id === "" ? html`<span class="notice">none</span>` : valueView(links, resource.id)
      }</td><td>${typeof details["cause"] === "string" ? html`<code>${details["cause"]}</code><br>` : ""}<span class="notice">${String(details["description"] ?? "")}</span></td></tr>`
    })
  }</tbody></table></div>`
}

/** The resource under its key in an API answer (`{"payments": {...}}`), or the list under it. */
export const underKey = (body: unknown, key: string): unknown => isRecord(body) ? body[key] : undefined

export const asRecord = (value: unknown): Readonly<Record<string, unknown>> => isRecord(value) ? value : {}

export const asList = (value: unknown): ReadonlyArray<unknown> => Array.isArray(value) ? value : []
