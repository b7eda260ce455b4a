import { Context, type Effect } from "effect"
import type { StorageError } from "@paykit/core"
import type { Event } from "../kernel/domain/events.ts"

/** One committed event waiting to be turned into deliveries. */
export interface OutboxEvent {
  readonly organisation: string
  readonly event: Event
  /** The span that appended it, as a W3C `traceparent`; null or absent when it was not traced. */
  readonly traceparent?: string | null | undefined
}

/**
 * The events committed and not yet turned into deliveries: the port of the SQL store's outbox
 * (a trigger queues each event in the transaction that appends it). `take` hands at most `limit`
 * of one organisation's waiting events (of `organisation`, or of whichever organisation's is
 * oldest), oldest first, to `handle`, and removes them in the same transaction if `handle`
 * succeeds; rows another taker holds are skipped, not waited for, so two processes never take one
 * event. It answers how many it took (0: none waiting). Only what waits is read: the outbox holds
 * nothing else. The in-memory store has no outbox: webhook delivery needs the SQL store.
 */
export class WebhookOutbox extends Context.Service<WebhookOutbox, {
  readonly take: <E, R>(
    organisation: string | undefined,
    limit: number,
    handle: (batch: ReadonlyArray<OutboxEvent>) => Effect.Effect<void, E, R>
  ) => Effect.Effect<number, E | StorageError, R>
}>()("@paykit/engine/WebhookOutbox") {}
