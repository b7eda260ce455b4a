import { Context, Effect, Layer } from "effect"
import type { NotFound } from "@paykit/core"
import type { FilterKeyOf } from "../definition.ts"
import { type Event, events } from "../domain/events.ts"
import type { ListQuery, Page } from "./list-query.ts"
import { type DuplicateId, RepositoryBackend } from "./repository.ts"

export type EventFilterKey = FilterKeyOf<typeof events>

/**
 * The event log (the outbox): events are appended in the same unit of work as the change they
 * record, and are never changed afterwards.
 */
export class EventLog extends Context.Service<EventLog, {
  readonly append: (organisation: string, events: ReadonlyArray<Event>) => Effect.Effect<void>
  readonly get: (organisation: string, id: string) => Effect.Effect<Event, NotFound>
  readonly list: (organisation: string, query: ListQuery<EventFilterKey>) => Effect.Effect<Page<Event>>
  /** Every event matching the filters, oldest first. */
  readonly scan: (organisation: string, filters: ListQuery<EventFilterKey>["filters"]) => Effect.Effect<ReadonlyArray<Event>>
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
      // The batch's inserts in order, as a chain of steps: a change appends one event or two, and
      // `Effect.forEach` builds a loop (an iterator and three closures) around so few.
      const insertFrom = (organisation: string, batch: ReadonlyArray<Event>, index: number): Effect.Effect<void, DuplicateId> => {
        const event = batch[index]
        if (event === undefined) return Effect.void
        const inserted = repository.insert(organisation, event)
        return index === batch.length - 1 ? Effect.asVoid(inserted) : Effect.flatMap(inserted, () => insertFrom(organisation, batch, index + 1))
      }
      return EventLog.of({
        // An event id is fresh from the id generator; a duplicate is a defect, not a domain error.
        append: (organisation, batch) => Effect.orDie(insertFrom(organisation, batch, 0)),
        get: (organisation, id) => Effect.map(repository.get(organisation, id), (v) => v.resource),
        list: repository.list,
        scan: (organisation, filters) => Effect.map(repository.scan(organisation, filters), (vs) => vs.map((v) => v.resource))
      })
    })
  )
}
