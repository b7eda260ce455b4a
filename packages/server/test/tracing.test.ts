import { Effect, Layer, ManagedRuntime, Tracer } from "effect"
import { serverUrl } from "@paykit/http"
import { describe, expect, it } from "vitest"
import { Bootstrap, makeServer } from "../src/index.ts"
import { api, testConfig, testLogs } from "./harness.ts"

/**
 * The server registers no spans unless asked (`effect/sql` opens one per statement, and nothing
 * exports them); `tracing: true` hands every span to the tracer the embedder provides.
 */
const spansOfOneRead = async (tracing: boolean | "tracer option"): Promise<ReadonlyArray<string>> => {
  const names: Array<string> = []
  const counting = Tracer.make({
    span: (options) => {
      names.push(options.name)
      return new Tracer.NativeSpan(options)
    }
  })
  const given = Layer.succeed(Tracer.Tracer, counting)
  const options = tracing === "tracer option" ? { tracer: given } : { tracing }
  const layer = makeServer(testConfig({ sandboxToken: "paykit_tracing_test_token_0001" }), options).pipe(
    Layer.provide(testLogs([])),
    Layer.provide(tracing === "tracer option" ? Layer.empty : given)
  )
  const runtime = ManagedRuntime.make(layer)
  const url = await runtime.runPromise(serverUrl)
  const boot = await runtime.runPromise(Effect.gen(function*() { return yield* Bootstrap }))
  const before = names.length
  const response = await api(url, "paykit_tracing_test_token_0001", `/creditors/${boot.creditor}`)
  expect(response.status).toBe(200)
  const during = names.slice(before)
  await runtime.dispose()
  return during
}

describe("tracing", () => {
  it("is off by default: a read registers no span", async () => {
    expect(await spansOfOneRead(false)).toEqual([])
  })

  it("tracing: true registers the read's spans (its SQL statements among them)", async () => {
    const names = await spansOfOneRead(true)
    expect(names.length).toBeGreaterThanOrEqual(2)
    expect(names).toContain("GET /creditors/:id")
  })

  it("a tracer given as an option gets the same spans: the request's, the engine operation's and the statements'", async () => {
    const names = await spansOfOneRead("tracer option")
    expect(names).toContain("GET /creditors/:id")
    expect(names).toContain("Creditors.get")
    expect(names.filter((name) => name !== "GET /creditors/:id" && name !== "Creditors.get").length).toBeGreaterThan(0)
  })
})
