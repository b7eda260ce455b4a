/**
 * Engine (in-memory): creations per second through the engine's services, no HTTP, as the store
 * grows.
 *
 *   npx tsx bench/engine.bench.ts          (or `npm run bench engine`; BENCH_TOTAL=50000 by default)
 *
 * One organisation with one creditor, one customer bank account and one mandate; then
 * `OutboundPayments.create` is called BENCH_TOTAL times in a row (each a unit of work writing the
 * payment, its payment account on the first call, and two events), and after that
 * `Payments.create` BENCH_TOTAL / 5 times on the same store. The rate is printed for every window
 * of WINDOW creations, so a store whose writes cost time in proportion to its size shows falling
 * rates. The clock is the real one and ids are the real generator's (time-ordered, as in
 * production).
 */
import { performance } from "node:perf_hooks"
import type { Effect as EffectType } from "effect"
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

const { Effect, Layer } = await import("effect")
const { IdGenerator } = await import("@paykit/core")
const engine = await import("@paykit/engine")

const TOTAL = Number(process.env["BENCH_TOTAL"] ?? 50_000)
const WINDOW = Number(process.env["BENCH_WINDOW"] ?? 10_000)
const ORG = "OR000000000001"

const layer = engine.engineOn(engine.InMemoryStorage).pipe(
  Layer.provideMerge(Layer.mergeAll(engine.SandboxBank, IdGenerator.layer, engine.ClockControl.testClock))
)

const program = Effect.gen(function*() {
  const creditors = yield* engine.Creditors
  const customers = yield* engine.Customers
  const creditor = yield* creditors.create(ORG, { name: "Acme Payroll", country_code: "GB", creditor_type: "company" })
  yield* creditors.createBankAccount(ORG, {
    account_holder_name: "Acme Payroll Ltd", account_number: "55779911", branch_code: "200000",
    country_code: "GB", currency: "GBP", links: { creditor: creditor.id }
  })
  const customer = yield* customers.create(ORG, { given_name: "Ada", family_name: "Lovelace", country_code: "GB" })
  const account = yield* customers.createBankAccount(ORG, {
    account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000",
    country_code: "GB", links: { customer: customer.id }
  })
  const mandate = yield* (yield* engine.Mandates).create(ORG, { links: { customer_bank_account: account.id } })

  const timed = <A, E, R>(label: string, total: number, window: number, create: (i: number) => EffectType.Effect<A, E, R>) =>
    Effect.gen(function*() {
      let start = performance.now()
      const overall = start
      for (let i = 1; i <= total; i++) {
        yield* create(i)
        if (i % window === 0) {
          const end = performance.now()
          console.log(`${label} ${i - window + 1}-${i}: ${Math.round(window / ((end - start) / 1000))} creates/s`)
          start = end
        }
      }
      console.log(`${label} all ${total}: ${Math.round(total / ((performance.now() - overall) / 1000))} creates/s`)
    })

  const outbound = yield* engine.OutboundPayments
  yield* timed("outbound payments", TOTAL, WINDOW, (i) =>
    outbound.create(ORG, { amount: 100 + (i % 50), scheme: "faster_payments", reference: "BENCH", links: { recipient_bank_account: account.id } }))
  const payments = yield* engine.Payments
  yield* timed("payments", TOTAL / 5, WINDOW / 5, (i) =>
    payments.create(ORG, { amount: 1000 + (i % 50), currency: "GBP", links: { mandate: mandate.id } }))
})

await Effect.runPromise(Effect.provide(program, layer))
