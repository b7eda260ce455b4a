import { Effect, Layer, Result, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { millisIn } from "@paykit/core"
import { IDEMPOTENCY_KEY_LIFETIME_MS, IdempotencyStore, type KeyedCreate, type KeyedCreation } from "@paykit/http"

/**
 * The http package's `IdempotencyStore` port on the `idempotency_keys` table (one row per
 * organisation and key, with the id of the resource it created), shared by every server process on
 * one database and kept across restarts.
 *
 * Exactly once across crashes: the claim, the creation and the record of its resource run in one
 * transaction, so a crash at any instant leaves the resource and its key, or neither. The engine's
 * units of work inside it are savepoints (store-sql's transactor): a creation that fails after some
 * unit of work committed keeps that unit (as it would outside), and the key is deleted in the same
 * transaction, free for a retry. A defect or an interruption rolls everything back.
 *
 * Concurrency: the claim is an insert against the (organisation, key) primary key. On PostgreSQL a
 * second request with the key waits on the first's uncommitted row, then finds it committed (a
 * conflict) or gone (and claims it); on PGlite transactions run one at a time, to the same effect.
 * A key older than its lifetime is claimed afresh by the same insert.
 */

const KeptRow = Schema.Struct({ resource_id: Schema.String })
const decodeKeptRows = Schema.decodeUnknownEffect(Schema.Array(KeptRow))

/** Takes the key: a new row, or one whose lifetime is over; locks the row either way (on Citus, a router statement). Exported so a test can read its plan. */
export const claimKeyStatement = (sql: SqlClient.SqlClient, organisation: string, key: string, nowMillis: number) =>
  sql`INSERT INTO idempotency_keys (organisation_id, key, created_at)
    VALUES (${organisation}, ${key}, ${new Date(nowMillis).toISOString()}::timestamptz)
    ON CONFLICT (organisation_id, key) DO UPDATE SET created_at = EXCLUDED.created_at, resource_id = NULL
    WHERE idempotency_keys.created_at <= ${new Date(nowMillis - IDEMPOTENCY_KEY_LIFETIME_MS).toISOString()}::timestamptz
    RETURNING key`

export const SqlIdempotencyStore: Layer.Layer<IdempotencyStore, never, SqlClient.SqlClient> = Layer.effect(
  IdempotencyStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const claim = (organisation: string, key: string, nowMillis: number) =>
      Effect.map(claimKeyStatement(sql, organisation, key, nowMillis), (rows) => rows.length > 0)
    /** The resource a kept key created; every committed row names one. */
    const keptResource = (organisation: string, key: string) =>
      Effect.flatMap(
        sql`SELECT resource_id FROM idempotency_keys WHERE organisation_id = ${organisation} AND key = ${key}`,
        (rows) => Effect.flatMap(decodeKeptRows(rows), (kept) => {
          const row = kept[0]
          return row === undefined ? Effect.die(new Error(`idempotency key ${key} was neither claimed nor kept`)) : Effect.succeed(row.resource_id)
        })
      )
    const keep = (organisation: string, key: string, resourceId: string) =>
      sql`UPDATE idempotency_keys SET resource_id = ${resourceId} WHERE organisation_id = ${organisation} AND key = ${key}`
    const free = (organisation: string, key: string) =>
      sql`DELETE FROM idempotency_keys WHERE organisation_id = ${organisation} AND key = ${key}`

    const once: KeyedCreate = (organisation, key, create, createdId) => {
      type Outcome = KeyedCreation<Effect.Success<typeof create>>
      return Effect.withFiber((fiber) =>
        sql.withTransaction(Effect.gen(function*() {
          if (!(yield* Effect.orDie(claim(organisation, key, millisIn(fiber))))) {
            const conflict: Outcome = { _tag: "Conflict", resourceId: yield* Effect.orDie(keptResource(organisation, key)) }
            return Result.succeed(conflict)
          }
          // The creation's own failure commits the transaction (with the key freed): what its
          // completed units of work wrote stays, as it would without a key.
          const outcome = yield* Effect.result(create)
          const resourceId = Result.isSuccess(outcome) ? createdId(outcome.success) : undefined
          yield* Effect.orDie(resourceId === undefined ? free(organisation, key) : keep(organisation, key, resourceId))
          return Result.map(outcome, (value): Outcome => ({ _tag: "Created", value }))
        })).pipe(
          // BEGIN or COMMIT failing is the database's failure: a defect, and nothing was kept.
          Effect.orDie,
          Effect.flatMap(Effect.fromResult)
        )
      )
    }
    return IdempotencyStore.of({ once })
  })
)
