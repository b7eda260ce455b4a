import { Clock, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { unsafeLocalDate } from "@paykit/core"
import {
  BankAuthorisations,
  dailyRunDeclarations,
  DAILY_RUN_KIND,
  type DueWorkDeclarations,
  dueDone,
  DueWorker,
  DueWorkStore,
  EngineDeadlines,
  InMemoryStorage,
  OUTBOUND_APPROVAL_EXPIRY,
  OutboundPayments,
  sandboxEngineOn,
  scheduleFirstDailyRun,
  Transactor,
  WorkingOrganisation
} from "@paykit/engine"
import { billingRequestsAtEdge, ORG, setUpCreditor, START } from "./billing-fixtures.ts"
import { fundAccount, setUpCreditor as setUpOutboundCreditor, setUpRecipient } from "./outbound-fixtures.ts"

/**
 * Due work on the in-memory adapter: the daily run and the deadlines as rows a `DueWorker` runs,
 * each at its instant, under the test's clock.
 */

const DUAL = {
  mandate_request: { currency: "GBP", scheme: "bacs" },
  payment_request: { amount: 2500, currency: "GBP", scheme: "faster_payments", description: "First month" }
}
const MINUTE = 60_000
const DAY = 86_400_000

const ran: Array<{ readonly organisation: string; readonly at: number }> = []
const probeJob = { name: "probe", run: (organisation: string) => Effect.flatMap(Clock.currentTimeMillis, (at) => Effect.sync(() => void ran.push({ organisation, at }))) }

// The engine built with a due-work store in its storage: its use cases schedule their deadlines there.
const storage = InMemoryStorage
const engine = sandboxEngineOn(storage, { seed: 3 })
const worker = Layer.unwrap(Effect.gen(function*() {
  const declared = [yield* dailyRunDeclarations([probeJob]), ...(yield* EngineDeadlines)]
  return DueWorker.layer(declared, { owner: "test" })
}))
// `storage` is one layer value, built once: the engine's and the worker's are the same store.
const layer = worker.pipe(Layer.provideMerge(engine), Layer.provideMerge(storage), Layer.provideMerge(TestClock.layer()))

const run = <A, E>(program: Effect.Effect<A, E, Layer.Success<typeof layer>>) =>
  Effect.runPromise(Effect.provide(Effect.andThen(TestClock.setTime(START), program), layer))

describe("due work in memory", () => {
  it("a bank authorisation expires at its instant through its due row, not before", async () => {
    const r = await run(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
      const bas = yield* BankAuthorisations
      const due = yield* DueWorker
      const created = yield* brs.create(ORG, DUAL)
      yield* brs.selectInstitution(ORG, created.id, { institution: "MONZO_MONZGB2L", country_code: "GB" })
      const authorisation = yield* bas.create(ORG, { links: { billing_request: created.id } })
      const pending = yield* (yield* DueWorkStore).pendingOf(ORG, "bank_authorisation_expiry")
      yield* due.advance(ORG, START + 14 * MINUTE)
      const early = (yield* bas.get(ORG, authorisation.id)).status
      yield* due.advance(ORG, START + 16 * MINUTE)
      return { pending, early, late: (yield* bas.get(ORG, authorisation.id)).status }
    }))
    expect(r.pending.map((item) => item.dueAt)).toEqual([START + 15 * MINUTE])
    expect(r.early).not.toBe("expired")
    expect(r.late).toBe("expired")
  })

  it("the daily run is a row a day, run at 06:00 of each day for its organisation", async () => {
    ran.length = 0
    const r = await run(Effect.gen(function*() {
      yield* scheduleFirstDailyRun(ORG, START)
      const due = yield* DueWorker
      yield* due.advance(ORG, START + 3 * DAY)
      return { pending: yield* (yield* DueWorkStore).pendingOf(ORG, DAILY_RUN_KIND), now: yield* due.nowOf(ORG) }
    }))
    const sixAm = Date.UTC(2026, 10, 24, 6)
    expect(ran).toEqual([0, 1, 2].map((d) => ({ organisation: ORG, at: sixAm + d * DAY })))
    expect(r.pending.map((item) => item.key)).toEqual(["2026-11-27"])
    expect(r.now).toBeGreaterThanOrEqual(START + 3 * DAY)
  })

  it("an outbound payment left unapproved is cancelled as its execution date ends in London, through its due row", async () => {
    const r = await run(Effect.gen(function*() {
      const outbound = yield* OutboundPayments
      const creditor = yield* setUpOutboundCreditor(ORG, { verified: false })
      const recipient = yield* setUpRecipient(ORG)
      yield* fundAccount(ORG, { amount: 100, links: { creditor: creditor.id } })
      const payment = yield* outbound.create(ORG, {
        amount: 100, scheme: "faster_payments", execution_date: unsafeLocalDate("2026-11-24"), links: { recipient_bank_account: recipient.id }
      })
      const pending = yield* (yield* DueWorkStore).pendingOf(ORG, OUTBOUND_APPROVAL_EXPIRY)
      const due = yield* DueWorker
      // November is GMT: the 24th ends at midnight UTC, hours before the next daily run (06:00).
      const endOfDate = Date.UTC(2026, 10, 25)
      yield* due.advance(ORG, endOfDate - 1)
      const onDate = (yield* outbound.get(ORG, payment.id)).status
      yield* due.advance(ORG, endOfDate + MINUTE)
      return { pending, onDate, after: (yield* outbound.get(ORG, payment.id)).status }
    }))
    expect(r.pending.map((item) => item.dueAt)).toEqual([Date.UTC(2026, 10, 25)])
    expect(r.onDate).toBe("pending_approval")
    expect(r.after).toBe("cancelled")
  })

  it("a schedule inside a unit of work that fails is rolled back with it; scheduling again keeps the earlier instant", async () => {
    const r = await run(Effect.gen(function*() {
      const store = yield* DueWorkStore
      const transactor = yield* Transactor
      yield* Effect.exit(transactor.transaction(Effect.andThen(store.schedule({ organisation: ORG, kind: "k", key: "a", dueAt: 5 }), Effect.fail("no"))))
      const afterRollback = yield* store.pendingOf(ORG, "k")
      yield* store.schedule({ organisation: ORG, kind: "k", key: "b", dueAt: 20 })
      yield* store.schedule({ organisation: ORG, kind: "k", key: "b", dueAt: 10 })
      yield* store.schedule({ organisation: ORG, kind: "k", key: "b", dueAt: 30 })
      return { afterRollback, after: yield* store.pendingOf(ORG, "k") }
    }))
    expect(r.afterRollback).toEqual([])
    expect(r.after.map((item) => [item.key, item.dueAt])).toEqual([["b", 10]])
  })
})

