import { describe, it } from "vitest"
import { InMemoryStorage } from "@paykit/engine"
import { RepositoryContract } from "@paykit/engine/testing"

describe("in-memory storage honours the repository contract", () => {
  for (const contractCase of RepositoryContract.cases) {
    it(contractCase.name, () => RepositoryContract.run(contractCase, InMemoryStorage))
  }
})
