import { Context, Effect, Layer } from "effect"
import type { DuplicateId, NotFound, StorageError } from "@paykit/core"
import type { FilterKeyOf } from "../definition.ts"
import { type Event, events } from "../domain/events.ts"
import { type Transition, transitions } from "../domain/transitions.ts"
import { eq, type ListQuery, type Page } from "./list-query.ts"
import { RepositoryBackend } from "./repository.ts"

export type EventFilterKey = FilterKeyOf<typeof events>

/** Rows whose ids were just made for them: a taken one is a defect, a storage fault stays typed. */
const freshRows = <A>(write: Effect.Effect<A, DuplicateId | StorageError>): Effect.Effect<A, StorageError> =>
  Effect.catchTag(write, "DuplicateId", Effect.die)

/**
 * The log of what happened: the history entry of every creation and status change a machine
 * accepted (its transitions), and the API events (the outbox), most of them derived from those
 * entries. Both are written in the same unit of work as the change they record, and are never
 * changed afterwards.
 */
export class EventLog extends Context.Service<EventLog, {
  readonly append: (organisation: string, events: ReadonlyArray<Event>) => Effect.Effect<void, StorageError>
  /** Appends the history entries of one write, then the events derived from them, in order. */
  readonly record: (organisation: string, entries: ReadonlyArray<Transition>, events: ReadonlyArray<Event>) => Effect.Effect<void, StorageError>
  /** A resource's history, in order: its creation first, then every status change. */
  readonly history: (organisation: string, resourceType: string, id: string) => Effect.Effect<ReadonlyArray<Transition>, StorageError>
  readonly get: (organisation: string, id: string) => Effect.Effect<Event, NotFound | StorageError>
  readonly list: (organisation: string, query: ListQuery<EventFilterKey>) => Effect.Effect<Page<Event>, StorageError>
  /** Every event matching the filters, oldest first. */
  readonly scan: (organisation: string, filters: ListQuery<EventFilterKey>["filters"]) => Effect.Effect<ReadonlyArray<Event>, StorageError>
}>()("@paykit/engine/EventLog") {
  /**
   * The event log of any storage adapter, kept as the `events` resource of its repository backend,
   * so it shares the backend's unit of work.
   */
  static readonly layerFromBackend: Layer.Layer<EventLog, never, RepositoryBackend> = Layer.effect(
    EventLog,
    Effect.gen(function*() {
      const backend = yield* RepositoryBackend
      const repository = backend.repository(events)
      const history = backend.repository(transitions)
      return EventLog.of({
        // Event ids are fresh from the id generator, history ids the resource's and its sort key's:
        // a duplicate is the defect it is (the unit of work types it again at the boundary, `support.ts`).
        append: (organisation, batch) => freshRows(repository.insertAll(organisation, batch)),
        record: (organisation, entries, batch) =>
          freshRows(
            batch.length === 0
              ? history.insertAll(organisation, entries)
              : Effect.flatMap(history.insertAll(organisation, entries), () => repository.insertAll(organisation, batch))
          ),
        history: (organisation, resourceType, id) =>
          Effect.map(
            history.scan(organisation, { resource_id: eq(id), resource_type: eq(resourceType) }),
            // Ids are in time order; the sort key is the resource's own order, whatever the clock did.
            (rows) => rows.map((row) => row.resource).sort((a, b) => a.sort_key - b.sort_key)
          ),
        get: (organisation, id) => Effect.map(repository.get(organisation, id), (v) => v.resource),
        list: repository.list,
        scan: (organisation, filters) => Effect.map(repository.scan(organisation, filters), (vs) => vs.map((v) => v.resource))
      })
    })
  )
}
