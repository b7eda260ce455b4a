import { Effect, Schema } from "effect"
import { callerTraceparent, type ClaimedDueItem, compareDueOrder, type DueItem, type DueLease, type DueRowKey, DueWorkStore, forOrganisation, type NextDue } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import { readingReachableShards, topologyOf } from "./citus.ts"
import { DbInteger } from "./db-integer.ts"
import { makeStatisticsKeeper } from "./statistics.ts"
import { orStorageError } from "./storage-error.ts"
import { namedStatements } from "./statement-metrics.ts"

/**
 * The engine's `DueWorkStore` on SQL (`due_work` and `organisation_clocks`, migrations 0006 and 0065), the
 * same statements on PostgreSQL and PGlite. A claim is one `UPDATE … FROM (SELECT … FOR UPDATE
 * SKIP LOCKED)`: several processes claiming at once each take rows the others are not taking, and
 * a row whose lease ran out (its worker died) is claimed again. On Citus, which locks no rows
 * across shards, a claim reads the candidates without a lock and takes each with an update of its
 * one row that holds only if its lease is still free (`claimDueDistributed`). `schedule` and `complete` are plain
 * statements, so inside a unit of work they run on its transaction and commit with it. Claims,
 * which run outside units of work, also keep the planner's statistics up with grown tables
 * (`makeStatisticsKeeper`), so the work they hand out runs on plans for the tables' sizes.
 */

const ItemRow = Schema.Struct({
  organisation_id: Schema.String,
  kind: Schema.String,
  key: Schema.String,
  due_at: DbInteger,
  attempt: DbInteger,
  trace_parent: Schema.NullOr(Schema.String),
  offset_ms: DbInteger
})
const decodeItems = Schema.decodeUnknownEffect(Schema.Array(ItemRow))
const PeekRow = Schema.Struct({
  organisation_id: Schema.String,
  kind: Schema.String,
  key: Schema.String,
  lease_until: Schema.NullOr(DbInteger)
})
const decodePeek = Schema.decodeUnknownEffect(Schema.Array(PeekRow))
const decodeOffset = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ offset_ms: DbInteger })))
const decodePending = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ key: Schema.String, due_at: DbInteger, attempt: DbInteger })))

const toItem = (row: typeof ItemRow.Type): ClaimedDueItem => ({
  organisation: row.organisation_id,
  kind: row.kind,
  key: row.key,
  dueAt: row.due_at,
  attempt: row.attempt,
  traceparent: row.trace_parent,
  offsetMillis: row.offset_ms
})

/**
 * A lease that is free or ran out. A lease held by the caller's own owner name is not free: the
 * process's polling worker and its advances claim under distinct names, so neither takes a row
 * the other is running.
 */
const leaseFree = (row: { readonly lease_until: number | null }, lease: DueLease) =>
  row.lease_until === null || row.lease_until < lease.realNow

/**
 * Due order (the engine's `compareDueOrder`): `due_at`, then organisation, kind and key by code
 * point whatever the database's collation, so both stores run rows due at one instant alike.
 */
const dueOrder = (sql: SqlClient.SqlClient, alias: string) =>
  sql.literal(`${alias}.due_at, ${alias}.organisation_id COLLATE "C", ${alias}.kind COLLATE "C", ${alias}.key COLLATE "C"`)

/** Leaves out the rows `passOver` names (none when empty). */
const passingOver = (sql: SqlClient.SqlClient, passOver: ReadonlyArray<DueRowKey>) =>
  passOver.length === 0 ? sql`` : sql`AND NOT ${
    sql.or(passOver.map((row) => sql`(d.organisation_id = ${row.organisation} AND d.kind = ${row.kind} AND d.key = ${row.key})`))
  }`

/**
 * The organisation's offset as the claim statements return it: what lies between the row's
 * `due_at` (its organisation's clock) and `due_real_at` (real time), which migration 0065's
 * triggers keep at the organisation's offset.
 */
const offsetColumn = (sql: SqlClient.SqlClient) => sql`d.due_at - d.due_real_at AS offset_ms`

/**
 * How many more candidates than asked a claim considers: processes claiming at once see the same
 * earliest rows, and each skips those another is locking, so each needs others to take.
 */
const CLAIM_CANDIDATES_BEYOND_LIMIT = 16

/**
 * A poll's claim (`claimDue`), one statement; exported so a test can read its plan. What is due is
 * one range of one index: the rows whose real instant (`due_real_at`, migration 0065: `due_at` less
 * the organisation's offset) has come, whatever the number of organisations or how far ahead each
 * runs. Until 2026-11-24 one bound, real time plus the largest offset, served every organisation (a
 * sandbox organisation a year ahead made each poll read every row due within the year); until
 * 2026-11-27 each organisation running ahead was a probe of its own, read from `organisation_clocks`
 * whole on every poll, so an idle poll grew with the organisations. The candidates are then locked, skipping those another claimer is
 * locking.
 */
