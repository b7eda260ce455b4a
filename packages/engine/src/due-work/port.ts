import { Context, type Effect } from "effect"
import type { StorageError, StorageFailure } from "@paykit/core"

/**
 * Due work: everything that falls due is a durable row with the instant it is due (epoch
 * milliseconds on its organisation's clock), found by that instant rather than searched for.
 * A worker in every server process claims due rows with a lease and runs each in its own unit of
 * work; a sandbox advance runs its organisation's rows up to the target. docs/architecture.md,
 * "Due work", says how the claim works and why it is paykit's own.
 */

/** One row of due work as a handler receives it. */
export interface DueItem {
  readonly organisation: string
  /** Which handler runs it (`DueKind.kind`). */
  readonly kind: string
  /** Unique per organisation and kind: scheduling the same key again keeps one row. */
  readonly key: string
  /** When it falls due, epoch milliseconds on the organisation's clock. */
  readonly dueAt: number
  /** How many times it was tried before (0 on the first run). */
  readonly attempt: number
  /** The span that scheduled it, as a W3C `traceparent` (none when tracing was off or no span was open). */
  readonly traceparent?: string | null | undefined
}

/** What a handler answers: the row is done (removed), or it runs again at `at` (its organisation's clock). */
export type DueOutcome =
  | { readonly _tag: "Done" }
  | { readonly _tag: "RetryAt"; readonly at: number }

export const dueDone: DueOutcome = { _tag: "Done" }
export const dueRetryAt = (at: number): DueOutcome => ({ _tag: "RetryAt", at })

/**
 * A kind of due work and its handler. The worker runs `run` under the organisation's clock set to
 * the item's due instant (or later), inside one unit of work with the row's completion: a handler
 * that fails or dies leaves the row to be claimed again once its lease runs out.
 */
export interface DueKind extends DueKindOptions {
  readonly kind: string
  readonly run: (item: DueItem) => Effect.Effect<DueOutcome, StorageFailure>
}

/** What a use case asks for: run `kind`/`key` for `organisation` at `dueAt` (its organisation's clock). */
export interface DueRequest {
  readonly organisation: string
  readonly kind: string
  readonly key: string
  readonly dueAt: number
  /**
   * The span the item's run belongs to, as a W3C `traceparent`; absent, the caller's own
   * (`callerTraceparent`). A row scheduled again keeps the one it has.
   */
  readonly traceparent?: string | null | undefined
}

/**
 * The port use cases schedule through. `schedule` joins the caller's unit of work (it commits with
 * the resource that made it due, or not at all); scheduling a key that is already pending keeps
 * one row, due at the earlier of the two instants.
 */
export class DueWorkSchedule extends Context.Service<DueWorkSchedule, {
  readonly schedule: (request: DueRequest) => Effect.Effect<void, StorageError>
}>()("@paykit/engine/DueWorkSchedule") {}

/**
 * Work that turns what was committed into due rows, run by the worker before each claim and by a
 * sandbox advance before each item (for `organisation` only; `undefined` means every one): the
 * webhooks feature's pump turns the outbox's events into deliveries. A pump reads only what is
 * waiting for it (the outbox holds only events not yet turned into deliveries).
 */
export interface DuePump {
  readonly name: string
  /**
   * `nowOf` answers an organisation's time now, the clock its new rows are due on: real time plus
   * its offset in a poll, the instant reached so far in an advance of it (its stored clock moves
   * only once the advance is done).
   */
  readonly run: (organisation: string | undefined, nowOf: (organisation: string) => Effect.Effect<number, StorageFailure>) => Effect.Effect<void, StorageFailure>
}

/** What a feature declares to the worker: its kinds of due work and its pumps. */
export interface DueWorkDeclarations {
  readonly kinds: ReadonlyArray<DueKind>
  readonly pumps: ReadonlyArray<DuePump>
}

/**
 * A kind whose handler opens its own units of work (the daily run isolates each item of each job
 * in one, `captureDailyItems`) says so: the worker then
 * runs it outside a transaction and completes its row in a unit of work of its own afterwards.
 * Such a handler must be idempotent (it may run again if the process dies before the completion).
 */
export interface DueKindOptions {
  readonly ownUnitsOfWork?: boolean
}

/** A row claimed by a worker: the item, and its organisation's clock offset when it was claimed. */
export interface ClaimedDueItem extends DueItem {
  /** How far the organisation's clock runs ahead of real time, milliseconds (0 in live mode). */
  readonly offsetMillis: number
}

/** The lease a claim takes: who holds it, the real time now and until when (real time, epoch ms). */
export interface DueLease {
  readonly owner: string
  readonly realNow: number
  readonly until: number
}

