import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { customers, RepositoryBackend, Transactor } from "@paykit/engine"
import { DbInteger } from "../../src/db-integer.ts"
import { customer, ORG } from "./fixtures.ts"

const ReadRow = Schema.Struct({ read: DbInteger })
const decodeRead = Schema.decodeUnknownEffect(Schema.Array(ReadRow))

/**
 * Rows read so far in this transaction from the tables of the current schema, by scans of either
 * kind: what the bound tests count instead of timing, so a plan that scans fails on any machine.
 */
export const rowsReadInTransaction = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`SELECT coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)), 0)::int AS read
    FROM pg_stat_xact_user_tables WHERE schemaname = current_schema()`
  const [row] = yield* decodeRead(rows)
  return row?.read ?? 0
})

const customerRepository = Effect.map(RepositoryBackend, (backend) => backend.repository(customers))

/**
 * Rows read by `read`, in a transaction of its own, with customers 1 to `stored` stored (the bound
 * tests' store: a count that grows with `stored` is a read of the type's rows).
 */
export const rowsReadAmongCustomers = <E>(stored: number, read: (repo: Effect.Success<typeof customerRepository>) => Effect.Effect<void, E>) =>
  Effect.gen(function*() {
    const tx = yield* Transactor
    const repo = yield* customerRepository
    yield* tx.transaction(repo.insertAll(ORG, Array.from({ length: stored }, (_, i) => customer(i + 1))))
    return yield* tx.transaction(Effect.gen(function*() {
      const before = yield* rowsReadInTransaction
      yield* read(repo)
      return (yield* rowsReadInTransaction) - before
    }))
  })
