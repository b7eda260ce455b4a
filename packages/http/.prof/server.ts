import { Effect, Layer, ManagedRuntime } from "effect"
import * as http from "@paykit/http"
import { seedPayouts } from "../test/fixtures.ts"
const layer = http.serveHttpApp(http.makeHttpApp(), { port: 8123, host: "127.0.0.1" }).pipe(
  Layer.provideMerge(Layer.mergeAll(http.AccessTokens.layerMemory, http.IdempotencyStore.layerMemory, http.RateLimiter.layerMemory)),
  Layer.provideMerge(http.inMemoryApiEngine()),
  Layer.provide(Layer.succeed(http.RequestLog, http.silentRequestLog))
)
const runtime = ManagedRuntime.make(layer)
await runtime.runPromise(http.serverUrl)
const token = await runtime.runPromise(http.issueAccessToken({ id: "AT_bench", organisation: "OR_bench", scope: "read_write" }))
await runtime.runPromise(seedPayouts("OR_bench", 200))
console.log(token)
setTimeout(() => { void runtime.dispose().then(() => process.exit(0)) }, Number(process.env["PROF_SECONDS"] ?? 20) * 1000)
