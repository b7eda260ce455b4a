/**
 * Commands decoded at the operation's boundary: what it costs a caller with plain literals, and
 * what the HTTP layer's already-decoded commands save by passing as they are.
 *
 *   npx tsx bench/boundary.bench.ts          (or `npm run bench boundary`; BENCH_CALLS=2000 by default)
 *
 * In one process, five rounds of each, the median per call: `decodeAtBoundary` of a payment's
 * plain command, the same with a command decoded before (a `WeakMap` lookup), and
 * `Payments.create` on the in-memory engine with a plain literal and with a decoded command (its
 * peer: the difference is the boundary's decoding inside a whole creation).
 */
import { performance } from "node:perf_hooks"
import type { Effect as EffectType } from "effect"
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

const { Effect, Layer } = await import("effect")
const { decodeAtBoundary, IdGenerator, OrganisationId } = await import("@paykit/core")
const engine = await import("@paykit/engine")

const CALLS = Number(process.env["BENCH_CALLS"] ?? 2_000)
const DECODES = 50_000
const ROUNDS = 5
const ORG = OrganisationId("OR000000000001")

const median = (values: ReadonlyArray<number>): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

/** Microseconds per call of `f`, the median of ROUNDS rounds of `calls` calls. */
const perCall = (calls: number, f: () => void): number =>
  median(Array.from({ length: ROUNDS }, () => {
    const start = performance.now()
    for (let i = 0; i < calls; i++) f()
    return ((performance.now() - start) * 1000) / calls
  }))

const boundary = decodeAtBoundary(engine.PaymentCreateRequest, "payments")
const plain = { amount: 1500, currency: "GBP", charge_date: "2026-12-01", metadata: { order: "A1" }, links: { mandate: "MD0000000000AB" } } as const
const decoded = Effect.runSync(boundary(plain))
perCall(DECODES, () => Effect.runSync(boundary(plain)))
const decodePlain = perCall(DECODES, () => Effect.runSync(boundary(plain)))
const decodeDecoded = perCall(DECODES, () => Effect.runSync(boundary(decoded)))

const layer = engine.engineOn(engine.InMemoryStorage).pipe(
  Layer.provideMerge(Layer.mergeAll(engine.SandboxBank, IdGenerator.layer, engine.ClockControl.testClock, engine.sandboxWebhooks))
)

const creations = Effect.gen(function*() {
  const paykit = yield* engine.Paykit
  yield* paykit.creditors.create(ORG, { name: "Acme Gym", country_code: "GB", creditor_type: "company" })
  const customer = yield* paykit.customers.create(ORG, { given_name: "Ada", family_name: "Lovelace", country_code: "GB" })
  const account = yield* paykit.customers.createBankAccount(ORG, {
    account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
  })
  const mandate = yield* paykit.mandates.create(ORG, { links: { customer_bank_account: account.id } })
  const literal = { amount: 1500, currency: "GBP", metadata: { order: "A1" }, links: { mandate: mandate.id } } as const
  const command = yield* engine.decodeCommand(engine.PaymentCreateRequest, "payments")(literal)
  const timed = <A, E>(create: () => EffectType.Effect<A, E>) =>
    Effect.gen(function*() {
      const rounds: Array<number> = []
      for (let round = 0; round < ROUNDS; round++) {
        const start = performance.now()
        for (let i = 0; i < CALLS; i++) yield* create()
        rounds.push(((performance.now() - start) * 1000) / CALLS)
      }
      return median(rounds)
    })
  yield* timed(() => paykit.payments.create(ORG, literal))
  // Alternated, so neither side always runs on the larger store.
  const fromLiteral: Array<number> = []
  const fromCommand: Array<number> = []
  for (let i = 0; i < 3; i++) {
    fromLiteral.push(yield* timed(() => paykit.payments.create(ORG, literal)))
    fromCommand.push(yield* timed(() => paykit.payments.create(ORG, command)))
  }
  return { fromLiteral: median(fromLiteral), fromCommand: median(fromCommand) }
})

const created = await Effect.runPromise(Effect.provide(creations, layer))
const us = (n: number) => `${n.toFixed(2)} µs`
console.log(`decodeAtBoundary, plain payment command:     ${us(decodePlain)}`)
console.log(`decodeAtBoundary, command decoded before:    ${us(decodeDecoded)} (${(decodePlain / decodeDecoded).toFixed(0)}x less)`)
console.log(`Payments.create, plain literal:              ${us(created.fromLiteral)}`)
console.log(`Payments.create, decoded command:            ${us(created.fromCommand)}`)
console.log(`plain literal / decoded command:             ${(created.fromLiteral / created.fromCommand).toFixed(3)}`)
console.log(`decoding's share of a plain creation:        ${((100 * decodePlain) / created.fromLiteral).toFixed(1)}%`)
