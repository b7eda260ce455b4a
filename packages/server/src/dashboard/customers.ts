import { Effect } from "effect"
import type { PaykitError } from "@paykit/core"
import { type Html, html } from "@paykit/http"
import { customerName } from "./format.ts"
import { asRecord, type ExtraColumn, underKey } from "./views.ts"
import type { DashboardServices, Visit } from "./visit.ts"

/**
 * The customer of a payment or a mandate, as the API links them: a mandate names its customer, a
 * payment its mandate. Read through the API, each mandate and customer once per page (a page of
 * payments is mostly a few customers'), at most `LOOKUPS_AT_ONCE` at a time.
 */

/** The collections whose rows have a customer the dashboard shows. */
export const WITH_CUSTOMER: ReadonlyArray<string> = ["payments", "mandates"]

const LOOKUPS_AT_ONCE = 5

type Row = Readonly<Record<string, unknown>>

const linkOf = (row: Row, key: string): string | undefined => {
  const value = asRecord(row["links"])[key]
  return typeof value === "string" ? value : undefined
}

/** Reads each id once: the resource under its key, or undefined where the API refuses (another organisation's, gone). */
const readEach = (services: DashboardServices, visit: Visit, collection: string, ids: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, Row>, PaykitError> =>
  Effect.map(
    Effect.forEach([...new Set(ids)], (id) =>
      Effect.map(Effect.option(services.api.call(visit.token, "GET", `/${collection}/${encodeURIComponent(id)}`)), (found) =>
        [id, found._tag === "Some" ? asRecord(underKey(found.value, collection)) : undefined] as const), { concurrency: LOOKUPS_AT_ONCE }),
    (pairs) => new Map(pairs.filter((p): p is readonly [string, Row] => p[1] !== undefined))
  )

/** Each row's customer (by the row's id), where it has one. */
export const customersOf = (services: DashboardServices, visit: Visit, collection: string, rows: ReadonlyArray<Row>): Effect.Effect<ReadonlyMap<string, Row>, PaykitError> =>
  Effect.gen(function*() {
    if (!WITH_CUSTOMER.includes(collection)) return new Map()
    const mandates = collection === "payments"
      ? yield* readEach(services, visit, "mandates", rows.flatMap((r) => linkOf(r, "mandate") ?? []))
      : new Map(rows.map((r) => [String(r["id"] ?? ""), r] as const))
    const customerIdOf = (row: Row): string | undefined => {
      const mandate = collection === "payments" ? mandates.get(linkOf(row, "mandate") ?? "") : row
      return mandate === undefined ? undefined : linkOf(mandate, "customer")
    }
    const customers = yield* readEach(services, visit, "customers", rows.flatMap((r) => customerIdOf(r) ?? []))
    const out = new Map<string, Row>()
    for (const row of rows) {
      const customer = customers.get(customerIdOf(row) ?? "")
      if (customer !== undefined) out.set(String(row["id"] ?? ""), customer)
    }
    return out
  })

/** A customer's name, linked to its page. */
export const customerView = (visit: Visit, customer: Row | undefined): Html =>
  customer === undefined
    ? html`<span class="notice">none</span>`
    : html`<a href="${visit.root}/resources/customers/${encodeURIComponent(String(customer["id"] ?? ""))}">${customerName(customer)}</a>`

/** The customer column of a table of payments or mandates. */
export const customerColumn = (visit: Visit, customers: ReadonlyMap<string, Row>): ExtraColumn => ({
  heading: "customer",
  cell: (row) => customerView(visit, customers.get(String(row["id"] ?? "")))
})
