import { OrganisationId } from "@paykit/core"
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
 * production). Last, a child process measures the bytes one outbound payment creation allocates
 * (`allocationPerCreation`): unlike the rates, a figure that repeats from run to run.
 */
import { spawnSync } from "node:child_process"
import { performance, PerformanceObserver } from "node:perf_hooks"
import type { Effect as EffectType } from "effect"
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

const { Effect, Layer } = await import("effect")
const { IdGenerator, unsafeAmount } = await import("@paykit/core")
const engine = await import("@paykit/engine")

/** This process only measures allocation (started by the main run with a large young generation). */
const ALLOCATION_RUN = process.argv.includes("--allocation")
const ALLOCATION_WARMUP = 2_000
const ALLOCATION_WINDOW = 400
const TOTAL = Number(process.env["BENCH_TOTAL"] ?? 50_000)
const WINDOW = Number(process.env["BENCH_WINDOW"] ?? 10_000)
const ORG = OrganisationId("OR000000000001")

const layer = engine.engineOn(engine.InMemoryStorage).pipe(
  Layer.provideMerge(Layer.mergeAll(engine.SandboxBank, IdGenerator.layer, engine.ClockControl.testClock, engine.sandboxWebhooks))
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
  const createOutbound = (i: number) =>
    outbound.create(ORG, { amount: 100 + (i % 50), scheme: "faster_payments", reference: "BENCH", links: { recipient_bank_account: account.id } })
  if (ALLOCATION_RUN) return yield* allocationPerCreation(createOutbound)
  yield* timed("outbound payments", TOTAL, WINDOW, createOutbound)
  const payments = yield* engine.Payments
  yield* timed("payments", TOTAL / 5, WINDOW / 5, (i) =>
    payments.create(ORG, { amount: unsafeAmount(1000 + (i % 50)), currency: "GBP", links: { mandate: mandate.id } }))
})

/**
 * Bytes allocated per outbound payment creation, the stored rows included: the heap's growth over
 * ALLOCATION_WINDOW creations after a warm-up, in a process whose young generation (256 MB) holds
 * them all, so no collection falls inside the window (one that does is reported, not counted).
 * Unlike the rates above, this figure repeats from run to run.
 */
const allocationPerCreation = <A, E, R>(create: (i: number) => EffectType.Effect<A, E, R>) =>
  Effect.gen(function*() {
    for (let i = 1; i <= ALLOCATION_WARMUP; i++) yield* create(i)
    let collections = 0
    const observer = new PerformanceObserver((list) => void (collections += list.getEntries().length))
    observer.observe({ entryTypes: ["gc"] })
    const before = process.memoryUsage().heapUsed
    for (let i = 1; i <= ALLOCATION_WINDOW; i++) yield* create(i)
    const after = process.memoryUsage().heapUsed
    // Observers are told of collections asynchronously: let those of the window arrive.
    yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
    observer.disconnect()
    console.log(collections === 0
      ? `outbound payments allocated: ${((after - before) / ALLOCATION_WINDOW / 1024).toFixed(1)} KB per creation (${ALLOCATION_WINDOW} creations, stored rows included)`
      : `outbound payments allocated: not measured, ${collections} collection(s) fell in the window`)
  })

await Effect.runPromise(Effect.provide(program, layer))
if (!ALLOCATION_RUN) {
  const child = spawnSync(process.execPath, [...process.execArgv, "--min-semi-space-size=256", "--max-semi-space-size=256", process.argv[1] ?? "", "--allocation"], {
    stdio: "inherit"
  })
  if (child.status !== 0) process.exit(child.status ?? 1)
}
