import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Layer } from "effect"
import { serverConfig } from "./config.ts"
import { makeServer } from "./server.ts"
import { JsonLogger, ServerLog } from "./server-log.ts"
import { startFailureLine } from "./start-failure.ts"

/**
 * `npm start`: the server configured by the environment (PORT, HOST, PAYKIT_MODE, PAYKIT_DATA_DIR,
 * DATABASE_URL, PAYKIT_SANDBOX_TOKEN), up until SIGINT or SIGTERM, on which `runMain` interrupts
 * it: the listener closes, requests in flight finish, then the database closes. Every line it
 * prints is one JSON object (`JsonLogger`); a start that fails prints one line saying what to do
 * and exits with 1 (`runMain`'s own report, Effect's multi-line text, is turned off).
 */
const reportFailure = (database: Parameters<typeof startFailureLine>[1]) => (cause: Cause.Cause<unknown>) =>
    Cause.hasInterruptsOnly(cause) ? Effect.void : Effect.gen(function*() {
    const log = yield* ServerLog
    log(startFailureLine(cause, database))
  })

const main = Effect.gen(function*() {
  const config = yield* Effect.tapCause(serverConfig, reportFailure(undefined))
  return yield* Layer.launch(makeServer(config)).pipe(Effect.tapCause(reportFailure(config.database)))
})

NodeRuntime.runMain(main.pipe(Effect.provide(JsonLogger)), { disableErrorReporting: true })
