import { Cause, Clock, Context, Duration, Effect, Exit, Layer } from "effect"
import { type ClaimedDueItem, type DueKind, type DueLease, type DueOutcome, dueRetryAt, type DueRowKey, type DueWorkDeclarations, DueWorkStore } from "./port.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { atInstant } from "./daily-clock.ts"

/**
 * The due-work worker: claims due rows with a lease and runs each at its instant, under its
 * organisation's clock, in its own unit of work with its completion. One runs in every server
 * process (`poll`); a sandbox advance drives one organisation's rows up to a target through
 * `advance`. docs/architecture.md, "Due work", says why the claim loop is paykit's own.
 */

/** How often an idle worker looks for due rows (real time). */
export const DUE_POLL_INTERVAL_MS = 250
/**
 * How long a claim holds a row: a worker that dies holding it leaves it to another after this (real
 * time). Short, so a killed process delays its webhook deliveries and due rows by seconds: the
 * claimer renews it every third of its length while an item runs (one UPDATE of one row), so an
 * item running longer than the lease is never claimed twice.
 */
export const DUE_LEASE_MS = 15_000

/** The message a failed item is logged with; its row is tried again after `dueFailureBackoff`. */
export const DUE_ITEM_FAILED = "due work: item failed; its row is tried again after a backoff"

/** The first retry of a failed item comes this long after its run (its organisation's clock), doubling per attempt. */
export const DUE_FAILURE_FIRST_RETRY_MS = 60_000
/** The longest wait before a failed item's next try (the backoff stops doubling here). */
export const DUE_FAILURE_MAX_RETRY_MS = 5 * 60_000

/**
 * How long after a failed run its row is due again: a minute, doubling per attempt, at most five
 * minutes (or the lease, when a longer one is configured). The row is rescheduled (attempt + 1) and its lease freed, rather than left leased: a
 * sandbox advance that meets it then runs it (and reports its failure) instead of waiting out the
 * lease, and the attempts count.
 */
export const dueFailureBackoff = (attempt: number, leaseMillis: number): number =>
  Math.min(DUE_FAILURE_FIRST_RETRY_MS * 2 ** attempt, Math.max(DUE_FAILURE_MAX_RETRY_MS, leaseMillis))

export interface DueWorkerOptions {
  /** This worker's name in the leases it takes (one per process). */
  readonly owner: string
  readonly leaseMillis?: number
}

export class DueWorker extends Context.Service<DueWorker, {
  readonly owner: string
  /** The kinds of due rows this worker runs (a row of another kind is never scheduled for it). */
  readonly kinds: ReadonlySet<string>
  /** Claims and runs rows due now, one at a time, until none is due; answers how many ran. */
  readonly runDue: Effect.Effect<number>
  /**
   * Runs the organisation's rows due up to `target` (its clock) in due order, each at its instant,
   * rows created meanwhile included and rows leased elsewhere waited for, then moves its clock to
   * `target` (one write of the clock). A row that fails stops the advance with its failure, the
   * clock moved as far as the rows before it. `from` is the organisation's time the target was computed
   * from (the clock then moves by exactly `target - from`); by default its time now.
   */
  readonly advance: (organisation: string, target: number, from?: number) => Effect.Effect<void>
  /**
   * The library's advance (the engine's `Simulator`), where every organisation runs on the one
   * clock the worker was built under and their offsets stay 0: every organisation's rows due up to
   * `target`, in due order, each at its instant; then `moveClock` moves that clock to the target,
   * or, when a row fails, to where the advance stopped before the advance fails with it.
   */
  readonly advanceAll: (target: number, moveClock: (instant: number) => Effect.Effect<void>) => Effect.Effect<void>
  /** The organisation's time now (real time plus its offset). */
  readonly nowOf: (organisation: string) => Effect.Effect<number>
}>()("@paykit/engine/DueWorker") {
  static readonly layer = (
    declarations: ReadonlyArray<DueWorkDeclarations>,
    options: DueWorkerOptions
  ): Layer.Layer<DueWorker, never, DueWorkStore | Transactor> => Layer.effect(DueWorker, makeDueWorker(declarations, options))

  /** Polls for due rows every `intervalMillis` for as long as its scope lives; interrupting it stops it between statements. */
  static readonly poll = (intervalMillis: number = DUE_POLL_INTERVAL_MS): Layer.Layer<never, never, DueWorker> =>
    Layer.effectDiscard(Effect.gen(function*() {
      const worker = yield* DueWorker
      const pass = Effect.catchCause(worker.runDue, (cause) =>
        Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.logError("due work: a pass failed", Cause.pretty(cause)))
      yield* Effect.forkScoped(Effect.forever(Effect.andThen(pass, Effect.sleep(intervalMillis))))
    }))
}

