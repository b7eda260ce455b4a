import { Effect, Exit } from "effect"
import { compareDueOrder, type DueItem, type DueLease, type DueRowKey, DueWorkSchedule, DueWorkStore, dueDone, dueRetryAt } from "../due-work/port.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { traceparentOf } from "../due-work/trace-context.ts"
import { check, CONTRACT_ORG, CONTRACT_OTHER_ORG, type ContractCase, ContractViolation, sameList } from "./contract-support.ts"

/**
 * The due-work store's obligations (`due-work/port.ts`): the schedule, claims and leases, clock
 * offsets, due order and completion. Instants are given to the store explicitly (a lease names
 * real time), so the cases need no clock. docs/architecture.md, "Due work", says why each matters.
 */

type Storage = DueWorkStore | DueWorkSchedule | Transactor

export type DueWorkContractCase = ContractCase<Storage>

const KIND = "contract_probe"
const A = CONTRACT_ORG
const B = CONTRACT_OTHER_ORG
/** Real time in the cases: any instant will do, the store is told it. */
const NOW = Date.UTC(2026, 5, 1, 12)
const SECOND = 1_000
const HOUR = 3_600_000

const lease = (owner: string, realNow: number, forMillis = 10 * SECOND): DueLease => ({ owner, realNow, until: realNow + forMillis })
const name = (item: DueRowKey & Pick<DueItem, "dueAt">) => `${item.organisation}/${item.kind}/${item.key}@${item.dueAt - NOW}`
const keys = (items: ReadonlyArray<DueItem>) => items.map((item) => item.key)

const schedule = (organisation: string, key: string, dueAt: number, kind = KIND) =>
  Effect.flatMap(DueWorkStore, (store) => store.schedule({ organisation, kind, key, dueAt }))

/** The organisation's pending keys of the probe kind, in due order. */
const pendingKeys = (organisation: string) =>
  Effect.map(Effect.flatMap(DueWorkStore, (store) => store.pendingOf(organisation, KIND)), (items) => keys([...items].sort(compareDueOrder)))

/** Every row due by `upTo`, claimed at real time `realNow` and completed one by one through `claimNextOf`, as an advance runs them. */
const drainInOrder = (owner: string, upTo: number, realNow: number) =>
  Effect.gen(function*() {
    const store = yield* DueWorkStore
    const order: Array<string> = []
    const claimNext = () => store.claimNextOf(undefined, upTo, lease(owner, realNow))
    for (let next = yield* claimNext(); next._tag === "Claimed"; next = yield* claimNext()) {
      order.push(name(next.item))
      yield* store.complete(next.item, owner, dueDone)
    }
    return order
  })

const scheduleCases: ReadonlyArray<DueWorkContractCase> = [
  {
    name: "due work: a scheduled row is pending; its key scheduled again keeps one row, due at the earlier instant",
    run: Effect.gen(function*() {
      yield* schedule(A, "k1", NOW + 5 * SECOND)
      yield* schedule(A, "k1", NOW + 3 * SECOND)
      yield* schedule(A, "k1", NOW + 9 * SECOND)
      yield* schedule(A, "k2", NOW + 4 * SECOND, "other_kind")
      const pending = yield* (yield* DueWorkStore).pendingOf(A, KIND)
      yield* check(pending.length === 1 && pending[0]?.dueAt === NOW + 3 * SECOND && pending[0].attempt === 0, `one row at the earlier instant: ${JSON.stringify(pending)}`)
      yield* sameList(yield* pendingKeys(B), [], "another organisation has none")
      const other = yield* (yield* DueWorkStore).pendingOf(A, "other_kind")
      yield* sameList(keys(other), ["k2"], "pendingOf reads one kind")
    })
  },
  {
    name: "due work: scheduling joins the caller's unit of work, rolled back with it or committed with it",
    run: Effect.gen(function*() {
      const tx = yield* Transactor
      const port = yield* DueWorkSchedule
      const failed = yield* Effect.exit(tx.transaction(Effect.andThen(
        port.schedule({ organisation: A, kind: KIND, key: "rolled-back", dueAt: NOW }),
        Effect.fail(new ContractViolation({ message: "abort" }))
      )))
      yield* check(Exit.isFailure(failed), "the unit failed")
      yield* tx.transaction(port.schedule({ organisation: A, kind: KIND, key: "committed", dueAt: NOW }))
      yield* sameList(yield* pendingKeys(A), ["committed"], "only the committed unit's row")
    })
  }
]

