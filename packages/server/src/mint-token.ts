import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { IdGenerator } from "@paykit/core"
import { serverConfig } from "./config.ts"
import { sqlClientLayer } from "./server.ts"
import { JsonLogger, ServerLog } from "./server-log.ts"
import { SqlAccessTokens } from "./sql-access-tokens.ts"
import { reportFailure } from "./start-failure.ts"
import { createToken, organisationOf } from "./tokens.ts"

/**
 * `npm run token`: a new read-write access token for the organisation the configured store holds
 * (`DATABASE_URL`, else `PAYKIT_DATA_DIR`), printed once as a JSON line, as the first start
 * prints its own; the token that start printed is lost once its output is. On PGlite the
 * server must be stopped first (one process opens a data directory at a time).
 */

export const mintToken = Effect.gen(function*() {
  const log = yield* ServerLog
  const organisation = yield* organisationOf(undefined)
  if (organisation === undefined) {
    log({ level: "error", msg: "this store holds no organisation yet: start the server once (npm start), then run npm run token" })
    return false
  }
  const made = yield* createToken(organisation.id, "read_write")
  log({ level: "info", msg: `a new access token for the ${organisation.environment} organisation; it is shown this once`, organisation: organisation.id, access_token: made.access_token })
  return true
})

const NOT_MADE = "no token was made"

const main = Effect.gen(function*() {
  const config = yield* Effect.tapCause(serverConfig, reportFailure(undefined, NOT_MADE))
  const store = Layer.mergeAll(SqlAccessTokens, IdGenerator.layer).pipe(Layer.provideMerge(sqlClientLayer(config.database)))
  const minted = yield* mintToken.pipe(Effect.provide(store), Effect.tapCause(reportFailure(config.database, NOT_MADE)))
  if (!minted) process.exitCode = 1
})

NodeRuntime.runMain(main.pipe(Effect.provide(JsonLogger)), { disableErrorReporting: true })
