import { Effect, type Layer } from "effect"
import type { EngineStorage, ProductionStorage } from "../engine.ts"
import type { ContractCase } from "./contract-support.ts"
import { DueWorkContract } from "./due-work-contract.ts"
import { OutboxContract, RetentionContract } from "./production-contract.ts"
import { RepositoryContract } from "./repository-contract.ts"

/**
 * The whole storage contract: what an adapter must do for the engine to run on it. `cases` are
 * the engine's storage (`EngineStorage`: repositories, units of work, the event log and its
 * history, due work); `productionCases` what `productionEngine` needs besides (`ProductionStorage`:
 * the webhook outbox and retention). An adapter that passes `cases` runs `testEngine` and
 * `sandboxEngineOn`; one that passes both runs `productionEngine`. Each case needs a fresh, empty
 * store: `run` builds one from the layer for each.
 */
export const StorageContract = {
  cases: [...RepositoryContract.cases, ...DueWorkContract.cases] as ReadonlyArray<ContractCase<EngineStorage>>,
  productionCases: [...OutboxContract.cases, ...RetentionContract.cases] as ReadonlyArray<ContractCase<ProductionStorage>>,
  /** Runs one case on a fresh store built from `layer` (the layer is built for the case and released after it). */
  run: <R>(contractCase: ContractCase<R>, layer: Layer.Layer<R, unknown>): Promise<void> =>
    Effect.runPromise(Effect.scoped(Effect.provide(contractCase.run, layer)))
}
