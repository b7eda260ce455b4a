import { Context, type Effect } from "effect"

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
export interface DueKind {
  readonly kind: string
  readonly run: (item: DueItem) => Effect.Effect<DueOutcome>
}

/** What a use case asks for: run `kind`/`key` for `organisation` at `dueAt` (its organisation's clock). */
export interface DueRequest {
  readonly organisation: string
  readonly kind: string
  readonly key: string
  readonly dueAt: number
}

/**
 * The port use cases schedule through. `schedule` joins the caller's unit of work (it commits with
 * the resource that made it due, or not at all); scheduling a key that is already pending keeps
 * one row, due at the earlier of the two instants.
 */
export class DueWorkSchedule extends Context.Service<DueWorkSchedule, {
  readonly schedule: (request: DueRequest) => Effect.Effect<void>
}>()("@paykit/engine/DueWorkSchedule") {}

/**
 * Work that turns what was committed into due rows, run by the worker before each claim and by a
 * sandbox advance before each item (for `organisation` only; `undefined` means every one): the
 * webhooks feature's pump turns the outbox's events into deliveries. A pump reads only what is
 * waiting for it (the outbox holds only events not yet turned into deliveries).
 */
export interface DuePump {
  readonly name: string
  readonly run: (organisation: string | undefined) => Effect.Effect<void>
}

/** What a feature declares to the worker: its kinds of due work and its pumps. */
export interface DueWorkDeclarations {
  readonly kinds: ReadonlyArray<DueKind>
  readonly pumps: ReadonlyArray<DuePump>
}
