import { Context, Effect, type Fiber, Layer, Semaphore } from "effect"
import { NotFound } from "@paykit/core"
import { EventLog } from "../kernel/ports/event-log.ts"
import type { DueWorkSchedule, DueWorkStore } from "../due-work/port.ts"
import { InMemoryDueWork } from "./due-store.ts"
import { type ListQuery, matchesAll, orderedPageOf } from "../kernel/ports/list-query.ts"
import { DuplicateId, type Repository, RepositoryBackend, Transactor, VersionConflict, type Versioned } from "../kernel/ports/repository.ts"
import type { ResourceDefinition } from "../kernel/definition.ts"
import { type CommittedTable, commitRow, committedRow, newCommittedTable } from "./committed-table.ts"
import { insertSorted, mergeSorted, pageOfAscending } from "./ordered-page.ts"

/**
 * The in-memory adapter of the storage ports.
 *
 * Committed data is one mutable table per (resource, organisation): its ids in ascending order (ids
 * are time-ordered, so a new id is almost always appended) and its rows by id, in segments
 * (`committed-table.ts`). A transaction never touches them while it runs: its writes go to an
 * overlay, which its own reads consult first and which is merged into the tables when it
 * succeeds; on failure the overlay is dropped, which is the rollback. So a write costs O(1)
 * (O(log n) for an id out of order), whatever the size of the store, and readers outside the
 * transaction see only committed rows. Transactions and writes made outside one are serialised by
 * a semaphore, so no two overlays are ever merged over each other; every read is synchronous, so a
 * merge is never seen half done.
 */

type Row = Versioned<unknown>

type Table = CommittedTable<Row>

/** resource name -> organisation -> T */
type ByTable<T> = Map<string, Map<string, T>>

/** One row a transaction wrote; a second write of the row replaces `row`. */
interface Write {
  readonly name: string
  readonly organisation: string
  readonly id: string
  row: Row
  /** The row was not committed when the transaction wrote it. */
  readonly added: boolean
}

/**
 * A transaction's overlay: its writes in order, found by a scan while they are few (a unit of
 * work writes a resource, its history rows and events: a handful), by an index past
 * `INDEXED_FROM` (a daily run's). The scan allocates nothing per transaction but the list; the
 * maps per table it replaced were most of a creation's overlay.
 */
interface OpenTransaction {
  readonly store: object
  readonly writes: Array<Write>
  index: Map<string, Write> | undefined
}

const INDEXED_FROM = 16

const keyOf = (name: string, organisation: string, id: string): string => `${name}\u0000${organisation}\u0000${id}`

const findWrite = (tx: OpenTransaction, name: string, organisation: string, id: string): Write | undefined => {
  if (tx.index !== undefined) return tx.index.get(keyOf(name, organisation, id))
  const writes = tx.writes
  for (let i = writes.length - 1; i >= 0; i--) {
    const write = writes[i] as Write
    if (write.id === id && write.name === name && write.organisation === organisation) return write
  }
  return undefined
}

const addWrite = (tx: OpenTransaction, write: Write): void => {
  tx.writes.push(write)
  if (tx.index !== undefined) tx.index.set(keyOf(write.name, write.organisation, write.id), write)
  else if (tx.writes.length > INDEXED_FROM) tx.index = new Map(tx.writes.map((w) => [keyOf(w.name, w.organisation, w.id), w]))
}

/** The transaction open in the current fiber, if any: nested transactions join it. */
const CurrentTransaction = Context.Reference<OpenTransaction | undefined>("@paykit/engine/InMemory/CurrentTransaction", {
  defaultValue: () => undefined
})

const EMPTY_IDS: ReadonlyArray<string> = []

const entryOf = <T>(byTable: ByTable<T>, name: string, organisation: string, make: () => T): T => {
  let organisations = byTable.get(name)
  if (organisations === undefined) {
    organisations = new Map()
    byTable.set(name, organisations)
  }
  let entry = organisations.get(organisation)
  if (entry === undefined) {
    entry = make()
    organisations.set(organisation, entry)
  }
  return entry
}