/** Schedules `key` inside a span of its own; answers that span as a `traceparent`. */
const scheduleInSpan = (key: string, dueAt: number) =>
  Effect.gen(function*() {
    const span = yield* Effect.currentSpan
    yield* schedule(A, key, dueAt)
    return traceparentOf(span)
  }).pipe(Effect.withSpan("contract scheduler"))

const traceCase: DueWorkContractCase = {
  name: "due work: a row keeps the span that scheduled it (its traceparent), the first when scheduled again, and its claim carries it",
  run: Effect.gen(function*() {
    const store = yield* DueWorkStore
    const first = yield* scheduleInSpan("traced", NOW - SECOND)
    const second = yield* scheduleInSpan("traced", NOW - 2 * SECOND)
    yield* check(first !== second, "two spans")
    yield* schedule(A, "untraced", NOW - SECOND)
    const given = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    yield* store.schedule({ organisation: A, kind: KIND, key: "given", dueAt: NOW - SECOND, traceparent: given })
    const claimed = new Map((yield* store.claimDue(lease("w1", NOW), 10)).map((item) => [item.key, item.traceparent ?? null]))
    yield* check(claimed.get("traced") === first, `the first scheduler's span: ${claimed.get("traced")} against ${first}`)
    yield* check(claimed.get("untraced") === null, `no span, no traceparent: ${claimed.get("untraced")}`)
    yield* check(claimed.get("given") === given, `the one given: ${claimed.get("given")}`)
  })
}

