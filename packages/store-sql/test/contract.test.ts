import { Layer } from "effect"
import { RepositoryContract, StorageContract } from "@paykit/engine/testing"
import { describe, it } from "vitest"
import { ProductionSqlStorage } from "../src/production-storage.ts"
import { CITUS_ROUTER_ONLY, DATABASES } from "./support/databases.ts"

// Each case gets a fresh, empty, migrated schema of its own.
const storageOn = (database: (typeof DATABASES)[number]) => () => ProductionSqlStorage.pipe(Layer.provide(database.isolated()))

describe.each(DATABASES)("the engine's storage contract on $name", (database) => {
  const storage = storageOn(database)
  for (const contractCase of [...StorageContract.cases, ...StorageContract.productionCases]) {
    it(contractCase.name, { timeout: 60_000 }, () => StorageContract.run(contractCase, storage()))
  }
})

/**
 * On Citus with every statement refused that would run on more than one shard (`CITUS_ROUTER_ONLY`):
 * each of the repository's statements is one organisation's. The list of every organisation holding
 * data reads every shard by design (docs/storage.md, "Which statements run where"), so that case is
 * left to `citus.test.ts`'s plans there, as are due work's claims and the outbox's, which read every
 * organisation's rows.
 */
const ACROSS_ORGANISATIONS = "organisations lists every organisation holding data"

describe.each(CITUS_ROUTER_ONLY)("the engine's repository contract on $name", (database) => {
  const storage = storageOn(database)
  for (const contractCase of RepositoryContract.cases) {
    it.skipIf(contractCase.name === ACROSS_ORGANISATIONS)(contractCase.name, { timeout: 60_000 }, () => RepositoryContract.run(contractCase, storage()))
  }
})