export const claimDueStatement = (sql: SqlClient.SqlClient, lease: DueLease, limit: number) => {
  const candidates = limit + CLAIM_CANDIDATES_BEYOND_LIMIT
  const now = lease.realNow
  return sql`UPDATE due_work d SET lease_owner = ${lease.owner}, lease_until = ${lease.until}
    FROM (
      SELECT w.organisation_id, w.kind, w.key FROM (
        SELECT r.organisation_id, r.kind, r.key FROM due_work r
          WHERE r.due_real_at <= ${now} AND (r.lease_until IS NULL OR r.lease_until < ${now})
          ORDER BY r.due_real_at LIMIT ${candidates}
      ) due
      JOIN due_work w ON w.organisation_id = due.organisation_id AND w.kind = due.kind AND w.key = due.key
      -- Read again under the lock: another claimer may have leased it since.
      WHERE w.lease_until IS NULL OR w.lease_until < ${now}
      ORDER BY ${dueOrder(sql, "w")}
      LIMIT ${limit}
      FOR UPDATE OF w SKIP LOCKED
    ) picked
    WHERE d.organisation_id = picked.organisation_id AND d.kind = picked.kind AND d.key = picked.key
    RETURNING d.organisation_id, d.kind, d.key, d.due_at, d.attempt, d.trace_parent, ${offsetColumn(sql)}`
}

const CandidateRow = Schema.Struct({ organisation_id: Schema.String, kind: Schema.String, key: Schema.String, due_at: DbInteger })
const decodeCandidates = Schema.decodeUnknownEffect(Schema.Array(CandidateRow))

type RowKey = { readonly organisation_id: string; readonly kind: string; readonly key: string }

/** Takes one row if its lease is free (or ran out): one row's update, exported so a test can read its plan. */
export const claimRowStatement = (sql: SqlClient.SqlClient, row: RowKey, lease: DueLease) =>
  sql`UPDATE due_work d SET lease_owner = ${lease.owner}, lease_until = ${lease.until}
    WHERE d.organisation_id = ${row.organisation_id} AND d.kind = ${row.kind} AND d.key = ${row.key}
      AND (d.lease_until IS NULL OR d.lease_until < ${lease.realNow})
    RETURNING d.organisation_id, d.kind, d.key, d.due_at, d.attempt, d.trace_parent, ${offsetColumn(sql)}`

/** The row claimed, or none when another claimer took it first. */
const claimRow = (sql: SqlClient.SqlClient, row: RowKey, lease: DueLease) => Effect.flatMap(claimRowStatement(sql, row, lease), decodeItems)

/**
 * The candidates of a poll's claim on Citus, read without a lock: the single-node claim's inner
 * read (`due_work_due_real` up to real time), on every shard. Exported so a test can read its plan.
 */
export const dueCandidatesStatement = (sql: SqlClient.SqlClient, now: number, candidates: number) =>
  sql`SELECT r.organisation_id, r.kind, r.key, r.due_at FROM due_work r
    WHERE r.due_real_at <= ${now} AND (r.lease_until IS NULL OR r.lease_until < ${now})
    ORDER BY r.due_real_at LIMIT ${candidates}`

/**
 * A poll's claim on Citus: the candidates (the single-node claim's, read on every shard in
 * parallel, `due_work_due_real` on each) without a lock, then each in due order taken by an update
 * of its one row (a router statement, on its organisation's worker) that holds only while its lease
 * is free, until `limit` are taken. Claimers racing for one row: one update finds the lease free,
 * the others find it taken and go on to the next candidate. A worker that is down leaves its
 * shards out (`readingReachableShards`): the other organisations' rows are still claimed.
 */
export const claimDueDistributed = (sql: SqlClient.SqlClient, lease: DueLease, limit: number) =>
  Effect.gen(function*() {
    const candidates = limit + CLAIM_CANDIDATES_BEYOND_LIMIT
    const now = lease.realNow
    const rows = yield* decodeCandidates(yield* readingReachableShards(
      sql,
      "due_work",
      dueCandidatesStatement(sql, now, candidates),
      `SELECT r.organisation_id, r.kind, r.key, r.due_at FROM %s r
        WHERE r.due_real_at <= ${Math.trunc(now)} AND (r.lease_until IS NULL OR r.lease_until < ${Math.trunc(now)})
        ORDER BY r.due_real_at LIMIT ${Math.trunc(candidates)}`
    ))
    const ordered = rows.map((row) => ({ ...row, organisation: row.organisation_id, dueAt: row.due_at })).sort(compareDueOrder)
    const claimed: Array<typeof ItemRow.Type> = []
    for (const row of ordered) {
      if (claimed.length >= limit) break
      // The row's update is its organisation's statement: on its node when the client routes.
      claimed.push(...(yield* forOrganisation(row.organisation_id)(claimRow(sql, row, lease))))
    }
    return claimed
  })

const named = namedStatements("due_work")

