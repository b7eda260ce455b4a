import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { Statement } from "effect/sql/Statement"

/**
 * Citus's EXPLAIN of a statement, as the Citus suites read it (docs/storage.md, "Citus: which
 * statements run where"): on how many shards it runs (`tasks`: 1 for a router statement, which
 * runs whole on the one worker of its organisation) and whether any plan locks rows.
 */

/** What Citus's EXPLAIN says of a statement: how many shards it runs on, and whether any plan locks rows. */
export interface CitusPlan {
  readonly tasks: number
  readonly locksRows: boolean
}

interface PlanNode {
  readonly "Node Type"?: string
  readonly "Distributed Query"?: { readonly Job?: { readonly "Task Count"?: number; readonly Tasks?: ReadonlyArray<{ readonly "Remote Plan"?: unknown }> } }
  readonly Plans?: ReadonlyArray<PlanNode>
}

export const planOf = (sql: SqlClient.SqlClient, statement: Statement<unknown>) =>
  Effect.gen(function*() {
    const [text, params] = statement.compile()
    const [row] = yield* sql.unsafe<{ "QUERY PLAN": unknown }>(`EXPLAIN (FORMAT JSON) ${text}`, params)
    const raw = row?.["QUERY PLAN"]
    const json: unknown = typeof raw === "string" ? JSON.parse(raw) : raw
    let tasks = 0
    let locksRows = false
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk)
      if (typeof value !== "object" || value === null) return
      const node = value as PlanNode & Record<string, unknown>
      if (node["Node Type"] === "LockRows") locksRows = true
      tasks = Math.max(tasks, node["Distributed Query"]?.Job?.["Task Count"] ?? 0)
      for (const child of Object.values(node)) walk(child)
    }
    walk(json)
    return { tasks, locksRows } satisfies CitusPlan
  })

