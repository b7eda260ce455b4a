import { Cause, Clock, Context, Duration, Effect, Exit, Layer } from "effect"
import { type ClaimedDueItem, type DueKind, type DueLease, type DueOutcome, dueRetryAt, type DueWorkDeclarations, DueWorkStore } from "../ports/due-work.ts"
import { Transactor } from "../ports/repository.ts"
import { atInstant } from "../simulator.ts"

/**
 * The due-work worker: claims due rows with a lease and runs each at its instant, under its
 * organisation's clock, in its own unit of work with its completion. One runs in every server
 * process (`poll`); a sandbox advance drives one organisation's rows up to a target through
 * `advance`. docs/architecture.md, "Due work", says why the claim loop is paykit's own.
 */

/** How often an idle worker looks for due rows (real time). */
export const DUE_POLL_INTERVAL_MS = 250
/** How long a claim holds a row: a worker that dies holding it leaves it to another after this (real time). */
export const DUE_LEASE_MS = 5 * 60_000

/** The message a failed item is logged with; its row is tried again after `dueFailureBackoff`. */
export const DUE_ITEM_FAILED = "due work: item failed; its row is tried again after a backoff"

/** The first retry of a failed item comes this long after its run (its organisation's clock), doubling per attempt. */
export const DUE_FAILURE_FIRST_RETRY_MS = 60_000

/**
 * How long after a failed run its row is due again: a minute, doubling per attempt, at most the
 * lease. The row is rescheduled (attempt + 1) and its lease freed, rather than left leased: a
 * sandbox advance that meets it then runs it (and reports its failure) instead of waiting out the
 * lease, and the attempts count.
 */
export const dueFailureBackoff = (attempt: number, leaseMillis: number): number =>
  Math.min(DUE_FAILURE_FIRST_RETRY_MS * 2 ** attempt, leaseMillis)

export interface DueWorkerOptions {
  /** This worker's name in the leases it takes (one per process). */
  readonly owner: string
  readonly leaseMillis?: number
}

export class DueWorker extends Context.Service<DueWorker, {
  readonly owner: string
  /** Claims and runs rows due now, one at a time, until none is due; answers how many ran. */
  readonly runDue: Effect.Effect<number>
  /**
   * Runs the organisation's rows due up to `target` (its clock) in due order, each at its instant,
   * rows created meanwhile included and rows leased elsewhere waited for, moving its clock to each
   * row's instant once it completed, then to `target`. A row that fails stops the advance with
   * its failure, the clock before it. `from` is the organisation's time the target was computed
   * from (the clock then moves by exactly `target - from`); by default its time now.
   */
  readonly advance: (organisation: string, target: number, from?: number) => Effect.Effect<void>
  /** The organisation's time now (real time plus its offset). */
  readonly nowOf: (organisation: string) => Effect.Effect<number>
}>()("@paykit/engine/DueWorker") {
  static readonly layer = (
    declarations: ReadonlyArray<DueWorkDeclarations>,
    options: DueWorkerOptions
  ): Layer.Layer<DueWorker, never, DueWorkStore | Transactor> => Layer.effect(DueWorker, makeWorker(declarations, options))

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

/**
 * One organisation's rows up to `target`, in due order, each at its instant (`DueWorker.advance`).
 * The advance keeps how far it got (`reached`, an offset ahead of real time) and writes the
 * organisation's clock once, at the end (or before a failure, where it stopped): a clock written
 * per row rewrote the organisation's access tokens (server migration 0008) once a row.
 */
const advanceWith = (r: Runner) => (organisation: string, target: number, fromTime?: number): Effect.Effect<void> =>
  Effect.gen(function*() {
    const start = yield* r.realNow
    const startOffset = yield* r.store.offsetOf(organisation)
    const from = fromTime ?? start + startOffset
    const claimer = yield* r.advanceClaimer
    let reached = startOffset
    const nowOf = (o: string) => o === organisation ? Effect.map(r.realNow, (now) => now + reached) : r.storedNowOf(o)
    while (true) {
      yield* r.runPumps(organisation, nowOf)
      const current = yield* r.lease(claimer)
      const next = yield* r.store.claimNextOf(organisation, target, current)
      if (next._tag === "None") break
      if (next._tag === "Leased") {
        yield* Effect.sleep(DUE_POLL_INTERVAL_MS)
        continue
      }
      const item = next.item
      const exit = yield* Effect.exit(r.runAt(item, Math.max(item.dueAt, current.realNow + reached), claimer))
      if (Exit.isFailure(exit)) {
        yield* r.store.release(item, claimer)
        yield* r.store.raiseOffset(organisation, reached)
        return yield* Effect.failCause(exit.cause)
      }
      // A clock never runs behind real time (an item run at "now" ends a few milliseconds behind it).
      reached = Math.max(reached, exit.value.endedAt - (yield* r.realNow))
    }
    // "by P1D" moves the clock by exactly one day: the target, plus the real time the advance took.
    yield* r.store.raiseOffset(organisation, Math.max(0, reached, startOffset + (target - from)))
  })

const makeWorker = (declarations: ReadonlyArray<DueWorkDeclarations>, options: DueWorkerOptions) =>
  Effect.map(makeRunner(declarations, options), (r) =>
    DueWorker.of({
      owner: r.owner,
      runDue: runDueWith(r),
      advance: advanceWith(r),
      nowOf: r.storedNowOf
    }))
