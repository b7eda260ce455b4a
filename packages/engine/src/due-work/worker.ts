import { Cause, Clock, Context, Duration, Effect, Exit, Layer, Metric, Option, References, Semaphore, type Tracer } from "effect"
import type { StorageFailure } from "@paykit/core"
import { type ClaimedDueItem, type DueKind, type DueLease, type DueOutcome, dueRetryAt, type DueRowKey, type DueWorkDeclarations, DueWorkStore } from "./port.ts"
import { labelled, PaykitMetrics } from "./metrics.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { forOrganisation } from "./working-organisation.ts"
import { KeepsCallerTrace, openSpan, spanOfTraceparent } from "./trace-context.ts"
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
  readonly runDue: Effect.Effect<number, StorageFailure>
  /**
   * Runs the organisation's rows due up to `target` (its clock) in due order, each at its instant,
   * rows created meanwhile included and rows leased elsewhere waited for, then moves its clock to
   * `target` (one write of the clock). A row that fails stops the advance with its failure, the
   * clock moved as far as the rows before it. `from` is the organisation's time the target was computed
   * from (the clock then moves by exactly `target - from`); by default its time now.
   */
  readonly advance: (organisation: string, target: number, from?: number) => Effect.Effect<void, StorageFailure>
  /**
   * The library's advance (the engine's `Simulator`), where every organisation runs on the one
   * clock the worker was built under and their offsets stay 0: every organisation's rows due up to
   * `target`, in due order, each at its instant; then `moveClock` moves that clock to the target,
   * or, when a row fails, to where the advance stopped before the advance fails with it.
   */
  readonly advanceAll: (target: number, moveClock: (instant: number) => Effect.Effect<void, StorageFailure>) => Effect.Effect<void, StorageFailure>
  /** The organisation's time now (real time plus its offset). */
  readonly nowOf: (organisation: string) => Effect.Effect<number, StorageFailure>
}>()("@paykit/engine/DueWorker") {
  static readonly layer = (
    declarations: ReadonlyArray<DueWorkDeclarations>,
    options: DueWorkerOptions
  ): Layer.Layer<DueWorker, never, DueWorkStore | Transactor> => Layer.effect(DueWorker, makeDueWorker(declarations, options))

  /**
   * Polls for due rows every `intervalMillis` for as long as its scope lives; interrupting it stops
   * it between statements. Each pass holds `DuePolling`'s turn, so a pause waits for the pass
   * running and stops the next.
   */
  static readonly poll = (intervalMillis: number = DUE_POLL_INTERVAL_MS): Layer.Layer<never, never, DueWorker | DuePolling> =>
    Layer.effectDiscard(Effect.gen(function*() {
      const worker = yield* DueWorker
      const polling = yield* DuePolling
      const pass = Effect.catchCause(worker.runDue, (cause) =>
        Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.logError("due work: a pass failed", Cause.pretty(cause)))
      yield* Effect.forkScoped(Effect.forever(Effect.andThen(polling.turn(pass), Effect.sleep(intervalMillis))))
    }))
}

/**
 * The polling worker's switch (docs/operations.md, "Pausing due work"): `pause` waits for the pass
 * running to end and holds the next until `resume`, so nothing due runs in this process meanwhile
 * (a sandbox advance still runs its organisation's rows). For an operator draining a process before
 * maintenance, and for a test that watches lag grow. Pausing twice, or resuming a running worker,
 * does nothing.
 */
