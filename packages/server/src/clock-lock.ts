import { Context, Effect, Layer, Option, Semaphore } from "effect"
import { SqlClient } from "effect/sql"
import { PgliteClient, topologyOf } from "@paykit/store-sql"

/**
 * One advance of an organisation's clock at a time, across every process on the database: two
 * advances that both read the clock before either wrote it would each move it from the same
 * instant, and one of them would vanish. Within a process a semaphore per organisation orders
 * them; across processes on PostgreSQL a session advisory lock on one reserved connection does
 * (a killed process's connection closes and frees it). PGlite is one process's (its data
 * directory's lock), so the semaphore is enough there.
 *
 * On Citus processes reach different nodes, and an advisory lock is one node's: there the lock is
 * the organisation's `organisation_locks` row (server migration 0015), locked by a transaction held
 * open on the reserved connection for the advance. The row lives on the organisation's worker
 * whichever node the process reaches, and a killed process's connection closes, which ends its
 * transaction and frees the row.
 */

/** How often an advance waiting for another process's retries the lock. */
const RETRY_MS = 50

/** The lock's name in `organisation_locks`. */
export const CLOCK_ADVANCE_LOCK = "clock_advance"

export class ClockAdvanceLock extends Context.Service<ClockAdvanceLock, {
  readonly around: (organisation: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("@paykit/server/ClockAdvanceLock") {
  static readonly layer: Layer.Layer<ClockAdvanceLock, never, SqlClient.SqlClient> = Layer.effect(ClockAdvanceLock, Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const embedded = Option.isSome(yield* Effect.serviceOption(PgliteClient.PgliteClient))
    const distributed = (yield* topologyOf)._tag === "Distributed"
    const locks = new Map<string, Semaphore.Semaphore>()
    const inProcess = (organisation: string) => {
      const lock = locks.get(organisation) ?? Semaphore.makeUnsafe(1)
      locks.set(organisation, lock)
      return lock.withPermits(1)
    }
    const acrossProcesses = (organisation: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.scoped(Effect.gen(function*() {
        const connection = yield* Effect.orDie(sql.reserve)
        const key = [`paykit:organisation_clock:${organisation}`]
        const tryLock = Effect.map(
          Effect.orDie(connection.execute("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked", key, undefined)),
          (rows) => rows[0]?.locked === true
        )
        while (!(yield* tryLock)) yield* Effect.sleep(RETRY_MS)
        const unlock = Effect.ignore(connection.execute("SELECT pg_advisory_unlock(hashtextextended($1, 0))", key, undefined))
        return yield* Effect.ensuring(effect, unlock)
      }))
    const acrossNodes = (organisation: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.scoped(Effect.gen(function*() {
        const connection = yield* Effect.orDie(sql.reserve)
        const run = (statement: string, params: ReadonlyArray<string> = []) => Effect.orDie(connection.execute(statement, params, undefined))
        const key = [organisation, CLOCK_ADVANCE_LOCK]
        yield* run("INSERT INTO organisation_locks (organisation_id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING", key)
        yield* run("BEGIN")
        const release = Effect.ignore(connection.execute("ROLLBACK", [], undefined))
        return yield* Effect.gen(function*() {
          const tryLock = Effect.map(
            run("SELECT 1 AS locked FROM organisation_locks WHERE organisation_id = $1 AND name = $2 FOR UPDATE SKIP LOCKED", key),
            (rows) => rows.length > 0
          )
          while (!(yield* tryLock)) yield* Effect.sleep(RETRY_MS)
          return yield* effect
        }).pipe(Effect.ensuring(release))
      }))
    return ClockAdvanceLock.of({
      around: (organisation) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        inProcess(organisation)(embedded ? effect : distributed ? acrossNodes(organisation)(effect) : acrossProcesses(organisation)(effect))
    })
  }))
}