const kindsOf = (declarations: ReadonlyArray<DueWorkDeclarations>): ReadonlyMap<string, DueKind> => {
  const kinds = new Map<string, DueKind>()
  for (const declaration of declarations) {
    for (const kind of declaration.kinds) {
      if (kinds.has(kind.kind)) throw new Error(`due work: two declarations of the kind ${kind.kind}`)
      kinds.set(kind.kind, kind)
    }
  }
  return kinds
}

/** What the worker's loops share: its store, its lease, the pumps and the run of one claimed item. */
interface Runner {
  readonly store: DueWorkStore["Service"]
  readonly owner: string
  /** Real time (the clock the worker was built under). */
  readonly realNow: Effect.Effect<number>
  /** A lease for `claimer` from now: the polling worker's is `owner`, each advance's a name of its own. */
  readonly lease: (claimer: string) => Effect.Effect<DueLease>
  /** A fresh claimer name for one advance. */
  readonly advanceClaimer: Effect.Effect<string>
  readonly leaseMillis: number
  readonly kinds: ReadonlySet<string>
  readonly runPumps: (organisation: string | undefined, nowOf: (organisation: string) => Effect.Effect<number>) => Effect.Effect<void>
  /** An organisation's time now on its stored clock (real time plus its offset). */
  readonly storedNowOf: (organisation: string) => Effect.Effect<number>
  readonly runAt: (item: ClaimedDueItem, instant: number, claimer: string) => Effect.Effect<{ readonly value: DueOutcome; readonly endedAt: number }>
}

const makeRunner = (declarations: ReadonlyArray<DueWorkDeclarations>, options: DueWorkerOptions) =>
  Effect.gen(function*() {
    const store = yield* DueWorkStore
    const transactor = yield* Transactor
    // Real time, taken when the worker is built: an advance is called from a request that runs on
    // its organisation's clock, and must not take that clock for the real one.
    const real = yield* Clock.Clock
    const realNow = real.currentTimeMillis
    const kinds = kindsOf(declarations)
    const pumps = declarations.flatMap((declaration) => declaration.pumps)
    const leaseMillis = options.leaseMillis ?? DUE_LEASE_MS
    const owner = options.owner
    let advances = 0

    /** The item's handler and its completion: one unit of work, or the handler's own then the completion's. */
    const handle = (item: ClaimedDueItem, claimer: string): Effect.Effect<DueOutcome> => {
      const kind = kinds.get(item.kind)
      if (kind === undefined) return Effect.die(new Error(`due work: no handler for the kind ${item.kind}`))
      const complete = (outcome: DueOutcome) => Effect.as(store.complete(item, claimer, outcome), outcome)
      return kind.ownUnitsOfWork === true
        ? Effect.flatMap(kind.run(item), (outcome) => transactor.transaction(complete(outcome)))
        : transactor.transaction(Effect.flatMap(kind.run(item), complete))
    }

    /**
     * While an item runs, its lease is extended every third of its length, so an item that runs
     * longer than the lease (a large organisation's daily run) is not claimed a second time; it
     * stops once the claimer no longer holds the row, or if the store fails (then the lease runs
     * out as it would for a dead process).
     */
    const keepLease = (item: ClaimedDueItem, claimer: string): Effect.Effect<void> =>
      Effect.gen(function*() {
        while (true) {
          yield* real.sleep(Duration.millis(Math.max(1, Math.floor(leaseMillis / 3))))
          if (!(yield* store.renew(item, claimer, (yield* realNow) + leaseMillis))) return
        }
      }).pipe(Effect.catchCause(() => Effect.void))

    const runner: Runner = {
      store,
      owner,
      leaseMillis,
      kinds: new Set(kinds.keys()),
      realNow,
      lease: (claimer) => Effect.map(realNow, (now) => ({ owner: claimer, realNow: now, until: now + leaseMillis })),
      // Leases are per claimer, not per process: the process's polling worker and an advance (or
      // two advances) never take a row the other holds, since a lease is free only when open.
      advanceClaimer: Effect.sync(() => `${owner}:advance:${++advances}`),
      runPumps: (organisation, nowOf) => Effect.forEach(pumps, (pump) => pump.run(organisation, nowOf), { discard: true }),
      storedNowOf: (organisation) => Effect.flatMap(store.offsetOf(organisation), (offset) => Effect.map(realNow, (now) => now + offset)),
      // A worker stopped in the middle (the server shutting down) rolls the item's unit of work
      // back and frees its lease, so the next process need not wait for it.
      runAt: (item, instant, claimer) =>
        Effect.onInterrupt(
          Effect.scoped(Effect.andThen(Effect.forkScoped(keepLease(item, claimer)), atInstant(instant, handle(item, claimer), real))),
          () => store.release(item, claimer)
        )
    }
    return runner
  })

