import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { expect, it } from "vitest"
import { RequestLog, serverUrl, silentRequestLog } from "@paykit/http"
import { Bootstrap, makeServer, ServerLog } from "../src/index.ts"

// The README's example, with the log lines silenced.
it("the README example advances the sandbox clock by a day", async () => {
  const runtime = ManagedRuntime.make(makeServer({
    port: 0,
    host: "127.0.0.1",
    mode: "sandbox",
    database: { _tag: "Pglite", dataDir: undefined },
    sandboxToken: Option.none()
  }).pipe(Layer.provide(Layer.mergeAll(Layer.succeed(RequestLog, silentRequestLog), Layer.succeed(ServerLog, () => {})))))
  try {
    const url = await runtime.runPromise(serverUrl)
    const { accessToken } = await runtime.runPromise(Effect.gen(function*() { return yield* Bootstrap }))
    const clock = await fetch(`${url}/sandbox/simulator/advance`, {
      method: "POST",
      headers: { authorization: `Bearer ${accessToken ?? ""}`, "content-type": "application/json" },
      body: JSON.stringify({ by: "P1D" })
    })
    expect(clock.status).toBe(200)
    expect(await clock.json()).toMatchObject({ simulator_clock: { offset: "P1D" } })
  } finally {
    await runtime.dispose()
  }
})
