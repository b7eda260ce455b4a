import { describe, it } from "vitest"
import { InMemoryStorage } from "@paykit/engine"
import { StorageContract } from "@paykit/engine/testing"

// The in-memory storage is `EngineStorage` only: it has no webhook outbox nor retention, so the
// production cases run on store-sql's adapters (test/contract.test.ts there).
describe("in-memory storage honours the storage contract", () => {
  for (const contractCase of StorageContract.cases) {
    it(contractCase.name, () => StorageContract.run(contractCase, InMemoryStorage))
  }
})