const claimCases: ReadonlyArray<DueWorkContractCase> = [
  traceCase,
  {
    name: "due work: claimDue leases the rows due on their organisation's clock, in due order, at most `limit`, none not yet due",
    run: Effect.gen(function*() {
      const store = yield* DueWorkStore
      yield* schedule(A, "a1", NOW - 3 * SECOND)
      yield* schedule(B, "b1", NOW - 2 * SECOND)
      yield* schedule(A, "a2", NOW - SECOND)
      yield* schedule(A, "a3", NOW)
      yield* schedule(A, "later", NOW + HOUR)
      const first = yield* store.claimDue(lease("w1", NOW), 3)
      yield* sameList(first.map(name), [`${A}/${KIND}/a1@-3000`, `${B}/${KIND}/b1@-2000`, `${A}/${KIND}/a2@-1000`], "the first three in due order")
      yield* check(first.every((item) => item.attempt === 0 && item.offsetMillis === 0), "attempt 0, no offset")
      yield* sameList(keys(yield* store.claimDue(lease("w2", NOW), 10)), ["a3"], "a second claimer gets only what the first left")
      yield* sameList(keys(yield* store.claimDue(lease("w3", NOW), 10)), [], "nothing is left that is due")
      yield* sameList(yield* pendingKeys(A), ["a1", "a2", "a3", "later"], "claimed rows stay pending until completed")
    })
  },
  {
    name: "due work: a lease that ran out is claimed again; a live one is not, whoever asks",
    run: Effect.gen(function*() {
      const store = yield* DueWorkStore
      yield* schedule(A, "k", NOW - SECOND)
      yield* sameList(keys(yield* store.claimDue(lease("w1", NOW, 10 * SECOND), 10)), ["k"], "claimed")
      yield* sameList(keys(yield* store.claimDue(lease("w1", NOW + 5 * SECOND), 10)), [], "held by a live lease, even for its owner")
      yield* sameList(keys(yield* store.claimDue(lease("w2", NOW + 11 * SECOND), 10)), ["k"], "taken over once the lease ran out")
      const next = yield* store.claimNextOf(A, NOW, lease("w3", NOW + 12 * SECOND))
      yield* check(next._tag === "Leased", `claimNextOf answers Leased under a live lease, got ${next._tag}`)
    })
  },
  {
    name: "due work: an organisation's clock offset makes its rows due that much sooner, and never goes back",
    run: Effect.gen(function*() {
      const store = yield* DueWorkStore
      yield* schedule(A, "a-half-hour", NOW + HOUR / 2)
      yield* schedule(B, "b-half-hour", NOW + HOUR / 2)
      yield* store.raiseOffset(A, HOUR)
      yield* store.raiseOffset(A, HOUR / 6)
      yield* check((yield* store.offsetOf(A)) === HOUR && (yield* store.offsetOf(B)) === 0, "the offset only rises; another organisation has none")
      const claimed = yield* store.claimDue(lease("w1", NOW), 10)
      yield* sameList(keys(claimed), ["a-half-hour"], "only the organisation running ahead has a row due")
      yield* check(claimed[0]?.offsetMillis === HOUR, `the claimed item carries its offset: ${claimed[0]?.offsetMillis}`)
    })
  },
  {
    name: "due work: rows scheduled while the organisation's clock moves are due on the moved clock",
    run: Effect.gen(function*() {
      const store = yield* DueWorkStore
      const keysAhead = Array.from({ length: 20 }, (_, i) => `k${String(i).padStart(2, "0")}`)
      yield* Effect.all([
        Effect.forEach(keysAhead, (key, i) => schedule(A, key, NOW + HOUR / 2 + i * SECOND), { concurrency: 4 }),
        store.raiseOffset(A, HOUR)
      ], { concurrency: "unbounded" })
      const claimed = yield* store.claimDue(lease("w1", NOW), 100)
      yield* sameList(keys(claimed), keysAhead, "every row, scheduled before, during or after the move, is due an hour sooner")
    })
  },
  {
    name: "due work: claimNextOf claims an organisation's earliest row up to an instant, passes over the rows named, and answers None past them",
    run: Effect.gen(function*() {
      const store = yield* DueWorkStore
      yield* schedule(A, "first", NOW + SECOND)
      yield* schedule(A, "second", NOW + 2 * SECOND)
      yield* schedule(B, "other", NOW)
      const none = yield* store.claimNextOf(A, NOW, lease("adv", NOW))
      yield* check(none._tag === "None", `nothing of A is due by now: ${none._tag}`)
      const first = yield* store.claimNextOf(A, NOW + 5 * SECOND, lease("adv", NOW))
      if (first._tag !== "Claimed") return yield* new ContractViolation({ message: `the first row is claimed, got ${first._tag}` })
      yield* check(first.item.key === "first", `the earliest first: ${first.item.key}`)
      const passed = yield* store.claimNextOf(A, NOW + 5 * SECOND, lease("adv2", NOW), [first.item])
      yield* check(passed._tag === "Claimed" && passed.item.key === "second", `the row passed over is skipped: ${JSON.stringify(passed)}`)
      const after = yield* store.claimNextOf(A, NOW + 5 * SECOND, lease("adv3", NOW), [first.item, { organisation: A, kind: KIND, key: "second" }])
      yield* check(after._tag === "None", `nothing else of A: ${after._tag}`)
    })
  },
  {
    name: "due work: rows due at one instant are claimed in due order (organisation, kind and key by code point), by claimDue and by claimNextOf alike",
    run: Effect.gen(function*() {
      const store = yield* DueWorkStore
      const rows = [
        { organisation: "OR_b", kind: "probe", key: "b" }, { organisation: "OR_B", kind: "probe", key: "a" },
        { organisation: "OR_a", kind: "probe", key: "Z" }, { organisation: "OR_a", kind: "probe", key: "a" },
        { organisation: "OR_a", kind: "Alpha", key: "x" }, { organisation: "OR_a", kind: "daily_run", key: "é" },
        { organisation: "OR_Z", kind: "probe", key: "k" }, { organisation: "OR_a", kind: "probe", key: "\u{1F600}" },
        { organisation: "OR_a", kind: "probe", key: "\uFFFF" }
      ]
      for (const row of rows) yield* store.schedule({ ...row, dueAt: NOW - (row.key === "k" ? SECOND : 0) })
      const expected = rows.map((row) => ({ ...row, dueAt: NOW - (row.key === "k" ? SECOND : 0) })).sort(compareDueOrder).map(name)
      yield* sameList((yield* store.claimDue(lease("poll", NOW, SECOND), 100)).map(name), expected, "claimDue's order")
      // Past the poll's one-second lease, so the advance claims every row again.
      yield* sameList(yield* drainInOrder("advance", NOW, NOW + 2 * SECOND), expected, "claimNextOf's order")
    })
  },
  {
    name: "due work: claimers at once never claim one row twice",
    run: Effect.gen(function*() {
      const store = yield* DueWorkStore
      const all = Array.from({ length: 24 }, (_, i) => `k${String(i).padStart(2, "0")}`)
      for (const [i, key] of all.entries()) yield* schedule(i % 2 === 0 ? A : B, key, NOW - i * 10)
      const claimers = Array.from({ length: 4 }, (_, i) => `w${i}`)
      const claimed = (yield* Effect.forEach(claimers, (owner) =>
        Effect.map(Effect.forEach([1, 2, 3], () => store.claimDue(lease(owner, NOW), 3)), (rounds) => rounds.flat()), { concurrency: "unbounded" })).flat()
      const claimedKeys = keys(claimed).sort()
      yield* check(new Set(claimedKeys).size === claimedKeys.length, `a row claimed twice: ${claimedKeys.join(", ")}`)
      const rest = yield* store.claimDue(lease("last", NOW), 100)
      yield* sameList([...claimedKeys, ...keys(rest)].sort(), all, "every row claimed once in all")
    })
  }
]