/** A refusal of a write: a tagged error (a row has no tag). */
type Refusal = DuplicateId | NotFound | VersionConflict

const isRow = (u: Row | Refusal): u is Row => !("_tag" in u)

/** The committed tables, the lock and the transactions' view of both: what the repositories are made over. */
interface Tables {
  readonly identity: object
  readonly committed: ByTable<Table>
  readonly lock: Semaphore.Semaphore
  /** This store's transaction open in the fiber. */
  readonly transactionOf: (fiber: Fiber.Fiber<unknown, unknown>) => OpenTransaction | undefined
  /** The row as the transaction `tx` sees it (its own write first), or as committed. */
  readonly rowOf: (tx: OpenTransaction | undefined, name: string, organisation: string, id: string) => Row | undefined
  /** Every id of the table as `tx` sees it, ascending. */
  readonly idsOf: (tx: OpenTransaction | undefined, name: string, organisation: string) => ReadonlyArray<string>
  /**
   * Writes one row: `change` sees the row as the writer sees it and answers the new row or an
   * error. Inside a transaction the row goes to its overlay; outside one it is committed at once,
   * under the lock.
   */
  readonly writeRow: <E extends Refusal>(name: string, organisation: string, id: string, change: (current: Row | undefined) => Row | E) => Effect.Effect<Row, E>
  /** Writes new resources (version 1), all or none: one whose id exists fails them all (`DuplicateId`). */
  readonly writeNew: (name: string, organisation: string, resources: ReadonlyArray<{ readonly id: string }>) => Effect.Effect<void, DuplicateId>
  readonly commit: (tx: OpenTransaction) => void
}

const makeTables = (lock: Semaphore.Semaphore): Tables => {
  const identity = {}
  const committed: ByTable<Table> = new Map()
  const tableOf = (name: string, organisation: string): Table | undefined => committed.get(name)?.get(organisation)
  const commitOne = (name: string, organisation: string, id: string, row: Row): void =>
    commitRow(entryOf(committed, name, organisation, newCommittedTable<Row>), id, row)

  const rowOf = (tx: OpenTransaction | undefined, name: string, organisation: string, id: string): Row | undefined =>
    (tx === undefined ? undefined : findWrite(tx, name, organisation, id)?.row) ?? committedRow(tableOf(name, organisation), id)

  const idsOf = (tx: OpenTransaction | undefined, name: string, organisation: string): ReadonlyArray<string> => {
    const base = tableOf(name, organisation)?.ids ?? EMPTY_IDS
    if (tx === undefined) return base
    const added: Array<string> = []
    for (const write of tx.writes) if (write.added && write.name === name && write.organisation === organisation) insertSorted(added, write.id)
    return added.length === 0 ? base : mergeSorted(base, added)
  }

  const transactionOf = (fiber: Fiber.Fiber<unknown, unknown>): OpenTransaction | undefined => {
    // Read straight from the fiber: every read and write asks, and a lookup through Effect's
    // operators cost several steps each time.
    const tx = fiber.getRef(CurrentTransaction)
    return tx !== undefined && tx.store === identity ? tx : undefined
  }

  const writeRow = <E extends Refusal>(name: string, organisation: string, id: string, change: (current: Row | undefined) => Row | E) =>
    Effect.withFiber((fiber): Effect.Effect<Row, E> => {
      const tx = transactionOf(fiber)
      if (tx === undefined) {
        return lock.withPermit(Effect.suspend(() => {
          const outcome = change(rowOf(undefined, name, organisation, id))
          if (!isRow(outcome)) return Effect.fail(outcome)
          commitOne(name, organisation, id, outcome)
          return Effect.succeed(outcome)
        }))
      }
      const pending = findWrite(tx, name, organisation, id)
      const committedNow = pending === undefined ? committedRow(tableOf(name, organisation), id) : undefined
      const outcome = change(pending === undefined ? committedNow : pending.row)
      if (!isRow(outcome)) return Effect.fail(outcome)
      if (pending !== undefined) pending.row = outcome
      else addWrite(tx, { name, organisation, id, row: outcome, added: committedNow === undefined })
      return Effect.succeed(outcome)
    })

  /** Checks every id, then writes every row: a duplicate leaves the store as it was. */
  const insertNew = (tx: OpenTransaction | undefined, name: string, organisation: string, resources: ReadonlyArray<{ readonly id: string }>) => {
    for (const { id } of resources) {
      if (rowOf(tx, name, organisation, id) !== undefined) return Effect.fail(new DuplicateId({ resource: name, id }))
    }
    for (const resource of resources) {
      const row: Row = { resource, version: 1 }
      if (tx === undefined) commitOne(name, organisation, resource.id, row)
      else addWrite(tx, { name, organisation, id: resource.id, row, added: true })
    }
    return Effect.void
  }

  const writeNew = (name: string, organisation: string, resources: ReadonlyArray<{ readonly id: string }>) =>
    Effect.withFiber((fiber): Effect.Effect<void, DuplicateId> => {
      const tx = transactionOf(fiber)
      return tx === undefined ? lock.withPermit(Effect.suspend(() => insertNew(undefined, name, organisation, resources))) : insertNew(tx, name, organisation, resources)
    })

  const commit = (tx: OpenTransaction): void => {
    for (const { name, organisation, id, row } of tx.writes) commitOne(name, organisation, id, row)
  }

  return { identity, committed, lock, transactionOf, rowOf, idsOf, writeRow, writeNew, commit }
}

