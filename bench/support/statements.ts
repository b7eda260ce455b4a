/**
 * The day's statements, node by node, from `pg_stat_statements`: what docs/scaling.md's tables of
 * statements compare. The extension must be loaded on every node (`shared_preload_libraries`, a
 * restart) and made in the benchmark's databases (`CREATE EXTENSION pg_stat_statements`; on Citus,
 * on the coordinator), with `pg_stat_statements.track = all` for the statements Citus runs on a
 * shard. A node without it is named once and left out.
 */
const { Effect, ManagedRuntime, Schema } = await import("effect")
const { SqlClient } = await import("effect/sql")
const store = await import("@paykit/store-sql")
type Node = { readonly url: string; readonly runtime: import("effect").ManagedRuntime.ManagedRuntime<import("effect/sql").SqlClient.SqlClient, unknown> }

const StatementRow = Schema.Struct({
  calls: Schema.Number,
  rows: Schema.Number,
  total: Schema.Number,
  planning: Schema.Number,
  statement: Schema.String
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(StatementRow))

/**
 * The statements the client sent, heaviest first. Those Citus runs on a shard for them (the
 * shard's table named with its shard's number: `schema.events_102345`) are inside their caller's
 * time already, and are left out.
 */
const TOP = `SELECT calls::float8 AS calls, rows::float8 AS rows, (total_exec_time + total_plan_time)::float8 AS total,
    total_plan_time::float8 AS planning, regexp_replace(left(query, 110), '\\s+', ' ', 'g') AS statement
  FROM pg_stat_statements
  WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND query !~ '\\.[a-z_]+_[0-9]+ ' AND query !~* 'pg_stat_statements'
  ORDER BY total DESC LIMIT $1`

/**
 * Each node at `urls` (one database's, the first its coordinator or its only node) whose
 * `pg_stat_statements` answers; the others are named once and left out. The extension is made in
 * the database where it is missing (Citus makes it on the workers too).
 */
const reachable = async (urls: ReadonlyArray<string>) => {
  const nodes: Array<Node> = []
  for (const [index, url] of urls.entries()) {
    const runtime = ManagedRuntime.make(store.postgresClient(url, { maxConnections: 1 }))
    const answers = await runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.andThen(
        index === 0 ? Effect.ignore(sql`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`) : Effect.void,
        sql`SELECT 1 FROM pg_stat_statements LIMIT 1`
      ))).then(() => true, () => false)
    if (answers) nodes.push({ url, runtime })
    else {
      console.log(`  statements: pg_stat_statements does not answer in ${new URL(url).host}${new URL(url).pathname} (not loaded?); left out`)
      await runtime.dispose()
    }
  }
  return nodes
}

/** Resets the counts on every node, then reports each node's heaviest `top` statements since. */
export const statementsWatch = async (urls: ReadonlyArray<string>, top = 12) => {
  const nodes = await reachable(urls)
  return {
    reset: async () => {
      for (const node of nodes) await node.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT pg_stat_statements_reset()`))
    },
    report: async (label: string) => {
      for (const node of nodes) {
        const rows = await node.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.flatMap(sql.unsafe(TOP, [top]), decodeRows)))
        console.log(`  ${label}, the heaviest statements on ${new URL(node.url).host} (calls, rows, ms inside them, of which planning):`)
        for (const row of rows) {
          console.log(`    ${String(row.calls).padStart(6)} ${String(row.rows).padStart(7)} ${row.total.toFixed(1).padStart(9)} ${row.planning.toFixed(1).padStart(7)}  ${row.statement}`)
        }
      }
    },
    close: async () => {
      for (const node of nodes) await node.runtime.dispose()
    }
  }
}
