import { Effect, Layer, ManagedRuntime } from "effect"
import * as http from "@paykit/http"
import * as engine from "@paykit/engine"
import { seedCreditors } from "../test/fixtures.ts"
const unlimited = Layer.succeed(http.RateLimiter, http.RateLimiter.of({ hit: (_o, _g, now) => Effect.succeed(http.consume(undefined, now, 1e15)) }))
const layer = http.serveHttpApp(http.makeHttpApp(), { port: 8124, host: "127.0.0.1" }).pipe(
  Layer.provideMerge(Layer.mergeAll(http.AccessTokens.layerMemory, http.IdempotencyStore.layerMemory, unlimited)),
  Layer.provideMerge(http.inMemoryApiEngine()),
  Layer.provide(Layer.succeed(http.RequestLog, http.silentRequestLog))
)
const runtime = ManagedRuntime.make(layer)
await runtime.runPromise(http.serverUrl)
const token = await runtime.runPromise(http.issueAccessToken({ id: "AT_bench", organisation: "OR_bench", scope: "read_write" }))
await runtime.runPromise(seedCreditors("OR_bench", 5))
const rid = await runtime.runPromise(Effect.gen(function*() {
  const customers = yield* engine.Customers
  const customer = yield* customers.create("OR_bench", { given_name: "Ada", family_name: "Lovelace", country_code: "GB" })
  const account = yield* customers.createBankAccount("OR_bench", { account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id } })
  return account.id
}).pipe(Effect.orDie))
console.log(token); console.log(rid)
setTimeout(() => { void runtime.dispose().then(() => process.exit(0)) }, Number(process.env["PROF_SECONDS"] ?? 20) * 1000)