const makeRepository = <A extends { readonly id: string; readonly created_at: string }, K extends string>(
  tables: Tables,
  definition: ResourceDefinition<A, K>
): Repository<A, K> => {
  const { transactionOf, rowOf, idsOf, writeRow, writeNew } = tables
  const name = definition.name
  // Rows of this table hold only resources of this definition, written by the writes below: a
  // row is retyped, not mapped (a mapping step on every write).
  const typed = (row: Row): Versioned<A> => row as Versioned<A>
  const typedRow = <E>(write: Effect.Effect<Row, E>): Effect.Effect<Versioned<A>, E> => write as Effect.Effect<Versioned<A>, E>
  const read = <B>(f: (tx: OpenTransaction | undefined) => B) => Effect.withFiberSucceed((fiber) => f(transactionOf(fiber)))
  return {
    definition,
    get: (organisation, id) =>
      Effect.withFiber((fiber) => {
        const row = rowOf(transactionOf(fiber), name, organisation, id)
        return row === undefined ? Effect.fail(new NotFound({ resource: name, id })) : Effect.succeed(typed(row))
      }),
    getMany: (organisation, ids) =>
      Effect.withFiber((fiber) => {
        const tx = transactionOf(fiber)
        return Effect.succeed(ids.flatMap((id) => {
          const row = rowOf(tx, name, organisation, id)
          return row === undefined ? [] : [typed(row)]
        }))
      }),
    list: (organisation, query) =>
      read((tx) => {
        const matching = (id: string): A | undefined => {
          const row = rowOf(tx, name, organisation, id)
          if (row === undefined) return undefined
          const resource = typed(row).resource
          return matchesAll(definition, resource, query.filters) ? resource : undefined
        }
        const order = query.order
        if (order === undefined) return pageOfAscending(idsOf(tx, name, organisation), matching, query)
        // An order other than by id: every match, sorted (the reference semantics; memory serves tests and small embeddings).
        const matches = idsOf(tx, name, organisation).flatMap((id) => {
          const resource = matching(id)
          return resource === undefined ? [] : [resource]
        })
        const valueOf = definition.filters[order.key]
        const placeOf = (id: string) => {
          const row = rowOf(tx, name, organisation, id)
          return row === undefined ? undefined : valueOf(typed(row).resource)
        }
        return orderedPageOf(matches, valueOf, order.direction, placeOf, query)
      }),
    scan: (organisation, filters: ListQuery<K>["filters"], page) =>
      read((tx) => {
        const out: Array<Versioned<A>> = []
        const after = page?.after
        for (const id of idsOf(tx, name, organisation)) {
          if (page !== undefined && out.length >= page.limit) break
          if (after !== undefined && id <= after) continue
          const row = rowOf(tx, name, organisation, id)
          if (row !== undefined && matchesAll(definition, typed(row).resource, filters)) out.push(typed(row))
        }
        return out
      }),
    aggregate: (organisation, filters, by, sum) =>
      read((tx) => {
        const groups = new Map<string | null, { key: string | null; count: number; sum: bigint }>()
        for (const id of idsOf(tx, name, organisation)) {
          const row = rowOf(tx, name, organisation, id)
          if (row === undefined) continue
          const resource = typed(row).resource
          if (!matchesAll(definition, resource, filters)) continue
          const key = definition.filters[by](resource)
          const group = groups.get(key) ?? { key, count: 0, sum: 0n }
          groups.set(key, { key, count: group.count + 1, sum: group.sum + BigInt(resource[sum] as number) })
        }
        return [...groups.values()]
      }),
    insert: (organisation, resource) =>
      typedRow(writeRow<DuplicateId>(name, organisation, resource.id, (current) =>
        current !== undefined ? new DuplicateId({ resource: name, id: resource.id }) : { resource, version: 1 })),
    insertAll: (organisation, resources) => writeNew(name, organisation, resources),
    update: (organisation, resource, expectedVersion) =>
      typedRow(writeRow<NotFound | VersionConflict>(name, organisation, resource.id, (current) => {
        if (current === undefined) return new NotFound({ resource: name, id: resource.id })
        if (current.version !== expectedVersion) {
          return new VersionConflict({ resource: name, id: resource.id, expectedVersion, actualVersion: current.version })
        }
        return { resource, version: current.version + 1 }
      }))
  }
}

