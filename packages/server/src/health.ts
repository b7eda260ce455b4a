import { Duration, Effect, Exit } from "effect"
import { SqlClient } from "effect/sql"
import { jsonResponse, pageRoute, type PageRoute } from "@paykit/http"
import { migrationsBehind } from "@paykit/store-sql"
import { SERVER_MIGRATION_SET } from "./migrations/index.ts"

/**
 * `GET /health/live` and `GET /health/ready`, on the API's listener, without a token
 * (docs/operations.md, "Health"): for a container's `HEALTHCHECK`, an orchestrator's probes and a
 * load balancer. Live: the process answers. Ready: the database answers and has every migration this
 * code knows (store-sql's and the server's); otherwise 503 saying which, without the database's
 * own error (anyone may ask).
 */

/** How long readiness waits for the database: a probe that hangs is as bad as one that fails. */
export const READY_TIMEOUT = Duration.seconds(2)

const LIVE = jsonResponse(200, { status: "live" })
const READY = jsonResponse(200, { status: "ready", database: "answers", migrations: "current" })
// Shaped as READY, each part saying how it stands: these are probes' answers, not API errors.
const UNREACHABLE = jsonResponse(503, { status: "not_ready", database: "unreachable" })

/** The database answers, and the migrations it lacks (none: current). */
const readiness = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`SELECT 1`
  return yield* migrationsBehind([SERVER_MIGRATION_SET])
})

export const healthRoutes: Effect.Effect<ReadonlyArray<PageRoute>, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const context = yield* Effect.context<SqlClient.SqlClient>()
  const ready = Effect.map(Effect.exit(readiness.pipe(Effect.timeout(READY_TIMEOUT), Effect.provideContext(context))), (exit) =>
    Exit.isFailure(exit)
      ? UNREACHABLE
      : exit.value.length === 0
      ? READY
      : jsonResponse(503, { status: "not_ready", database: "answers", migrations: "behind", behind: exit.value }))
  return [pageRoute("/health/live", () => Effect.succeed(LIVE)), pageRoute("/health/ready", () => ready)]
})
