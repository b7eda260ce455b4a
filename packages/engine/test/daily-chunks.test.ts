import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { customers, DAILY_CHUNK, eachInChunks, InMemoryStorage, RepositoryBackend } from "@paykit/engine"
import { sampleCustomer } from "@paykit/engine/testing"

/**
 * A daily job reads what is due a chunk at a time: every match once, in chunks of at most
 * `DAILY_CHUNK`, even when the work leaves items in the filter (a failed item stays due).
 */
describe("eachInChunks", () => {
  it("hands every match once, oldest first, in chunks of at most DAILY_CHUNK", async () => {
    const count = 2 * DAILY_CHUNK + 17
    const chunks = await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      const repo = (yield* RepositoryBackend).repository(customers)
      yield* repo.insertAll("OR0000000000AA", Array.from({ length: count }, (_, i) => sampleCustomer(i + 1)))
      const seen: Array<ReadonlyArray<string>> = []
      // The work changes nothing: every item is still a match when the next chunk is read.
      yield* eachInChunks(repo, "OR0000000000AA", { created_at: { op: "range" } }, (chunk) =>
        Effect.sync(() => void seen.push(chunk.map((v) => v.resource.id))))
      return seen
    }), InMemoryStorage))
    expect(chunks.map((chunk) => chunk.length)).toEqual([DAILY_CHUNK, DAILY_CHUNK, 17])
    expect(chunks.flat()).toEqual(Array.from({ length: count }, (_, i) => sampleCustomer(i + 1).id))
  })
})
