import { Deferred, Effect, Exit, Fiber, Layer } from "effect"
import { request } from "node:http"
import { describe, expect, it } from "vitest"
import { RequestLog, silentRequestLog } from "@paykit/http"
import { makeServer, ServerLog, type ServerLogLine } from "../src/index.ts"
import { testConfig } from "./harness.ts"

/**
 * What `npm start` does on SIGTERM or SIGINT: `NodeRuntime.runMain` interrupts the fiber running
 * `Layer.launch(makeServer(config))`. The test runs the same launch and interrupts it itself.
 */
describe("graceful shutdown", () => {
  it("stops taking connections, lets the request in flight finish, then stops", async () => {
    const lines: Array<ServerLogLine> = []
    const listening = Effect.runSync(Deferred.make<string>())
    // The log tapped to learn the address and the token, as an operator reads them.
    const logs = Layer.mergeAll(
      Layer.succeed(RequestLog, silentRequestLog),
      Layer.succeed(ServerLog, (line: ServerLogLine) => {
        lines.push(line)
        if (line.msg === "listening") Effect.runSync(Deferred.succeed(listening, String(line["url"])))
      })
    )
    const fiber = Effect.runFork(Layer.launch(makeServer(testConfig({})).pipe(Layer.provide(logs))))
    const url = await Effect.runPromise(Deferred.await(listening))
    const token = String(lines.find((l) => "access_token" in l)?.["access_token"])

    // A request whose body is still arriving when the shutdown starts.
    const body = JSON.stringify({ by: "P2D" })
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${url}/sandbox/simulator/advance`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }
      }, (res) => {
        let text = ""
        res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }))
      })
      req.on("error", reject)
      req.write(body.slice(0, 5))
      setTimeout(() => req.end(body.slice(5)), 600)
    })
    await new Promise((resolve) => setTimeout(resolve, 200))
    const stopped = Effect.runPromise(Fiber.interrupt(fiber))
    await new Promise((resolve) => setTimeout(resolve, 150))

    // New connections are refused while the request in flight is still being served.
    await expect(fetch(`${url}/`)).rejects.toThrow()
    const response = await answered
    expect(response.status).toBe(200)
    expect(JSON.parse(response.text)).toHaveProperty("simulator_clock.offset_ms")
    await stopped
    expect(Exit.hasInterrupts(await Effect.runPromise(Fiber.await(fiber)))).toBe(true)
    expect(lines.map((l) => l.msg)).toContain("shutting down; finishing requests in flight")
  })
})