export class DuePolling extends Context.Service<DuePolling, {
  readonly pause: Effect.Effect<void>
  readonly resume: Effect.Effect<void>
  readonly paused: Effect.Effect<boolean>
  /** Runs one pass of the poll, unless paused (then it waits for `resume`). */
  readonly turn: <A, E, R>(pass: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("@paykit/engine/DuePolling") {
  static readonly layer: Layer.Layer<DuePolling> = Layer.effect(DuePolling, Effect.gen(function*() {
    const passes = yield* Semaphore.make(1)
    let paused = false
    return DuePolling.of({
      pause: Effect.suspend(() => {
        if (paused) return Effect.void
        paused = true
        return Effect.asVoid(passes.take(1))
      }),
      resume: Effect.suspend(() => {
        if (!paused) return Effect.void
        paused = false
        return Effect.asVoid(passes.release(1))
      }),
      paused: Effect.sync(() => paused),
      turn: (pass) => passes.withPermits(1)(pass)
    })
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

/**
 * An item's span (when tracing is on): a child of the span that scheduled it (`traceparent`), so
 * a request and the due work it led to are one trace, linked to the span it runs under (an
 * advance's request); without one, a child of that. The worker's own statements (claims, leases,
 * pumps) make no spans: a poll every 250 ms would be a trace each.
 */
const itemSpan = <E>(item: ClaimedDueItem, run: Effect.Effect<DueOutcome, E>): Effect.Effect<DueOutcome, E> =>
  Effect.flatMap(openSpan, (current) => {
    const scheduler = spanOfTraceparent(item.traceparent)
    const links: Array<Tracer.SpanLink> = scheduler !== undefined && Option.isSome(current) ? [{ span: current.value, attributes: {} }] : []
    return run.pipe(
      Effect.tap((outcome) => Effect.annotateCurrentSpan("paykit.due_work.outcome", outcome._tag === "Done" ? "done" : "retry")),
      Effect.withSpan(`due_work ${item.kind}`, {
        kind: "consumer",
        attributes: {
          "paykit.due_work.kind": item.kind,
          "paykit.due_work.key": item.key,
          "paykit.due_work.attempt": item.attempt,
          "paykit.organisation": item.organisation
        },
        links,
        ...(scheduler === undefined ? {} : { parent: scheduler })
      }),
      // What the item schedules is its own work: keeping its span would chain every day's daily run into one trace.
      Effect.provideService(KeepsCallerTrace, false),
      Effect.withTracerEnabled(true)
    )
  })

const lagOf = labelled(PaykitMetrics.dueWorkLag)
const itemsOf = labelled(PaykitMetrics.dueWorkItems)

/**
 * An item's run, measured: its lag as it starts (the instant it runs at, less when it fell due,
 * both on its organisation's clock: a poll's item runs at its clock's now, an advance's at its own
 * instant) and its outcome as it ends. An interrupted run counts nothing: its row runs again.
 */
const measured = <A extends { readonly value: DueOutcome }, E, R>(item: ClaimedDueItem, instant: number, run: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.andThen(
    Metric.update(lagOf({ kind: item.kind }), Math.max(0, instant - item.dueAt) / 1000),
    Effect.onExit(run, (exit) =>
      Exit.isSuccess(exit)
        ? Metric.update(itemsOf({ kind: item.kind, outcome: exit.value.value._tag === "Done" ? "done" : "retried" }), 1)
        : Cause.hasInterruptsOnly(exit.cause) ? Effect.void : Metric.update(itemsOf({ kind: item.kind, outcome: "failed" }), 1))
  )

/** What the worker's loops share: its store, its lease, the pumps and the run of one claimed item. */
interface Runner {
  readonly store: DueWorkStore["Service"]
  readonly owner: string
  /** Real time (the clock the worker was built under). */
  readonly realNow: Effect.Effect<number, StorageFailure>
  /** A lease for `claimer` from now: the polling worker's is `owner`, each advance's a name of its own. */
  readonly lease: (claimer: string) => Effect.Effect<DueLease, StorageFailure>
  /** A fresh claimer name for one advance. */
  readonly advanceClaimer: Effect.Effect<string, StorageFailure>
  readonly leaseMillis: number
  readonly kinds: ReadonlySet<string>
  readonly runPumps: (organisation: string | undefined, nowOf: (organisation: string) => Effect.Effect<number, StorageFailure>) => Effect.Effect<void, StorageFailure>
  /** An organisation's time now on its stored clock (real time plus its offset). */
  readonly storedNowOf: (organisation: string) => Effect.Effect<number, StorageFailure>
  readonly runAt: (item: ClaimedDueItem, instant: number, claimer: string) => Effect.Effect<{ readonly value: DueOutcome; readonly endedAt: number }, StorageFailure>
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
    // The worker's loops run with tracing off (`quietly`); an item's run turns it back on if it was.
    const tracing = yield* References.TracerEnabled
    let advances = 0

    /** The item's handler and its completion: one unit of work, or the handler's own then the completion's. */
    const handle = (item: ClaimedDueItem, claimer: string): Effect.Effect<DueOutcome, StorageFailure> => {
      const kind = kinds.get(item.kind)
      if (kind === undefined) return Effect.die(new Error(`due work: no handler for the kind ${item.kind}`))
      const complete = (outcome: DueOutcome) => Effect.as(store.complete(item, claimer, outcome), outcome)
      const run = kind.ownUnitsOfWork === true
        ? Effect.flatMap(kind.run(item), (outcome) => transactor.transaction(complete(outcome)))
        : transactor.transaction(Effect.flatMap(kind.run(item), complete))
      return tracing ? itemSpan(item, run) : run
    }

    /**
     * While an item runs, its lease is extended every third of its length, so an item that runs
     * longer than the lease (a large organisation's daily run) is not claimed a second time; it
     * stops once the claimer no longer holds the row, or if the store fails (then the lease runs
     * out as it would for a dead process).
     */
    const keepLease = (item: ClaimedDueItem, claimer: string): Effect.Effect<void, StorageFailure> =>
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
          measured(item, instant, Effect.scoped(Effect.andThen(Effect.forkScoped(keepLease(item, claimer)), atInstant(instant, handle(item, claimer), real)))),
          () => store.release(item, claimer)
        ).pipe(forOrganisation(item.organisation))
    }
    return runner
  })

/** Claims and runs the rows due now, one at a time; a failed one is logged and tried again after a backoff. */
const runDueWith = (r: Runner): Effect.Effect<number, StorageFailure> =>
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
  | { readonly _tag: "Failed"; readonly item: ClaimedDueItem; readonly cause: Cause.Cause<StorageFailure> }

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
): Effect.Effect<Step, StorageFailure> =>
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
  readonly failed: Cause.Cause<StorageFailure> | undefined
}

/**
 * Runs the rows of one organisation due up to `target`, in due order, each at its instant, rows
 * created meanwhile included and rows leased by anyone else waited for. A row that fails stops the
 * run, its lease freed.
 */
const runUpTo = (r: Runner, organisation: string, target: number, startOffset: number): Effect.Effect<RunUpTo, StorageFailure> =>
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
const runAllUpTo = (r: Runner, target: number): Effect.Effect<RunUpTo, StorageFailure> =>
  Effect.gen(function*() {
    const claimer = yield* r.advanceClaimer
    const setAside: Array<ClaimedDueItem> = []
    const run = Effect.gen(function*() {
      let [reached, upTo] = [0, target]
      let failed: { readonly reached: number; readonly cause: Cause.Cause<StorageFailure> } | undefined
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
    // A release that fails leaves the lease to run out, after which the row is claimed again.
    const putBack = Effect.suspend(() => Effect.forEach(setAside, (item) => Effect.ignore(r.store.release(item, claimer)), { discard: true }))
    return yield* Effect.ensuring(run, putBack)
  })

/**
 * One organisation's rows up to `target`, in due order, each at its instant (`DueWorker.advance`).
 * The organisation's clock is written once, at the end (or before a failure, where it stopped): a
 * clock written per row rewrote the organisation's access tokens (server migration 0008) once a row.
 */
const advanceWith = (r: Runner) => (organisation: string, target: number, fromTime?: number): Effect.Effect<void, StorageFailure> =>
  forOrganisation(organisation)(Effect.gen(function*() {
    const startOffset = yield* r.store.offsetOf(organisation)
    const from = fromTime ?? (yield* r.realNow) + startOffset
    const run = yield* runUpTo(r, organisation, target, startOffset)
    if (run.failed !== undefined) {
      yield* r.store.raiseOffset(organisation, run.reached)
      return yield* Effect.failCause(run.failed)
    }
    // "by P1D" moves the clock by exactly one day: the target, plus the real time the advance took.
    yield* r.store.raiseOffset(organisation, Math.max(0, run.reached, startOffset + (target - from)))
  }))

/** Every organisation's rows up to `target` on the one clock the worker runs under (`DueWorker.advanceAll`). */
const advanceAllWith = (r: Runner) => (target: number, moveClock: (instant: number) => Effect.Effect<void, StorageFailure>): Effect.Effect<void, StorageFailure> =>
  Effect.gen(function*() {
    const run = yield* runAllUpTo(r, target)
    const reachedAt = (yield* r.realNow) + run.reached
    if (run.failed !== undefined) {
      yield* moveClock(reachedAt)
      return yield* Effect.failCause(run.failed)
    }
    yield* moveClock(Math.max(target, reachedAt))
  })

/** The worker's own statements make no spans (`itemSpan`). */
const quietly = Effect.withTracerEnabled(false)

/** A worker over `declarations` (what `DueWorker.layer` provides; the library's simulator builds its own). */
export const makeDueWorker = (declarations: ReadonlyArray<DueWorkDeclarations>, options: DueWorkerOptions) =>
  Effect.map(makeRunner(declarations, options), (r) =>
    DueWorker.of({
      owner: r.owner,
      kinds: r.kinds,
      runDue: quietly(runDueWith(r)),
      advance: (organisation, target, from) => quietly(advanceWith(r)(organisation, target, from)),
      advanceAll: (target, moveClock) => quietly(advanceAllWith(r)(target, moveClock)),
      nowOf: r.storedNowOf
    }))
