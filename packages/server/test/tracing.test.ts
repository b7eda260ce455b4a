import { Effect, Layer, ManagedRuntime, Tracer } from "effect"
import { serverUrl } from "@paykit/http"
import { describe, expect, it } from "vitest"
import { Bootstrap, makeServer } from "../src/index.ts"
import { api, testConfig, testLogs } from "./harness.ts"

/**
 * The server registers no spans unless asked (`effect/sql` opens one per statement, and nothing
 * exports them); `tracing: true` hands every span to the tracer the embedder provides.
 */
const spansOfOneRead = async (tracing: boolean): Promise<number> => {
  let spans = 0
  const counting = Tracer.make({
    span: (options) => {
      spans++
      return new Tracer.NativeSpan(options)
    }
  })
  const layer = makeServer(testConfig({ sandboxToken: "paykit_tracing_test_token_0001" }), { tracing }).pipe(
    Layer.provide(testLogs([])),
    Layer.provide(Layer.succeed(Tracer.Tracer, counting))
  )
  const runtime = ManagedRuntime.make(layer)
  const url = await runtime.runPromise(serverUrl)
  const boot = await runtime.runPromise(Effect.gen(function*() { return yield* Bootstrap }))
  const before = spans
  const response = await api(url, "paykit_tracing_test_token_0001", `/creditors/${boot.creditor}`)
  expect(response.status).toBe(200)
  const during = spans - before
  await runtime.dispose()
  return during
}

describe("tracing", () => {
  it("is off by default: a read registers no span", async () => {
    expect(await spansOfOneRead(false)).toBe(0)
  })

  it("tracing: true registers the read's spans (its SQL statements among them)", async () => {
    expect(await spansOfOneRead(true)).toBeGreaterThanOrEqual(2)
  })
})