export const makeSqlDueWorkStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const topology = yield* topologyOf
  const offsetOf = (organisation: string) =>
    sql`SELECT offset_ms FROM organisation_clocks WHERE organisation_id = ${organisation}`.pipe(
      Effect.flatMap(decodeOffset),
      Effect.map((rows) => rows[0]?.offset_ms ?? 0),
      orStorageError("due work")
    )
  const keepStatistics = yield* makeStatisticsKeeper
  return DueWorkStore.of({
    // A row scheduled again keeps the span that scheduled it first (`trace_parent`, migration 0069).
    schedule: (request) =>
      Effect.flatMap(request.traceparent === undefined ? callerTraceparent : Effect.succeed(request.traceparent), (traceparent) =>
        orStorageError("due work")(named("schedule", sql`INSERT INTO due_work (organisation_id, kind, key, due_at, trace_parent)
          VALUES (${request.organisation}, ${request.kind}, ${request.key}, ${request.dueAt}, ${traceparent})
          ON CONFLICT (organisation_id, kind, key) DO UPDATE SET due_at = LEAST(due_work.due_at, EXCLUDED.due_at),
            trace_parent = COALESCE(due_work.trace_parent, EXCLUDED.trace_parent)`))),
    claimDue: (lease, limit) =>
      keepStatistics(lease.realNow).pipe(
        Effect.andThen(topology._tag === "Distributed"
          ? claimDueDistributed(sql, lease, limit)
          : Effect.flatMap(named("claim", claimDueStatement(sql, lease, limit)), decodeItems)),
        Effect.map((rows) => rows.map(toItem).sort(compareDueOrder)),
        orStorageError("due work")
      ),
    claimNextOf: (organisation, upTo, lease, passOver = []) =>
      orStorageError("due work")(Effect.gen(function*() {
        yield* keepStatistics(lease.realNow)
        const [next] = yield* decodePeek(yield* (organisation === undefined
          ? sql`SELECT organisation_id, kind, key, lease_until FROM due_work d WHERE due_at <= ${upTo} ${passingOver(sql, passOver)}
              ORDER BY ${dueOrder(sql, "d")} LIMIT 1`
          : sql`SELECT organisation_id, kind, key, lease_until FROM due_work d
              WHERE organisation_id = ${organisation} AND due_at <= ${upTo} ${passingOver(sql, passOver)}
              ORDER BY ${dueOrder(sql, "d")} LIMIT 1`))
        if (next === undefined) return { _tag: "None" } satisfies NextDue
        if (!leaseFree(next, lease)) return { _tag: "Leased" } satisfies NextDue
        const row = (yield* claimRow(sql, next, lease))[0]
        // Another worker claimed it between the two statements: wait for it like any leased row.
        return row === undefined ? { _tag: "Leased" } satisfies NextDue : { _tag: "Claimed", item: toItem(row) } satisfies NextDue
      })),
    complete: (item, owner, outcome) =>
      orStorageError("due work")(named(
        "complete",
        outcome._tag === "Done"
          ? sql`DELETE FROM due_work WHERE organisation_id = ${item.organisation} AND kind = ${item.kind} AND key = ${item.key}
              AND lease_owner = ${owner}`
          : sql`UPDATE due_work SET due_at = ${outcome.at}, attempt = attempt + 1, lease_owner = NULL, lease_until = NULL
              WHERE organisation_id = ${item.organisation} AND kind = ${item.kind} AND key = ${item.key} AND lease_owner = ${owner}`
      )),
    renew: (item: DueItem, owner: string, until: number) =>
      named("renew", sql`UPDATE due_work SET lease_until = ${until}
        WHERE organisation_id = ${item.organisation} AND kind = ${item.kind} AND key = ${item.key} AND lease_owner = ${owner}
        RETURNING key`).pipe(Effect.map((rows) => rows.length > 0), orStorageError("due work")),
    release: (item: DueItem, owner: string) =>
      orStorageError("due work")(named("release", sql`UPDATE due_work SET lease_owner = NULL, lease_until = NULL
        WHERE organisation_id = ${item.organisation} AND kind = ${item.kind} AND key = ${item.key} AND lease_owner = ${owner}`)),
    offsetOf,
    // A move that does not move the clock writes nothing: the server's trigger copies each write
    // of the row to the organisation's access tokens (server migration 0008). The new row's
    // `updated_at` (its default, now()) is taken from the row proposed: Citus allows no function
    // that is not immutable in `DO UPDATE SET`.
    raiseOffset: (organisation, offsetMillis) =>
      orStorageError("due work")(sql`INSERT INTO organisation_clocks (organisation_id, offset_ms) VALUES (${organisation}, ${offsetMillis})
        ON CONFLICT (organisation_id) DO UPDATE SET offset_ms = EXCLUDED.offset_ms, updated_at = EXCLUDED.updated_at
        WHERE organisation_clocks.offset_ms < EXCLUDED.offset_ms`),
    pendingOf: (organisation, kind) =>
      sql`SELECT key, due_at, attempt FROM due_work WHERE organisation_id = ${organisation} AND kind = ${kind} ORDER BY due_at, key COLLATE "C"`.pipe(
        Effect.flatMap(decodePending),
        Effect.map((rows) => rows.map((row) => ({ organisation, kind, key: row.key, dueAt: row.due_at, attempt: row.attempt }))),
        orStorageError("due work")
      )
  })
})