/** Which row: a row is unique per organisation, kind and key. */
export type DueRowKey = Pick<DueItem, "organisation" | "kind" | "key">

/** Code point order, as PostgreSQL's `COLLATE "C"` sorts UTF-8 text (UTF-16 code units differ past U+FFFF). */
const byCodePoint = (a: string, b: string): number => {
  const [x, y] = [Array.from(a), Array.from(b)]
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0)
    if (d !== 0) return d
  }
  return x.length - y.length
}

/**
 * Due order, the one order every store claims and runs rows in: `dueAt`, then organisation, kind
 * and key by code point (on SQL `ORDER BY due_at, organisation_id, kind, key`, each `COLLATE "C"`).
 * Rows of several organisations due at one instant run in the same order in memory and on SQL,
 * whatever the database's collation: until 2026-11-24 the in-memory store broke ties by kind and
 * key first and the SQL one by organisation first.
 */
export const compareDueOrder = (a: DueRowKey & Pick<DueItem, "dueAt">, b: DueRowKey & Pick<DueItem, "dueAt">): number =>
  a.dueAt - b.dueAt || byCodePoint(a.organisation, b.organisation) || byCodePoint(a.kind, b.kind) || byCodePoint(a.key, b.key)

/**
 * What an organisation's next row up to an instant is, for a sandbox advance: claimed for the
 * caller, held by another worker's lease (wait for it), or none.
 */
export type NextDue =
  | { readonly _tag: "Claimed"; readonly item: ClaimedDueItem }
  | { readonly _tag: "Leased" }
  | { readonly _tag: "None" }

/**
 * The storage of due rows and of each organisation's clock offset (sandbox clocks; none in live
 * mode, which reads 0). `schedule` and `complete` join the caller's unit of work; the claims are
 * their own (a lease must be visible to other workers at once).
 */
export class DueWorkStore extends Context.Service<DueWorkStore, {
  readonly schedule: (request: DueRequest) => Effect.Effect<void, StorageError>
  /**
   * Claims up to `limit` rows due on their organisations' clocks (real time + offset) whose lease
   * is free or ran out, in due order (`compareDueOrder`), leasing them; rows held by a live lease are skipped.
   */
  readonly claimDue: (lease: DueLease, limit: number) => Effect.Effect<ReadonlyArray<ClaimedDueItem>, StorageError>
  /**
   * The organisation's earliest row due at or before `upTo` (its clock), claimed if no lease holds
   * it (never leased, freed, or run out); a live lease is `Leased` even under `lease.owner`, so
   * claimers in one process (its polling worker, each advance) use names of their own.
   * `organisation` undefined: the earliest of every organisation's rows in due order
   * (`compareDueOrder`; the library's simulator, where every organisation runs on one clock).
   */
  readonly claimNextOf: (
    organisation: string | undefined,
    upTo: number,
    lease: DueLease,
    /** Rows passed over as if absent: those failed in this advance, still leased to the caller until it ends. */
    passOver?: ReadonlyArray<DueRowKey>
  ) => Effect.Effect<NextDue, StorageError>
  /**
   * Completes a claimed row: removes it (`Done`), or reschedules it at `at` with attempt + 1 and
   * its lease freed. A row no longer leased to `owner` is left as it is.
   */
  readonly complete: (item: DueItem, owner: string, outcome: DueOutcome) => Effect.Effect<void, StorageError>
  /** Extends `owner`'s lease on the row to `until` (real time); false when `owner` no longer holds it. */
  readonly renew: (item: DueItem, owner: string, until: number) => Effect.Effect<boolean, StorageError>
  /** Ends `owner`'s lease on the row now, so the row can be claimed again at once. */
  readonly release: (item: DueItem, owner: string) => Effect.Effect<void, StorageError>
  /** The organisation's clock offset, milliseconds ahead of real time (0 when it has none). */
  readonly offsetOf: (organisation: string) => Effect.Effect<number, StorageError>
  /** Sets the organisation's offset to `offsetMillis` if that is greater: a clock only moves forward. */
  readonly raiseOffset: (organisation: string, offsetMillis: number) => Effect.Effect<void, StorageError>
  /** The organisation's pending rows of `kind` (for start-up checks and tests). */
  readonly pendingOf: (organisation: string, kind: string) => Effect.Effect<ReadonlyArray<DueItem>, StorageError>
}>()("@paykit/engine/DueWorkStore") {}

/**
 * The due work the engine declares besides the daily run (its deadlines and import validation),
 * for the library's simulator, which runs them as a server's worker does: `engine.ts` composes the
 * features' declarations into it, as it does the `JobRegistry`.
 */
export class DueKinds extends Context.Service<DueKinds, {
  readonly declarations: ReadonlyArray<DueWorkDeclarations>
}>()("@paykit/engine/DueKinds") {}
