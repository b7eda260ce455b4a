import { Layer } from "effect"
import { RepositoryContract } from "@paykit/engine/testing"
import { describe, it } from "vitest"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"

describe.each(DATABASES)("the engine's repository contract on $name", (database) => {
  // Each case gets a fresh, empty, migrated schema of its own.
  const storage = () => Layer.orDie(SqlStorage.pipe(Layer.provide(database.isolated())))
  for (const contractCase of RepositoryContract.cases) {
    it(contractCase.name, { timeout: 60_000 }, () => RepositoryContract.run(contractCase, storage()))
  }
})
