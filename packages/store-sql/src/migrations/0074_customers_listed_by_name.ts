import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The customers' list as the API makes it in name order (`GET /customers?sort_field=name` or
 * `company_name`): never a removed customer, ordered by the sort key. With the order's index
 * alone, a page read customers in name order and skipped the removed ones, as many as there were
 * (and a planner that misjudged how many are removed read the whole organisation's customers:
 * 798 pages for a page of 50 at 100k rows, seen on PGlite); with `removed` before the order, it
 * reads the page and stops, whatever share is removed. The created-at order has its index since
 * migration 0060 (`removed`, `id`).
 */
export const CUSTOMER_NAME_ORDER_KEYS: ReadonlyArray<string> = ["sort_name", "sort_company_name"]

/** The index of the customers not removed (or removed) in the order of `key`. */
export const removedOrderIndexName = (key: string): string => `resources_o_removed_${key}`

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const key of CUSTOMER_NAME_ORDER_KEYS) {
    yield* sql.unsafe(`CREATE INDEX ${removedOrderIndexName(key)} ON resources
  (organisation_id, resource_type, ((filters->>'removed') COLLATE "C"), ((filters->>'${key}') COLLATE "C"), id)
  WHERE filters ? 'removed' AND filters ? '${key}'`)
  }
})
