import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { type IdempotencyOutcome, IdempotencyStore, type StoredResponse } from "@paykit/http"

/**
 * The http package's `IdempotencyStore` port on store-sql's `idempotency_keys` table (one row per
 * organisation and key, its fingerprint, and the recorded response once complete), so a replay
 * survives a restart and is shared by every server process on one PostgreSQL database.
 *
 * store-sql's `IdempotencyKeys` service claims a key inside the creating transaction; the gateway
 * instead claims before the handler runs and completes or abandons after it, each step its own
 * statement. The insert against the primary key keeps `begin` atomic: of two concurrent requests
 * with one key exactly one is `Fresh`. A claim whose process died before completing it would block
 * its key forever; a claim left incomplete for `STALE_CLAIM_SECONDS` is taken over instead.
 */

export const STALE_CLAIM_SECONDS = 300

const Stored = Schema.Struct({
  status: Schema.Int,
  body: Schema.String,
  location: Schema.NullOr(Schema.String),
  resourceId: Schema.NullOr(Schema.String)
})
const KeyRow = Schema.Struct({ fingerprint: Schema.String, response: Schema.NullOr(Schema.Unknown) })
const decodeKeyRows = Schema.decodeUnknownEffect(Schema.Array(KeyRow))
const decodeStored = Schema.decodeUnknownEffect(Stored)
// Both drivers parse jsonb into a value; one configured otherwise would hand back the text.
const parseStored = (response: unknown) =>
  typeof response === "string"
    ? Effect.flatMap(Effect.try({ try: (): unknown => JSON.parse(response), catch: (cause) => cause }), decodeStored)
    : decodeStored(response)

export const SqlIdempotencyStore: Layer.Layer<IdempotencyStore, never, SqlClient.SqlClient> = Layer.effect(
  IdempotencyStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const begin = (organisation: string, key: string, fingerprint: string): Effect.Effect<IdempotencyOutcome, unknown> =>
      Effect.gen(function*() {
        const claimed = yield* sql`INSERT INTO idempotency_keys (organisation_id, key, fingerprint)
          VALUES (${organisation}, ${key}, ${fingerprint})
          ON CONFLICT (organisation_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, created_at = now()
          WHERE idempotency_keys.response IS NULL
            AND idempotency_keys.created_at < now() - make_interval(secs => ${STALE_CLAIM_SECONDS})
          RETURNING key`
        if (claimed.length > 0) return { _tag: "Fresh" } as const
        const rows = yield* decodeKeyRows(yield* sql`SELECT fingerprint, response FROM idempotency_keys
          WHERE organisation_id = ${organisation} AND key = ${key}`)
        const row = rows[0]
        // Abandoned between the two statements: the key is free again.
        if (row === undefined) return yield* begin(organisation, key, fingerprint)
        if (row.response === null) return { _tag: "InProgress" } as const
        const response = yield* parseStored(row.response)
        return row.fingerprint === fingerprint
          ? { _tag: "Replay", response } as const
          : { _tag: "Conflict", resourceId: response.resourceId } as const
      })
    return IdempotencyStore.of({
      begin: (organisation, key, fingerprint): Effect.Effect<IdempotencyOutcome> => Effect.orDie(begin(organisation, key, fingerprint)),
      complete: (organisation, key, response: StoredResponse) =>
        Effect.orDie(sql`UPDATE idempotency_keys
          SET response = ${JSON.stringify(response)}::jsonb, completed_at = now()
          WHERE organisation_id = ${organisation} AND key = ${key} AND response IS NULL`),
      abandon: (organisation, key) =>
        Effect.orDie(sql`DELETE FROM idempotency_keys
          WHERE organisation_id = ${organisation} AND key = ${key} AND response IS NULL`)
    })
  })
)
