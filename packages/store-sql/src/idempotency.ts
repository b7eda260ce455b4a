import { Context, Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Idempotency keys (the API's `Idempotency-Key` header): the first request with a key claims it,
 * creates its resource and records its response, all in one unit of work; a later request with the
 * same key and the same request replays that response instead of creating a second resource.
 *
 * Concurrency: the claim is an insert against the (organisation, key) primary key. On PostgreSQL
 * a second claim made while the first request's transaction is open waits on that key until the
 * first commits (then replays it) or rolls back (then claims it): two concurrent requests with one
 * key create one resource. On PGlite transactions run one at a time, to the same effect.
 */

/** The outcome of a claim: go ahead (and `complete` in the same transaction), or replay. */
export type Claim =
  | { readonly _tag: "Claimed" }
  | { readonly _tag: "Replay"; readonly response: unknown }

/** The key was used before for a different request (another fingerprint). */
export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()("IdempotencyKeyReused", {
  key: Schema.String
}) {}

/**
 * The key was claimed by a request whose unit of work committed without recording a response: a
 * claim made outside the unit of work that does the work. Never seen when used as documented.
 */
export class IdempotencyKeyInProgress extends Schema.TaggedError<IdempotencyKeyInProgress>()("IdempotencyKeyInProgress", {
  key: Schema.String
}) {}

export class IdempotencyKeys extends Context.Service<IdempotencyKeys, {
  /** Claims `key` for a request identified by `fingerprint` (e.g. a hash of method, path and body). */
  readonly claim: (
    organisation: string,
    key: string,
    fingerprint: string
  ) => Effect.Effect<Claim, IdempotencyKeyReused | IdempotencyKeyInProgress>
  /** Records the response of a claimed key; call it in the transaction that claimed the key. */
  readonly complete: (organisation: string, key: string, response: unknown) => Effect.Effect<void>
}>()("@paykit/store-sql/IdempotencyKeys") {}

const KeyRow = Schema.Struct({ fingerprint: Schema.String, response: Schema.Unknown })
const decodeKeyRow = Schema.decodeUnknownEffect(KeyRow)

export const makeIdempotencyKeys = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return IdempotencyKeys.of({
    claim: (organisation, key, fingerprint) =>
      Effect.gen(function*() {
        const inserted = yield* Effect.orDie(sql`INSERT INTO idempotency_keys (organisation_id, key, fingerprint)
          VALUES (${organisation}, ${key}, ${fingerprint})
          ON CONFLICT (organisation_id, key) DO NOTHING RETURNING key`)
        if (inserted.length > 0) return { _tag: "Claimed" } as const
        const rows = yield* Effect.orDie(sql`SELECT fingerprint, response FROM idempotency_keys
          WHERE organisation_id = ${organisation} AND key = ${key}`)
        const row = yield* Effect.orDie(decodeKeyRow(rows[0]))
        if (row.fingerprint !== fingerprint) return yield* new IdempotencyKeyReused({ key })
        if (row.response === null) return yield* new IdempotencyKeyInProgress({ key })
        return { _tag: "Replay", response: row.response } as const
      }),
    complete: (organisation, key, response) =>
      Effect.gen(function*() {
        const rows = yield* Effect.orDie(sql`UPDATE idempotency_keys
          SET response = ${JSON.stringify(response)}::jsonb, completed_at = now()
          WHERE organisation_id = ${organisation} AND key = ${key} AND response IS NULL RETURNING key`)
        // Completing a key nobody claimed (or twice) is a bug in the caller, not a request error.
        if (rows.length === 0) return yield* Effect.die(new Error(`idempotency key ${key} was not claimed or is already complete`))
      })
  })
})
