import { Context, Effect, Layer } from "effect"
import type { NotFound } from "@paykit/core"
import type { FilterKeyOf } from "../resources/definition.ts"
import { type Event, events } from "../resources/events.ts"
import type { ListQuery, Page } from "./list-query.ts"
import { RepositoryBackend } from "./repository.ts"

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
      return EventLog.of({
        // An event id is fresh from the id generator; a duplicate is a defect, not a domain error.
        append: (organisation, batch) => {
          const [only] = batch
          // Nearly every change appends one event: no loop around it.
          return batch.length === 1 && only !== undefined
            ? Effect.asVoid(Effect.orDie(repository.insert(organisation, only)))
            : Effect.orDie(Effect.forEach(batch, (e) => repository.insert(organisation, e), { discard: true }))
        },
        get: (organisation, id) => Effect.map(repository.get(organisation, id), (v) => v.resource),
        list: repository.list,
        scan: (organisation, filters) => Effect.map(repository.scan(organisation, filters), (vs) => vs.map((v) => v.resource))
      })
    })
  )
}