describe("the in-memory due-work store under racing claimers", () => {
  // The SQL store's claims are single statements: a claimer that loses a race gets nothing and
  // carries on. The in-memory one reads then writes, and a write waits while a unit of work holds
  // the store, so claimers that read meanwhile all write after it, on the same versions.
  const CLAIMERS = 8
  const ROWS = 40
  /** Runs `racers` at once while a unit of work holds the store, so each reads before any writes. */
  const racing = <A, E>(racers: ReadonlyArray<Effect.Effect<A, E>>) =>
    Effect.gen(function*() {
      const transactor = yield* Transactor
      const held = transactor.transaction(Effect.repeat(Effect.yieldNow, { times: 50 }))
      const [, answers] = yield* Effect.all([held, Effect.all(racers, { concurrency: "unbounded" })], { concurrency: "unbounded" })
      return answers
    })

  it("a claim that loses a race takes nothing, and every row is claimed once", async () => {
    const r = await run(Effect.gen(function*() {
      const store = yield* DueWorkStore
      for (let i = 0; i < ROWS; i++) yield* store.schedule({ organisation: ORG, kind: "k", key: `r${i}`, dueAt: START - 1 })
      const claims = yield* racing(Array.from({ length: CLAIMERS }, (_, c) =>
        store.claimDue({ owner: `w${c}`, realNow: START, until: START + MINUTE }, ROWS)))
      const next = yield* racing(Array.from({ length: CLAIMERS }, (_, c) =>
        store.claimNextOf(ORG, START, { owner: `n${c}`, realNow: START + 2 * MINUTE, until: START + 3 * MINUTE })))
      return { keys: claims.flat().map((item) => item.key), next: next.map((n) => n._tag) }
    }))
    expect([...r.keys].sort()).toEqual(Array.from({ length: ROWS }, (_, i) => `r${i}`).sort())
    expect(r.next.filter((tag) => tag === "Claimed")).toHaveLength(1)
  })

  it("schedules and renewals racing each other all land, none a crash", async () => {
    const r = await run(Effect.gen(function*() {
      const store = yield* DueWorkStore
      yield* store.schedule({ organisation: ORG, kind: "k", key: "same", dueAt: START + CLAIMERS })
      yield* racing(Array.from({ length: CLAIMERS }, (_, c) => store.schedule({ organisation: ORG, kind: "k", key: "same", dueAt: START + c })))
      const [item] = yield* store.claimDue({ owner: "w", realNow: START + MINUTE, until: START + 2 * MINUTE }, 1)
      if (item === undefined) return { renewed: [], pending: [] }
      const renewed = yield* racing(Array.from({ length: CLAIMERS }, (_, c) => store.renew(item, "w", START + 3 * MINUTE + c)))
      return { renewed, pending: yield* store.pendingOf(ORG, "k") }
    }))
    expect(r.pending.map((item) => item.dueAt)).toEqual([START])
    expect(r.renewed.every((ok) => ok)).toBe(true)
  })
})

