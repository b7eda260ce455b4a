import { type Html, html } from "@paykit/http"
import { collectionsOfId } from "./resources.ts"

/**
 * How the dashboard shows the API's JSON whatever the resource: a value as text, an id as a link
 * to its resource's page, an object as a list of its fields. Everything goes through `html`, so a
 * resource's metadata reaches the page escaped.
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

/** One value: an id linked, text and numbers as they are, an object or a list nested. */
export const valueView = (links: Links, value: unknown): Html => {
  if (value === null || value === undefined) return html`<span class="notice">none</span>`
  if (typeof value === "string") {
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

/** An object's fields as a description list. */
export const fieldsView = (links: Links, record: Readonly<Record<string, unknown>>): Html => {
  const entries = Object.entries(record)
  if (entries.length === 0) return html`<span class="notice">none</span>`
  return html`<dl>${entries.map(([key, value]) => html`<dt>${key}</dt><dd>${valueView(links, value)}</dd>`)}</dl>`
}

/** The columns a list shows: the first scalar fields, the ones people scan for first. */
const PREFERRED = ["id", "created_at", "status", "amount", "currency", "name", "given_name", "family_name", "email", "reference", "action", "resource_type", "url", "successful", "scheme", "charge_date"]

export const columnsOf = (rows: ReadonlyArray<Readonly<Record<string, unknown>>>): ReadonlyArray<string> => {
  const keys = new Set(rows.flatMap((row) => Object.keys(row).filter((key) => row[key] === null || typeof row[key] !== "object")))
  return PREFERRED.filter((key) => keys.has(key)).slice(0, 7)
}

/** Rows of resources as a table, each id linking to its page. */
export const tableView = (links: Links, caption: string, rows: ReadonlyArray<unknown>): Html => {
  const records = rows.filter(isRecord)
  if (records.length === 0) return html`<p>None.</p>`
  const columns = columnsOf(records)
  return html`<div class="scroll"><table><caption>${caption}</caption><thead><tr>${columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead><tbody>${
    records.map((row) => html`<tr>${columns.map((c) => html`<td>${valueView(links, row[c])}</td>`)}</tr>`)
  }</tbody></table></div>`
}

/** The resource under its key in an API answer (`{"payments": {...}}`), or the list under it. */
export const underKey = (body: unknown, key: string): unknown => isRecord(body) ? body[key] : undefined

export const asRecord = (value: unknown): Readonly<Record<string, unknown>> => isRecord(value) ? value : {}

export const asList = (value: unknown): ReadonlyArray<unknown> => Array.isArray(value) ? value : []
