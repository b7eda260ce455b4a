import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { serverConfig } from "./config.ts"
import { makeServer } from "./server.ts"

/**
 * `npm start`: the server configured by the environment (PORT, HOST, PAYKIT_MODE, PAYKIT_DATA_DIR,
 * DATABASE_URL, PAYKIT_SANDBOX_TOKEN), up until SIGINT or SIGTERM, on which `runMain` interrupts
 * it: the listener closes, requests in flight finish, then the database closes.
 */
NodeRuntime.runMain(Effect.flatMap(serverConfig, (config) => Layer.launch(makeServer(config))))
