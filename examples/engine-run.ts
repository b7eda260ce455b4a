import { Effect } from "effect"
import { testEngine } from "@paykit/engine"
import { PgliteStorage, PostgresStorage } from "@paykit/store-sql"
import { program } from "./engine-program.ts"
import { subscriptionProgram } from "./engine-subscription.ts"

const start = Date.UTC(2026, 10, 23, 9)
await Effect.runPromise(Effect.scoped(Effect.provide(program, testEngine({ seed: 1, start }))))
await Effect.runPromise(Effect.scoped(Effect.provide(program, testEngine({ seed: 1, start, storage: PgliteStorage() }))))
await Effect.runPromise(Effect.scoped(Effect.provide(subscriptionProgram, testEngine({ seed: 1, start }))))

// PostgreSQL when DATABASE_URL names one. Ids come from the seed, so a second run into the same
// tables would make the same ids again: each run takes a schema of its own.
const url = process.env["DATABASE_URL"]
if (url !== undefined) {
  const storage = PostgresStorage(url, { schema: `paykit_example_${Date.now()}` })
  await Effect.runPromise(Effect.scoped(Effect.provide(program, testEngine({ seed: 1, start, storage }))))
}
