import { Layer } from "effect"
import { IdGenerator } from "@paykit/core"
import { type EngineStorage, engineServicesOn, InMemoryStorage, SandboxBank, sandboxWebhooks } from "@paykit/engine"

/**
 * Every service the API needs, on the storage given (in memory, or SQL from @paykit/store-sql):
 * the engine's `ApiServices` with their repositories (`engineServicesOn`).
 * The engine's simulator is not part of it: the API never moves time.
 */
export const apiEngineOn = <E, R>(storage: Layer.Layer<EngineStorage, E, R>) =>
  engineServicesOn(storage)

/** The API's engine in memory with the sandbox bank, the sandbox's webhooks and the real clock: the embedded server, tests and benchmarks. */
export const inMemoryApiEngine = () =>
  apiEngineOn(InMemoryStorage).pipe(Layer.provideMerge(Layer.mergeAll(SandboxBank, IdGenerator.layer, sandboxWebhooks)))
