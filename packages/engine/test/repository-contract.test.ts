import { describe, it } from "vitest"
import { InMemoryStorage, RepositoryContract } from "@paykit/engine"

describe("in-memory storage honours the repository contract", () => {
  for (const contractCase of RepositoryContract.cases) {
    it(contractCase.name, () => RepositoryContract.run(contractCase, InMemoryStorage))
  }
})
