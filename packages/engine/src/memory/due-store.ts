import { Context, Effect, Layer, Option, Schema } from "effect"
import { defineResource } from "../kernel/definition.ts"
import { callerTraceparent } from "../due-work/trace-context.ts"
import { type ClaimedDueItem, compareDueOrder, type DueItem, type DueLease, type DueRowKey, DueWorkSchedule, DueWorkStore, type NextDue } from "../due-work/port.ts"
import type { NotFound, StorageError } from "@paykit/core"
import { type DuplicateId, RepositoryBackend, type VersionConflict, type Versioned } from "../kernel/ports/repository.ts"

/**
 * The in-memory `DueWorkStore`, for the library face and the engine's tests. Its rows are a
 * resource of the in-memory backend (`due_work`, never listed by the API), so `schedule` and
 * `complete` join the caller's unit of work and roll back with it, as the SQL store's do. A done
 * row is kept as a tombstone (the repository port has no delete). A claim scans every
 * organisation's rows: this adapter holds a test's or an embedder's few rows, not a service's.
 */

const DueRow = Schema.Struct({
  /** `kind` and `key` joined: unique per organisation, as the SQL table's key. */
  id: Schema.String,
  created_at: Schema.String,
  kind: Schema.String,
  key: Schema.String,
  due_at: Schema.Number,
  attempt: Schema.Number,
  lease_owner: Schema.NullOr(Schema.String),
  lease_until: Schema.NullOr(Schema.Number),
  done: Schema.Boolean,
  /** The span that scheduled it (`DueItem.traceparent`). */
  trace_parent: Schema.optionalKey(Schema.NullOr(Schema.String))
})
type DueRow = typeof DueRow.Type

const dueRows = defineResource({ name: "due_work", idPrefix: null, schema: DueRow, filters: {} })

const rowId = (kind: string, key: string) => `${kind}\u0000${key}`

/** A pending row of `organisation`, with what due order compares. */
interface Pending extends DueRowKey {
  readonly dueAt: number
  readonly row: Versioned<DueRow>
}
const pendingRow = (organisation: string, row: Versioned<DueRow>): Pending =>
  ({ organisation, kind: row.resource.kind, key: row.resource.key, dueAt: row.resource.due_at, row })
const isAmong = (keys: ReadonlyArray<DueRowKey>, row: Pending) =>
  keys.some((k) => k.organisation === row.organisation && k.kind === row.kind && k.key === row.key)
/**
 * No lease holds the row at `realNow`: never leased, freed, or run out. A lease under the caller's
 * own name is not open: a process's polling worker and its advances claim under distinct names.
 */
const leaseOpen = (row: DueRow, realNow: number) => row.lease_until === null || row.lease_until < realNow

/**
 * Runs a read-then-write of one row again, from a fresh read, when another writer changed the row
 * in between (the repository's version check; or inserted it first): the SQL store's statements
 * are atomic, so a lost race there is an answer (nothing claimed, a lease not held), never an
 * error. Each retry follows someone else's progress, so it ends.
 */
const freshly = <A>(attempt: Effect.Effect<A, VersionConflict | DuplicateId | NotFound | StorageError>): Effect.Effect<A, StorageError> =>
  attempt.pipe(
    Effect.retry({ while: (e) => e._tag === "VersionConflict" || e._tag === "DuplicateId" }),
    // Refusals this store's own rows rule out are defects; a storage fault stays typed.
    Effect.catch((e) => e._tag === "StorageError" ? Effect.fail(e) : Effect.die(e))
  )

