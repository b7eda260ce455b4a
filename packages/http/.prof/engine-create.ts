import { Effect, ManagedRuntime } from "effect"
import * as http from "@paykit/http"
import * as engine from "@paykit/engine"
import { seedCreditors } from "../test/fixtures.ts"
const runtime = ManagedRuntime.make(http.inMemoryApiEngine())
await runtime.runPromise(seedCreditors("OR", 5))
const rid = await runtime.runPromise(Effect.gen(function*() {
  const customers = yield* engine.Customers
  const customer = yield* customers.create("OR", { given_name: "Ada", family_name: "Lovelace", country_code: "GB" })
  return (yield* customers.createBankAccount("OR", { account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id } })).id
}).pipe(Effect.orDie))
const body = { amount: 2500, scheme: "faster_payments", reference: "INV 42", links: { creditor: "CR000000000001", recipient_bank_account: rid } }
for (const batch of [0, 1, 2, 3]) {
  const t = performance.now()
  await runtime.runPromise(Effect.flatMap(engine.OutboundPayments, (s) => Effect.forEach(Array.from({ length: 300 }), () => s.create("OR", body), { discard: true })).pipe(Effect.orDie))
  console.log(`batch ${batch}: ${(300 / ((performance.now() - t) / 1000)).toFixed(0)} creates/s`)
}
const d = performance.now(); for (let i = 0; i < 2000; i++) engine.OUTBOUND_PAYMENT_TIME_ZONE && new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(new Date())
console.log(`Intl.DateTimeFormat per call: ${((performance.now() - d) / 2000 * 1000).toFixed(0)} us`)
await runtime.dispose()