describe("the pumps run on the organisation's clock", () => {
  // A pump turns what was committed into rows on its organisation's clock: a sandbox organisation
  // ten days ahead reads ten days ahead in a poll, and an advance's position as it goes.
  const seen: Array<{ readonly organisation: string | undefined; readonly now: number }> = []
  const probePump: DueWorkDeclarations = {
    kinds: [{ kind: "probe", run: () => Effect.succeed(dueDone) }],
    pumps: [{
      name: "probe",
      run: (organisation, nowOf) => Effect.flatMap(nowOf(ORG), (now) => Effect.sync(() => void seen.push({ organisation, now })))
    }]
  }
  const probeLayer = Layer.unwrap(Effect.succeed(DueWorker.layer([probePump], { owner: "probe" }))).pipe(
    Layer.provideMerge(storage), Layer.provideMerge(TestClock.layer()))

  it("in a poll, its offset ahead of real time; in an advance, the instant the advance reached", async () => {
    seen.length = 0
    await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const store = yield* DueWorkStore
      const worker = yield* DueWorker
      yield* store.raiseOffset(ORG, 10 * DAY)
      yield* worker.runDue
      const polled = seen.splice(0)
      yield* store.schedule({ organisation: ORG, kind: "probe", key: "p", dueAt: START + 10 * DAY + 3_600_000 })
      yield* worker.advance(ORG, START + 10 * DAY + 2 * 3_600_000)
      expect(polled.map((s) => s.now)).toEqual([START + 10 * DAY])
      // Before the row, then after it: the pump ran at the row's instant, though the clock moves only at the end.
      expect(seen.map((s) => s.now)).toEqual([START + 10 * DAY, START + 10 * DAY + 3_600_000])
      expect(seen.every((s) => s.organisation === ORG)).toBe(true)
    }), probeLayer))
  })
})

describe("the organisation an item's run works for", () => {
  // A distributed store routes by `WorkingOrganisation`: each item's run, and an advance, is its
  // organisation's work; a poll's own reads across organisations are no one's.
  const working = Effect.withFiber((fiber) => Effect.succeed(fiber.getRef(WorkingOrganisation)))
  const runs: Array<readonly [string, string | undefined]> = []
  const pumps: Array<string | undefined> = []
  const probe: DueWorkDeclarations = {
    kinds: [{ kind: "probe", run: (item) => Effect.map(working, (organisation) => (runs.push([item.organisation, organisation]), dueDone)) }],
    pumps: [{ name: "probe", run: () => Effect.map(working, (organisation) => void pumps.push(organisation)) }]
  }
  const layer = DueWorker.layer([probe], { owner: "probe" }).pipe(Layer.provideMerge(storage), Layer.provideMerge(TestClock.layer()))

  it("is the item's in a poll and the advanced organisation's in an advance; none for the poll's pumps", async () => {
    await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const store = yield* DueWorkStore
      const worker = yield* DueWorker
      for (const organisation of ["OR_working_a", "OR_working_b"]) yield* store.schedule({ organisation, kind: "probe", key: "k", dueAt: START - 1 })
      yield* worker.runDue
      expect([...runs].sort()).toEqual([["OR_working_a", "OR_working_a"], ["OR_working_b", "OR_working_b"]])
      expect(pumps.length).toBeGreaterThan(0)
      expect(new Set(pumps)).toEqual(new Set([undefined]))
      pumps.length = 0
      yield* store.schedule({ organisation: "OR_working_c", kind: "probe", key: "k", dueAt: START + 1_000 })
      yield* worker.advance("OR_working_c", START + 2_000)
      expect(runs.at(-1)).toEqual(["OR_working_c", "OR_working_c"])
      expect(new Set(pumps)).toEqual(new Set(["OR_working_c"]))
    }), layer))
  })
})