/** Claims and runs the rows due now, one at a time; a failed one is logged and tried again after a backoff. */
const runDueWith = (r: Runner): Effect.Effect<number> =>
  Effect.gen(function*() {
    let ran = 0
    while (true) {
      yield* r.runPumps(undefined, r.storedNowOf)
      const current = yield* r.lease(r.owner)
      const [item] = yield* r.store.claimDue(current, 1)
      if (item === undefined) return ran
      const instant = Math.max(item.dueAt, current.realNow + item.offsetMillis)
      const exit = yield* Effect.exit(r.runAt(item, instant, r.owner))
      if (Exit.isFailure(exit)) {
        if (Cause.hasInterruptsOnly(exit.cause)) return yield* Effect.interrupt
        yield* Effect.logError(DUE_ITEM_FAILED, Cause.pretty(exit.cause)).pipe(
          Effect.annotateLogs({ organisation: item.organisation, kind: item.kind, key: item.key, attempt: item.attempt })
        )
        yield* r.store.complete(item, r.owner, dueRetryAt(instant + dueFailureBackoff(item.attempt, r.leaseMillis)))
      }
      ran++
    }
  })

/** One step of a run up to a target: none due, one leased elsewhere (waited for), one ran, or one failed (still leased to the claimer). */
type Step =
  | { readonly _tag: "None" }
  | { readonly _tag: "Waited" }
  | { readonly _tag: "Ran"; readonly reached: number }
  | { readonly _tag: "Failed"; readonly item: ClaimedDueItem; readonly cause: Cause.Cause<never> }

/**
 * Pumps, then claims and runs the earliest row of `organisation` (of every organisation when
 * undefined) due up to `upTo`, but those `passOver` names, at the later of its instant and the
 * time `reached` so far (an offset ahead of real time); answers the offset reached after it.
 */
const stepUpTo = (
  r: Runner,
  organisation: string | undefined,
  upTo: number,
  claimer: string,
  reached: number,
  passOver: ReadonlyArray<DueRowKey> = []
): Effect.Effect<Step> =>
  Effect.gen(function*() {
    yield* r.runPumps(organisation, (o) =>
      organisation === undefined || o === organisation ? Effect.map(r.realNow, (now) => now + reached) : r.storedNowOf(o))
    const current = yield* r.lease(claimer)
    const next = yield* r.store.claimNextOf(organisation, upTo, current, passOver)
    if (next._tag === "None") return next
    if (next._tag === "Leased") return yield* Effect.as(Effect.sleep(DUE_POLL_INTERVAL_MS), { _tag: "Waited" } as const)
    const item = next.item
    const exit = yield* Effect.exit(r.runAt(item, Math.max(item.dueAt, current.realNow + reached), claimer))
    if (Exit.isFailure(exit)) return { _tag: "Failed", item, cause: exit.cause } as const
    // A clock never runs behind real time (an item run at "now" ends a few milliseconds behind it).
    return { _tag: "Ran", reached: Math.max(reached, exit.value.endedAt - (yield* r.realNow)) } as const
  })

/** How far a run of rows up to a target got: the offset ahead of real time it reached, and the failure that stopped it. */
interface RunUpTo {
  readonly reached: number
  readonly failed: Cause.Cause<never> | undefined
}

/**
 * Runs the rows of one organisation due up to `target`, in due order, each at its instant, rows
 * created meanwhile included and rows leased by anyone else waited for. A row that fails stops the
 * run, its lease freed.
 */