export const makeInMemoryDueWorkStore = Effect.gen(function*() {
  const backend = yield* RepositoryBackend
  const rows = backend.repository(dueRows)
  const offsets = new Map<string, number>()
  const offsetOf = (organisation: string) => offsets.get(organisation) ?? 0
  const pending = (organisation: string) =>
    Effect.map(rows.scan(organisation, {}), (all) => all.filter((row) => !row.resource.done).map((row) => pendingRow(organisation, row)))
  /** The pending rows of `organisation`, or of every organisation when undefined, in due order. */
  const pendingOfAll = (organisation: string | undefined) =>
    Effect.map(
      Effect.flatMap(organisation === undefined ? backend.organisations : Effect.succeed([organisation]), (all) => Effect.forEach(all, pending)),
      (each) => each.flat().sort(compareDueOrder)
    )
  const find = (item: Pick<DueItem, "organisation" | "kind" | "key">) => Effect.option(rows.get(item.organisation, rowId(item.kind, item.key)))
  /** Writes `change` of the row if `owner` holds its lease; the repository's version check keeps two writers apart. */
  const ifOwned = (item: DueItem, owner: string, change: (row: DueRow) => DueRow): Effect.Effect<boolean, StorageError> =>
    freshly(Effect.flatMap(find(item), (found) =>
      found._tag === "Some" && found.value.resource.lease_owner === owner && !found.value.resource.done
        ? Effect.as(rows.update(item.organisation, change(found.value.resource), found.value.version), true)
        : Effect.succeed(false)))
  /** Leases the row if, read afresh, it is still pending, `due` and not leased; `None` when another claimer took it first. */
  const claim = (organisation: string, id: string, lease: DueLease, due: (row: DueRow) => boolean) =>
    freshly(Effect.flatMap(Effect.option(rows.get(organisation, id)), (found) => {
      if (found._tag === "None" || found.value.resource.done || !due(found.value.resource) || !leaseOpen(found.value.resource, lease.realNow)) {
        return Effect.succeedNone
      }
      return Effect.map(
        rows.update(organisation, { ...found.value.resource, lease_owner: lease.owner, lease_until: lease.until }, found.value.version),
        ({ resource }) => Option.some<ClaimedDueItem>({
          organisation,
          kind: resource.kind,
          key: resource.key,
          dueAt: resource.due_at,
          attempt: resource.attempt,
          traceparent: resource.trace_parent ?? null,
          offsetMillis: offsetOf(organisation)
        })
      )
    }))
  const store = DueWorkStore.of({
    schedule: (request) =>
      Effect.flatMap(request.traceparent === undefined ? callerTraceparent : Effect.succeed(request.traceparent), (traceparent) =>
      freshly(Effect.flatMap(find(request), (found): Effect.Effect<void, VersionConflict | DuplicateId | NotFound | StorageError> => {
        const id = rowId(request.kind, request.key)
        if (found._tag === "None") {
          const row: DueRow = {
            id,
            created_at: new Date(request.dueAt).toISOString(),
            kind: request.kind,
            key: request.key,
            due_at: request.dueAt,
            attempt: 0,
            lease_owner: null,
            lease_until: null,
            done: false,
            trace_parent: traceparent
          }
          return Effect.asVoid(rows.insert(request.organisation, row))
        }
        const current = found.value.resource
        const next: DueRow = current.done
          ? { ...current, due_at: request.dueAt, attempt: 0, lease_owner: null, lease_until: null, done: false, trace_parent: traceparent }
          : { ...current, due_at: Math.min(current.due_at, request.dueAt), trace_parent: current.trace_parent ?? traceparent }
        return Effect.asVoid(rows.update(request.organisation, next, found.value.version))
      }))),
    claimDue: (lease, limit) =>
      Effect.gen(function*() {
        const due = (yield* pendingOfAll(undefined)).filter(({ organisation, row }) =>
          row.resource.due_at <= lease.realNow + offsetOf(organisation) && leaseOpen(row.resource, lease.realNow))
        // Rows another claimer took since the scan are skipped, as SKIP LOCKED skips them on SQL.
        const claimed: Array<ClaimedDueItem> = []
        for (const { organisation, row } of due) {
          if (claimed.length >= limit) break
          const taken = yield* claim(organisation, row.resource.id, lease, (current) => current.due_at <= lease.realNow + offsetOf(organisation))
          if (taken._tag === "Some") claimed.push(taken.value)
        }
        return claimed
      }),
    claimNextOf: (organisation, upTo, lease, passOver = []) =>
      Effect.flatMap(pendingOfAll(organisation), (all): Effect.Effect<NextDue, StorageError> => {
        const next = all.find((row) => !isAmong(passOver, row))
        if (next === undefined || next.row.resource.due_at > upTo) return Effect.succeed({ _tag: "None" })
        if (!leaseOpen(next.row.resource, lease.realNow)) return Effect.succeed({ _tag: "Leased" })
        // Taken meanwhile by another claimer: wait for it like any leased row, as the SQL store does.
        return Effect.map(claim(next.organisation, next.row.resource.id, lease, (current) => current.due_at <= upTo), (taken): NextDue =>
          taken._tag === "Some" ? { _tag: "Claimed", item: taken.value } : { _tag: "Leased" })
      }),
    complete: (item, owner, outcome) =>
      Effect.asVoid(ifOwned(item, owner, (row) =>
        outcome._tag === "Done"
          ? { ...row, done: true, lease_owner: null, lease_until: null }
          : { ...row, due_at: outcome.at, attempt: row.attempt + 1, lease_owner: null, lease_until: null })),
    renew: (item, owner, until) => ifOwned(item, owner, (row) => ({ ...row, lease_until: until })),
    release: (item, owner) => Effect.asVoid(ifOwned(item, owner, (row) => ({ ...row, lease_owner: null, lease_until: null }))),
    offsetOf: (organisation) => Effect.sync(() => offsetOf(organisation)),
    raiseOffset: (organisation, offsetMillis) =>
      Effect.sync(() => {
        if (offsetMillis > offsetOf(organisation)) offsets.set(organisation, offsetMillis)
      }),
    pendingOf: (organisation, kind) =>
      Effect.map(pendingOfAll(organisation), (all) =>
        all.filter((row) => row.kind === kind).map(({ row: { resource } }) => ({
          organisation,
          kind,
          key: resource.key,
          dueAt: resource.due_at,
          attempt: resource.attempt
        })))
  })
  return store
})

/** The in-memory due-work store and the schedule port over it, on the in-memory backend. */
export const InMemoryDueWork: Layer.Layer<DueWorkStore | DueWorkSchedule, never, RepositoryBackend> = Layer.effectContext(
  Effect.map(makeInMemoryDueWorkStore, (store) =>
    Context.make(DueWorkStore, store).pipe(Context.add(DueWorkSchedule, DueWorkSchedule.of({ schedule: store.schedule }))))
)
