import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decisionOf, RATE_LIMIT_WINDOW_MS, type RateLimitGroup, RateLimiter, windowStartOf } from "@paykit/http"
import { DbInteger } from "@paykit/store-sql"

/**
 * The http package's `RateLimiter` on the `rate_limit_windows` table (server migration 0007): one
 * upsert per request counts it in its window unless the window is at the limit, atomically, so
 * every process on one database shares the windows (two processes accept 300 outbound POSTs a
 * minute together, not 300 each). Windows run on real time. A request that opens a new window also
 * deletes the organisation's windows that ended before the previous one.
 */

const decodeCounts = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ count: DbInteger })))

/** A group's limit a minute: the spec's, unless a composition raises it (`ServerOptions.rateLimits`). */
export type RateLimitsOf = (group: RateLimitGroup) => number

export const specRateLimits: RateLimitsOf = (group) => group.limitPerMinute

/** One request counted in its window unless the window is at `limit`: one row's upsert (on Citus, a router statement). Exported so a test can read its plan. */
export const hitStatement = (sql: SqlClient.SqlClient, organisation: string, group: string, start: number, limit: number) =>
  sql`INSERT INTO rate_limit_windows (organisation_id, group_name, window_start, count)
    VALUES (${organisation}, ${group}, ${start}, 1)
    ON CONFLICT (organisation_id, group_name, window_start)
    DO UPDATE SET count = rate_limit_windows.count + 1 WHERE rate_limit_windows.count < ${limit}
    RETURNING count`

/** The limiter on the windows table, each group limited to `limitsOf(group)` a minute. */
export const sqlRateLimiter = (limitsOf: RateLimitsOf): Layer.Layer<RateLimiter, never, SqlClient.SqlClient> => Layer.effect(
  RateLimiter,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return RateLimiter.of({
      hit: (organisation, group, nowMillis) =>
        Effect.orDie(Effect.gen(function*() {
          const start = windowStartOf(nowMillis)
          const limit = limitsOf(group)
          const counted = yield* decodeCounts(yield* hitStatement(sql, organisation, group.name, start, limit))
          const count = counted[0]?.count
          if (count === undefined) return decisionOf(start, limit, false, limit)
          if (count === 1) {
            yield* sql`DELETE FROM rate_limit_windows WHERE organisation_id = ${organisation} AND group_name = ${group.name}
              AND window_start < ${start - RATE_LIMIT_WINDOW_MS}`
          }
          return decisionOf(start, count, true, limit)
        }))
    })
  })
)

export const SqlRateLimiter: Layer.Layer<RateLimiter, never, SqlClient.SqlClient> = sqlRateLimiter(specRateLimits)
