import { Effect, Layer, Schema } from "effect"
import { CUSTOMER_SORT_KEYS, customers, events, type ListQuery, PAYMENT_SORT_KEYS, RESOURCE_DEFINITIONS, type ResourceDefinition, transitions } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import type { Statement } from "effect/sql/Statement"
import type { Row } from "effect/sql/SqlConnection"
import { describe, expect, it } from "vitest"
import { makeSqlRepository } from "../src/sql-repository.ts"
import { ORGANISATIONS, SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"
import { ORG, OTHER } from "./support/fixtures.ts"
import { executeLiteral } from "./support/execute-literal.ts"

/**
 * Every list filter of every stored resource is served by an index scoped by organisation and
 * type, under the custom plan and the generic one PostgreSQL switches prepared statements to:
 * each page and cursor statement, EXPLAINed (ANALYZE, BUFFERS) over 100k rows, reads an index,
 * never a whole table, and touches a bounded number of pages.
 */

/** Rows loaded: most in one organisation, a hot type (payments) holding the largest share. */
const ROWS = 100_000
const PAGE = 50
/** Pages a page of 50 (or a cursor check) may touch: the index path plus one heap page per row. */
const PAGE_BUDGET = 200
const VALUES = 40

const OWN_TABLES = [events, transitions]
const definitions = [...RESOURCE_DEFINITIONS, ...OWN_TABLES]
const keysOf = (definition: { readonly filters: object }) => Object.keys(definition.filters).filter((key) => key !== "created_at")
const isOwnTable = (name: string) => OWN_TABLES.some((definition) => definition.name === name)

const PlanNode: Schema.Codec<PlanNode> = Schema.Struct({
  "Node Type": Schema.String,
  "Index Name": Schema.optional(Schema.String),
  "Shared Hit Blocks": Schema.optional(Schema.Number),
  "Shared Read Blocks": Schema.optional(Schema.Number),
  Plans: Schema.optional(Schema.Array(Schema.suspend((): Schema.Codec<PlanNode> => PlanNode)))
})
interface PlanNode {
  readonly "Node Type": string
  readonly "Index Name"?: string | undefined
  readonly "Shared Hit Blocks"?: number | undefined
  readonly "Shared Read Blocks"?: number | undefined
  readonly Plans?: ReadonlyArray<PlanNode> | undefined
}
const Plans = Schema.NonEmptyArray(Schema.Struct({ Plan: PlanNode }))
// The plan arrives as parsed json from one driver and as text from the other.
const ExplainRow = Schema.Struct({ "QUERY PLAN": Schema.Union([Plans, Schema.fromJsonString(Plans)]) })
const decodeExplain = Schema.decodeUnknownEffect(ExplainRow)

const nodesOf = (node: PlanNode): Array<PlanNode> => [node, ...(node.Plans ?? []).flatMap(nodesOf)]

interface Plan {
  readonly nodeTypes: ReadonlyArray<string>
  readonly indexes: ReadonlyArray<string>
  readonly pages: number
}


/**
 * The executed plan of a statement: with its parameters bound (a custom plan), or prepared and
 * forced generic, the plan PostgreSQL settles on after a few runs of a prepared statement.
 */
const explain = (statement: Statement<Row>, generic: boolean) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [text, params] = statement.compile()
    const rows = yield* sql.withTransaction(Effect.gen(function*() {
      if (!generic) return yield* sql.unsafe(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, params)
      yield* sql.unsafe(`SET LOCAL plan_cache_mode = force_generic_plan`)
      yield* sql.unsafe(`PREPARE planned AS ${text}`)
      const explained = yield* sql.unsafe(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE planned(${params.map(executeLiteral).join(", ")})`)
      yield* sql.unsafe(`DEALLOCATE planned`)
      return explained
    }))
    const [{ Plan: root }] = (yield* decodeExplain(rows[0]))["QUERY PLAN"]
    const nodes = nodesOf(root)
    return {
      nodeTypes: nodes.map((node) => node["Node Type"]),
      indexes: nodes.flatMap((node) => node["Index Name"] === undefined ? [] : [node["Index Name"]]),
      pages: (root["Shared Hit Blocks"] ?? 0) + (root["Shared Read Blocks"] ?? 0)
    } satisfies Plan
  })

const ONE_PER_CREDITOR = new Set(["payer_themes", "logos"])

/** Rows of every type (most of them payments) in two organisations, each filter key holding one of VALUES values. */
const load = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const typed = definitions.filter((definition) => !isOwnTable(definition.name))
  const shares = typed.map((definition) => ({ definition, rows: definition.name === "payments" ? ROWS / 2 : Math.floor(ROWS / 2 / typed.length) }))
  // Payer themes and logos are unique per creditor (migrations 0004, 0062): theirs get a value each.
  const filtersOf = (keys: ReadonlyArray<string>, values = `(i % ${VALUES})`) =>
    `jsonb_build_object('created_at', to_char(timestamp '2026-01-01' + i * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"000Z"')${
      keys.map((key) => `, '${key}', '${key}-' || ${values}`).join("")
    })`
  let offset = 0
  for (const { definition, rows } of shares) {
    yield* sql.unsafe(`INSERT INTO resources (organisation_id, resource_type, id, version, created_at, filters, data)
      SELECT CASE WHEN i % 10 = 0 THEN '${OTHER}' ELSE '${ORG}' END, '${definition.name}', 'ID' || lpad(i::text, 12, '0'), 1,
        timestamp '2026-01-01' + i * interval '1 millisecond', ${filtersOf(keysOf(definition), ONE_PER_CREDITOR.has(definition.name) ? "i" : undefined)}, '{}'::json
      FROM generate_series(${offset + 1}, ${offset + rows}) AS i`)
    offset += rows
  }
  for (const definition of OWN_TABLES) {
    yield* sql.unsafe(`INSERT INTO ${definition.name} (organisation_id, id, version, created_at, filters, data)
      SELECT CASE WHEN i % 10 = 0 THEN '${OTHER}' ELSE '${ORG}' END, 'EV' || lpad(i::text, 12, '0'), 1,
        timestamp '2026-01-01' + i * interval '1 millisecond', ${filtersOf(keysOf(definition))}, '{}'::json
      FROM generate_series(1, ${ROWS / 4}) AS i`)
  }
  yield* sql`ANALYZE`
})

/** The list queries of one definition: no filter, each key's equality, a created_at range; pages both ways. */
const queriesOf = (keys: ReadonlyArray<string>): ReadonlyArray<readonly [string, ListQuery<string>]> => [
  ["no filter", { limit: PAGE }],
  ["no filter, after a cursor", { limit: PAGE, after: "ID000000030000" }],
  ["created_at range", { limit: PAGE, filters: { created_at: { op: "range", gte: "2026-01-01T00:00:10.000000Z" } } }],
  ...keys.flatMap((key): ReadonlyArray<readonly [string, ListQuery<string>]> => [
    [`${key} =`, { limit: PAGE, filters: { [key]: { op: "eq", value: `${key}-7` } } }],
    [`${key} = before a cursor`, { limit: PAGE, before: "ID000000001000", filters: { [key]: { op: "eq", value: `${key}-7` } } }],
    [`${key} in`, { limit: PAGE, filters: { [key]: { op: "in", values: [`${key}-7`, `${key}-8`, `${key}-9`] } } }]
  ])
]

/** The orders the API lists in (`sort_field`), by definition: the keys each may be ordered by. */
const ORDERS: Readonly<Record<string, ReadonlyArray<string>>> = {
  payments: Object.values(PAYMENT_SORT_KEYS),
  customers: Object.values(CUSTOMER_SORT_KEYS),
  customer_bank_accounts: ["currency_customer"]
}

/** The ordered list queries of one definition, both ways, after a cursor, and those the API makes under filters. */
const orderedQueriesOf = (name: string): ReadonlyArray<readonly [string, ListQuery<string>]> => [
  ...(ORDERS[name] ?? []).flatMap((key): ReadonlyArray<readonly [string, ListQuery<string>]> =>
    (["asc", "desc"] as const).flatMap((direction): ReadonlyArray<readonly [string, ListQuery<string>]> => [
      [`ordered by ${key} ${direction}`, { limit: PAGE, order: { key, direction } }],
      [`ordered by ${key} ${direction} after a cursor`, { limit: PAGE, order: { key, direction }, after: "ID000000030000" }],
      [`ordered by ${key} ${direction} before a cursor`, { limit: PAGE, order: { key, direction }, before: "ID000000030000" }]
    ])),
  ...(name === "payments"
    ? ([
      // A customer's payments from a date, by charge date: its mandates' branches, each on the (mandate, charge date) index.
      ["customer's mandates from a charge date, by charge date", {
        limit: PAGE,
        order: { key: "charge_date", direction: "asc" },
        filters: { mandate: { op: "in", values: ["mandate-7", "mandate-8", "mandate-9"] }, charge_date: { op: "range", gte: "charge_date-2" } }
      }],
      ["a mandate's payments by charge date, after a cursor", {
        limit: PAGE,
        order: { key: "charge_date", direction: "desc" },
        after: "ID000000030000",
        filters: { mandate: { op: "eq", value: "mandate-7" } }
      }]
    ] as const)
    : []),
  ...(name === "customers"
    ? ([["not removed, by name", { limit: PAGE, order: { key: "sort_name", direction: "asc" }, filters: { removed: { op: "eq", value: "removed-7" } } }]] as const)
    : []),
  ...(name === "customer_bank_accounts"
    ? ([["a currency's accounts in their customers' order", {
      limit: PAGE,
      order: { key: "currency_customer", direction: "desc" },
      filters: { currency_customer: { op: "range", gte: "currency_customer-1", lt: "currency_customer-2" } }
    }]] as const)
    : [])
]

/**
 * A stand-in for a stored definition with its name and filter keys: the statements depend on
 * nothing else (the Schema only decodes rows, and these rows are only planned, never decoded).
 */
const probeOf = (definition: { readonly name: string; readonly filters: object }): ResourceDefinition<Probe, string> => ({
  name: definition.name,
  idPrefix: null,
  schema: Probe,
  filters: Object.fromEntries(Object.keys(definition.filters).map((key) => [key, () => null]))
})
const Probe = Schema.Struct({ id: Schema.String, created_at: Schema.String })
type Probe = typeof Probe.Type

/** Every list query of one definition, each page and cursor check under both plans. */
const checkPlans = (sql: SqlClient.SqlClient, definition: { readonly name: string; readonly filters: object }) =>
  Effect.gen(function*() {
    const own = isOwnTable(definition.name)
    const location = own ? { table: definition.name, typed: false } : { table: "resources", typed: true }
    const statements = makeSqlRepository(sql, probeOf(definition), location).statements
    const prefix = own ? "EV" : "ID"
    for (const [name, query] of [...queriesOf(keysOf(definition)), ...orderedQueriesOf(definition.name)]) {
      for (const generic of [false, true]) {
        const what = `${definition.name} ${name} (${generic ? "generic" : "custom"} plan)`
        expectBounded(what, yield* explain(statements.page(ORG, query), generic))
        const place = (id: string) => query.order === undefined ? `${prefix}${id}` : { value: `${query.order.key}-7`, id: `${prefix}${id}` }
        const cursors = statements.cursors(ORG, query, place("000000020000"), place("000000000500"))
        expectBounded(`${what}, cursors`, yield* explain(cursors, generic))
      }
    }
  })

const expectBounded = (what: string, plan: Plan) => {
  expect(plan.nodeTypes, what).not.toContain("Seq Scan")
  expect(plan.indexes.length, what).toBeGreaterThan(0)
  expect(plan.pages, `${what}: pages read`).toBeLessThanOrEqual(PAGE_BUDGET)
}

/**
 * The customers' list in name order as the API makes it (`removed = false`), where the removed
 * customers come first in that order (a creditor that removed its customers from "A" to "C"): a
 * planner that reads the name order and skips the removed ones reads every one of them first.
 */
const customersRemovedFirst = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const REMOVED = 20_000
  yield* sql.unsafe(`INSERT INTO resources (organisation_id, resource_type, id, version, created_at, filters, data)
    SELECT '${ORG}', 'customers', 'CU' || lpad(i::text, 12, '0'), 1, timestamp '2026-01-01' + i * interval '1 millisecond',
      jsonb_build_object('created_at', to_char(timestamp '2026-01-01' + i * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"000Z"'),
        'removed', CASE WHEN i <= ${REMOVED} THEN 'true' ELSE 'false' END,
        'sort_name', CASE WHEN i <= ${REMOVED} THEN 'a' ELSE 'm' END || lpad(i::text, 8, '0'),
        'sort_company_name', CASE WHEN i <= ${REMOVED} THEN 'a' ELSE 'm' END || lpad(i::text, 8, '0')), '{}'::json
    FROM generate_series(1, ${REMOVED + 30_000}) AS i`)
  yield* sql`ANALYZE resources`
  const statements = makeSqlRepository(sql, probeOf(customers), { table: "resources", typed: true }).statements
  for (const key of [CUSTOMER_SORT_KEYS.name, CUSTOMER_SORT_KEYS.company_name]) {
    for (const direction of ["asc", "desc"] as const) {
      const query: ListQuery<string> = { limit: PAGE, order: { key, direction }, filters: { removed: { op: "eq", value: "false" } } }
      for (const generic of [false, true]) {
        const what = `customers not removed by ${key} ${direction}, the removed first in that order (${generic ? "generic" : "custom"} plan)`
        expectBounded(what, yield* explain(statements.page(ORG, query), generic))
        const cursors = statements.cursors(ORG, query, { value: "m00030000", id: "CU000000030000" }, { value: "m00040000", id: "CU000000040000" })
        expectBounded(`${what}, cursors`, yield* explain(cursors, generic))
      }
    }
  }
})

describe.each(DATABASES)("filter indexes on $name", (database) => {
  it("the customers' list in name order reads its page whatever share of them is removed, and wherever they fall in that order", { timeout: 300_000 }, () =>
    Effect.runPromise(Effect.provide(customersRemovedFirst, SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie))))

  it("every filter key of every stored resource has its index", { timeout: 60_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()`
        const defs = rows.map((row) => row.indexdef)
        for (const definition of definitions) {
          const own = isOwnTable(definition.name)
          const table = own ? definition.name : "resources"
          const scope = own ? "organisation_id" : "organisation_id, resource_type"
          for (const key of keysOf(definition)) {
            const found = defs.some((def) =>
              def.includes(`.${table} USING btree (${scope}, ((filters ->> '${key}'::text)) COLLATE "C", id) WHERE (filters ? '${key}'::text)`)
            )
            expect(found, `${definition.name}.${key}`).toBe(true)
          }
        }
      }),
      SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
    )))

  it("each list query and its cursor check reads an index and a bounded number of pages at 100k rows, custom or generic plan", { timeout: 600_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* load
        for (const definition of definitions) yield* checkPlans(sql, definition)
        // The daily run's list of organisations: one index descent per organisation, not every row.
        expectBounded("organisations", yield* explain(sql.unsafe(ORGANISATIONS), false))
      }),
      SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
    )))
})