const completionCases: ReadonlyArray<DueWorkContractCase> = [
  {
    name: "due work: a completed row is gone; one to retry is due again at its instant with attempt + 1 and no lease; another's lease is left alone",
    run: Effect.gen(function*() {
      const store = yield* DueWorkStore
      yield* schedule(A, "done", NOW - 2 * SECOND)
      yield* schedule(A, "retry", NOW - SECOND)
      const claimed = yield* store.claimDue(lease("w1", NOW), 10)
      const [done, retry] = claimed
      if (done === undefined || retry === undefined) return yield* new ContractViolation({ message: `two rows claimed: ${keys(claimed).join(", ")}` })
      yield* store.complete(done, "intruder", dueDone)
      yield* sameList(yield* pendingKeys(A), ["done", "retry"], "a completion by another than the lease holder changes nothing")
      yield* store.complete(done, "w1", dueDone)
      yield* store.complete(retry, "w1", dueRetryAt(NOW + HOUR))
      const pending = yield* store.pendingOf(A, KIND)
      yield* check(pending.length === 1 && pending[0]?.key === "retry" && pending[0].attempt === 1 && pending[0].dueAt === NOW + HOUR,
        `the retried row, at its new instant, attempt 1: ${JSON.stringify(pending)}`)
      yield* sameList(keys(yield* store.claimDue(lease("w2", NOW + HOUR), 10)), ["retry"], "its lease freed: claimed at its new instant")
    })
  },
  {
    name: "due work: renew extends the holder's lease, release ends it; neither touches a row another holds",
    run: Effect.gen(function*() {
      const store = yield* DueWorkStore
      yield* schedule(A, "k", NOW - SECOND)
      const [item] = yield* store.claimDue(lease("w1", NOW, 10 * SECOND), 1)
      if (item === undefined) return yield* new ContractViolation({ message: "claimed" })
      yield* check(!(yield* store.renew(item, "w2", NOW + HOUR)), "renew by another than the holder is refused")
      yield* check(yield* store.renew(item, "w1", NOW + 60 * SECOND), "the holder renews")
      yield* sameList(keys(yield* store.claimDue(lease("w2", NOW + 30 * SECOND), 10)), [], "held past its first end")
      yield* store.release(item, "w2")
      yield* sameList(keys(yield* store.claimDue(lease("w2", NOW + 31 * SECOND), 10)), [], "a release by another changes nothing")
      yield* store.release(item, "w1")
      yield* sameList(keys(yield* store.claimDue(lease("w2", NOW + 32 * SECOND), 10)), ["k"], "released: claimed at once")
    })
  },
  {
    name: "due work: a completion joins the caller's unit of work: rolled back, the row stays claimed as it was",
    run: Effect.gen(function*() {
      const store = yield* DueWorkStore
      const tx = yield* Transactor
      yield* schedule(A, "k", NOW - SECOND)
      const [item] = yield* store.claimDue(lease("w1", NOW, 10 * SECOND), 1)
      if (item === undefined) return yield* new ContractViolation({ message: "claimed" })
      const failed = yield* Effect.exit(tx.transaction(Effect.andThen(store.complete(item, "w1", dueDone), Effect.fail(new ContractViolation({ message: "abort" })))))
      yield* check(Exit.isFailure(failed), "the unit failed")
      yield* sameList(yield* pendingKeys(A), ["k"], "the row is still pending")
      yield* sameList(keys(yield* store.claimDue(lease("w2", NOW + 5 * SECOND), 10)), [], "and still leased")
      yield* tx.transaction(store.complete(item, "w1", dueDone))
      yield* sameList(yield* pendingKeys(A), [], "completed in a committed unit, it is gone")
    })
  }
]

/** Every obligation of a `DueWorkStore` and `DueWorkSchedule`, each on a fresh store. */
export const DueWorkContract = {
  cases: [...scheduleCases, ...claimCases, ...completionCases] as ReadonlyArray<DueWorkContractCase>
}
