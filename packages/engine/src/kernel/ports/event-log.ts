import { Context, Effect, Layer } from "effect"
import type { NotFound } from "@paykit/core"
import type { FilterKeyOf } from "../definition.ts"
import { type Event, events } from "../domain/events.ts"
import { type Transition, transitions } from "../domain/transitions.ts"
import { eq, type ListQuery, type Page } from "./list-query.ts"
import { type DuplicateId, type Repository, RepositoryBackend } from "./repository.ts"

export type EventFilterKey = FilterKeyOf<typeof events>

/**
 * The log of what happened: the history entry of every creation and status change a machine
 * accepted (its transitions), and the API events (the outbox), most of them derived from those
 * entries. Both are written in the same unit of work as the change they record, and are never
 * changed afterwards.
 */
export class EventLog extends Context.Service<EventLog, {
  readonly append: (organisation: string, events: ReadonlyArray<Event>) => Effect.Effect<void>
  /** Appends the history entries of one write, then the events derived from them, in order. */
  readonly record: (organisation: string, entries: ReadonlyArray<Transition>, events: ReadonlyArray<Event>) => Effect.Effect<void>
  /** A resource's history, in order: its creation first, then every status change. */
  readonly history: (organisation: string, resourceType: string, id: string) => Effect.Effect<ReadonlyArray<Transition>>
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
      const history = backend.repository(transitions)
      // The batch's inserts in order, as a chain of steps: a change appends one event or two, and
      // `Effect.forEach` builds a loop (an iterator and three closures) around so few.
      const insertFrom = <A extends { readonly id: string; readonly created_at: string }>(
        target: Repository<A>,
        organisation: string,
        batch: ReadonlyArray<A>,
        index: number,
        then: Effect.Effect<void, DuplicateId>
      ): Effect.Effect<void, DuplicateId> => {
        const row = batch[index]
        if (row === undefined) return then
        const inserted = target.insert(organisation, row)
        if (index === batch.length - 1 && then === Effect.void) return Effect.asVoid(inserted)
        return Effect.flatMap(inserted, () => insertFrom(target, organisation, batch, index + 1, then))
      }
      return EventLog.of({
        // An event id is fresh from the id generator; a duplicate is a defect, not a domain error.
        append: (organisation, batch) => Effect.orDie(insertFrom(repository, organisation, batch, 0, Effect.void)),
        // A history id is the resource's and its sort key's: a duplicate is a defect too.
        record: (organisation, entries, batch) =>
          Effect.orDie(insertFrom(history, organisation, entries, 0, insertFrom(repository, organisation, batch, 0, Effect.void))),
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