const runUpTo = (r: Runner, organisation: string, target: number, startOffset: number): Effect.Effect<RunUpTo> =>
  Effect.gen(function*() {
    const claimer = yield* r.advanceClaimer
    let reached = startOffset
    while (true) {
      const step = yield* stepUpTo(r, organisation, target, claimer, reached)
      if (step._tag === "None") return { reached, failed: undefined }
      if (step._tag === "Failed") return yield* Effect.as(r.store.release(step.item, claimer), { reached, failed: step.cause })
      if (step._tag === "Ran") reached = step.reached
    }
  })

/**
 * Every organisation's rows up to `target` on one clock (the library's). A row that fails is set
 * aside, still leased to this advance and passed over by its claims, while the rows due at or
 * before its instant still run (another organisation's daily run of that day); the run answers how
 * far it got before the failure. However the advance ends (done, failed or interrupted) its
 * set-aside rows are released as they were, at their instant and attempt: nothing was retried.
 * Until 2026-11-24 a failed row was rescheduled far ahead (attempt + 1) and put back after the
 * loop, so an advance interrupted in between left it there for ever.
 */
const runAllUpTo = (r: Runner, target: number): Effect.Effect<RunUpTo> =>
  Effect.gen(function*() {
    const claimer = yield* r.advanceClaimer
    const setAside: Array<ClaimedDueItem> = []
    const run = Effect.gen(function*() {
      let [reached, upTo] = [0, target]
      let failed: { readonly reached: number; readonly cause: Cause.Cause<never> } | undefined
      while (true) {
        const step = yield* stepUpTo(r, undefined, upTo, claimer, reached, setAside)
        if (step._tag === "None") break
        if (step._tag === "Ran") reached = step.reached
        if (step._tag === "Failed") {
          failed ??= { reached, cause: step.cause }
          upTo = Math.min(upTo, Math.max(step.item.dueAt, (yield* r.realNow) + reached))
          setAside.push(step.item)
        }
      }
      return failed === undefined ? { reached, failed: undefined } : { reached: failed.reached, failed: failed.cause }
    })
    const putBack = Effect.suspend(() => Effect.forEach(setAside, (item) => r.store.release(item, claimer), { discard: true }))
    return yield* Effect.ensuring(run, putBack)
  })

/**
 * One organisation's rows up to `target`, in due order, each at its instant (`DueWorker.advance`).
 * The organisation's clock is written once, at the end (or before a failure, where it stopped): a
 * clock written per row rewrote the organisation's access tokens (server migration 0008) once a row.
 */
const advanceWith = (r: Runner) => (organisation: string, target: number, fromTime?: number): Effect.Effect<void> =>
  Effect.gen(function*() {
    const startOffset = yield* r.store.offsetOf(organisation)
    const from = fromTime ?? (yield* r.realNow) + startOffset
    const run = yield* runUpTo(r, organisation, target, startOffset)
    if (run.failed !== undefined) {
      yield* r.store.raiseOffset(organisation, run.reached)
      return yield* Effect.failCause(run.failed)
    }
    // "by P1D" moves the clock by exactly one day: the target, plus the real time the advance took.
    yield* r.store.raiseOffset(organisation, Math.max(0, run.reached, startOffset + (target - from)))
  })

/** Every organisation's rows up to `target` on the one clock the worker runs under (`DueWorker.advanceAll`). */
const advanceAllWith = (r: Runner) => (target: number, moveClock: (instant: number) => Effect.Effect<void>): Effect.Effect<void> =>
  Effect.gen(function*() {
    const run = yield* runAllUpTo(r, target)
    const reachedAt = (yield* r.realNow) + run.reached
    if (run.failed !== undefined) {
      yield* moveClock(reachedAt)
      return yield* Effect.failCause(run.failed)
    }
    yield* moveClock(Math.max(target, reachedAt))
  })

/** A worker over `declarations` (what `DueWorker.layer` provides; the library's simulator builds its own). */
export const makeDueWorker = (declarations: ReadonlyArray<DueWorkDeclarations>, options: DueWorkerOptions) =>
  Effect.map(makeRunner(declarations, options), (r) =>
    DueWorker.of({
      owner: r.owner,
      kinds: r.kinds,
      runDue: runDueWith(r),
      advance: advanceWith(r),
      advanceAll: advanceAllWith(r),
      nowOf: r.storedNowOf
    }))