const makeTransactor = ({ identity, lock, transactionOf, commit }: Tables): Transactor["Service"] =>
  Transactor.of({
    transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.withFiber((fiber): Effect.Effect<A, E, R> => {
        if (transactionOf(fiber) !== undefined) return effect
        // Made in this step, not in a suspended one under the lock: it is this run's own, and
        // nothing reads it before the lock is held.
        const open: OpenTransaction = { store: identity, writes: [], index: undefined }
        // `updateContext` with `Context.add`, not `provideService`: the same context, in fewer allocations.
        return lock.withPermit(Effect.map(Effect.updateContext(effect, (context: Context.Context<R>) => Context.add(context, CurrentTransaction, open)), (a) => {
          commit(open)
          return a
        }))
      })
  })

export interface InMemoryStore {
  readonly backend: RepositoryBackend["Service"]
  readonly transactor: Transactor["Service"]
}

export const makeInMemoryStore = (): Effect.Effect<InMemoryStore> =>
  Effect.map(Semaphore.make(1), (lock) => {
    const tables = makeTables(lock)
    const backend = RepositoryBackend.of({
      repository: (definition) => makeRepository(tables, definition),
      organisations: Effect.withFiberSucceed((fiber) => {
        const all = new Set<string>()
        for (const organisations of tables.committed.values()) for (const organisation of organisations.keys()) all.add(organisation)
        for (const write of tables.transactionOf(fiber)?.writes ?? []) all.add(write.organisation)
        return [...all].sort()
      })
    })
    return { backend, transactor: makeTransactor(tables) }
  })

/** The in-memory storage: repository backend, unit of work and event log. */
export const InMemoryStorage: Layer.Layer<RepositoryBackend | Transactor | EventLog | DueWorkStore | DueWorkSchedule> = Layer.effectContext(
  Effect.map(makeInMemoryStore(), (store) =>
    Context.make(RepositoryBackend, store.backend).pipe(Context.add(Transactor, store.transactor)))
).pipe((storage) => Layer.provideMerge(Layer.merge(EventLog.layerFromBackend, InMemoryDueWork), storage))
