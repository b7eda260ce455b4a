import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { serverConfig } from "./config.ts"
import { makeServer } from "./server.ts"
import { JsonLogger } from "./server-log.ts"
import { reportFailure } from "./start-failure.ts"

/**
 * `npm start`: the server configured by the environment (PORT, HOST, PAYKIT_MODE, PAYKIT_DATA_DIR,
 * DATABASE_URL, PAYKIT_SANDBOX_TOKEN), up until SIGINT or SIGTERM, on which `runMain` interrupts
 * it: the listener closes, requests in flight finish, then the database closes. Every line it
 * prints is one JSON object (`JsonLogger`); a start that fails prints one line saying what to do
 * and exits with 1 (`runMain`'s own report, Effect's multi-line text, is turned off).
 */
const main = Effect.gen(function*() {
  const config = yield* Effect.tapCause(serverConfig, reportFailure(undefined))
  return yield* Layer.launch(makeServer(config)).pipe(Effect.tapCause(reportFailure(config.database)))
})

NodeRuntime.runMain(main.pipe(Effect.provide(JsonLogger)), { disableErrorReporting: true })
