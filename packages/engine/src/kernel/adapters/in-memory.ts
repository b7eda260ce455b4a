import { Context, Effect, type Fiber, Layer, Semaphore } from "effect"
import { NotFound } from "@paykit/core"
import { EventLog } from "../ports/event-log.ts"
import { type ListQuery, matchesAll } from "../ports/list-query.ts"
import { DuplicateId, type Repository, RepositoryBackend, Transactor, VersionConflict, type Versioned } from "../ports/repository.ts"
import type { ResourceDefinition } from "../definition.ts"
import { type CommittedTable, commitRow, committedRow, newCommittedTable } from "./committed-table.ts"
import { insertSorted, mergeSorted, pageOfAscending } from "./ordered-page.ts"

/**
 * The in-memory adapter of the storage ports.
 *
 * Committed data is one mutable table per (resource, organisation): its ids in ascending order (ids
 * are time-ordered, so a new id is almost always appended) and its rows by id, in segments
 * (`committed-table.ts`). A transaction never touches them while it runs: its writes go to an
 * overlay (the rows it changed, per table, and the ids it added), which its own reads consult
 * first and which is merged into the tables when it succeeds; on failure the overlay is dropped, which is the rollback. So a write costs
 * O(1) (O(log n) for an id out of order), whatever the size of the store, and readers outside the
 * transaction see only committed rows. Transactions and writes made outside one are serialised by
 * a semaphore, so no two overlays are ever merged over each other; every read is synchronous, so a
 * merge is never seen half done.
 */

type Row = Versioned<unknown>

type Table = CommittedTable<Row>

/** What one transaction wrote to one table. */
interface TableWrites {
  readonly rows: Map<string, Row>
  /** Ids that are not in the committed table, ascending. */
  readonly added: Array<string>
}

/** resource name -> organisation -> T */
type ByTable<T> = Map<string, Map<string, T>>

interface OpenTransaction {
  readonly store: object
  readonly writes: ByTable<TableWrites>
}

/** The transaction open in the current fiber, if any: nested transactions join it. */
const CurrentTransaction = Context.Reference<OpenTransaction | undefined>("@paykit/engine/InMemory/CurrentTransaction", {
  defaultValue: () => undefined
})

const EMPTY_IDS: ReadonlyArray<string> = []

const newTable = (): Table => newCommittedTable()
const newTableWrites = (): TableWrites => ({ rows: new Map(), added: [] })

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

export interface InMemoryStore {
  readonly backend: RepositoryBackend["Service"]
  readonly transactor: Transactor["Service"]
}

export const makeInMemoryStore = (): Effect.Effect<InMemoryStore> =>
  Effect.gen(function*() {
    const identity = {}
    const committed: ByTable<Table> = new Map()
    const lock = yield* Semaphore.make(1)

    const tableOf = (name: string, organisation: string): Table | undefined => committed.get(name)?.get(organisation)
    const writesOf = (tx: OpenTransaction | undefined, name: string, organisation: string): TableWrites | undefined =>
      tx?.writes.get(name)?.get(organisation)

    /** The row as the transaction `tx` sees it (its own write first), or as committed. */
    const rowOf = (tx: OpenTransaction | undefined, name: string, organisation: string, id: string): Row | undefined =>
      writesOf(tx, name, organisation)?.rows.get(id) ?? committedRow(tableOf(name, organisation), id)

    /** Every id of the table as `tx` sees it, ascending. */
    const idsOf = (tx: OpenTransaction | undefined, name: string, organisation: string): ReadonlyArray<string> => {
      const base = tableOf(name, organisation)?.ids ?? EMPTY_IDS
      const added = writesOf(tx, name, organisation)?.added
      return added === undefined || added.length === 0 ? base : mergeSorted(base, added)
    }

    const commit = (writes: ByTable<TableWrites>): void => {
      // forEach rather than for-of: no [key, value] pair is allocated per entry.
      writes.forEach((organisations, name) =>
        organisations.forEach((tableWrites, organisation) => {
          const table = entryOf(committed, name, organisation, newTable)
          tableWrites.rows.forEach((row, id) => commitRow(table, id, row))
        }))
    }

    /**
     * This store's transaction open in the fiber, read straight from the fiber: every read and
     * write asks, and a lookup through Effect's operators cost several steps each time.
     */
    const transactionOf = (fiber: Fiber.Fiber<unknown, unknown>): OpenTransaction | undefined => {
      const tx = fiber.getRef(CurrentTransaction)
      return tx !== undefined && tx.store === identity ? tx : undefined
    }
    /** A synchronous read, in the current transaction's view. */
    const read = <A>(f: (tx: OpenTransaction | undefined) => A) => Effect.withFiberSucceed((fiber) => f(transactionOf(fiber)))

    /**
     * Writes one row: `change` sees the row as the writer sees it and answers the new row or an
     * error. Inside a transaction the row goes to its overlay; outside one it is committed at once,
     * under the lock.
     */
    const writeRow = <E>(name: string, organisation: string, id: string, change: (current: Row | undefined) => Row | E, isRow: (u: Row | E) => u is Row) =>
      Effect.withFiber((fiber): Effect.Effect<Row, E> => {
        const tx = transactionOf(fiber)
        if (tx !== undefined) {
          // Each map is looked up once: the overlay's row, else the committed one.
          const writes = writesOf(tx, name, organisation)
          const pending = writes?.rows.get(id)
          const committedNow = pending === undefined ? committedRow(tableOf(name, organisation), id) : undefined
          const outcome = change(pending ?? committedNow)
          if (!isRow(outcome)) return Effect.fail(outcome)
          // The overlay gets a table only for a write that succeeds.
          const target = writes ?? entryOf(tx.writes, name, organisation, newTableWrites)
          if (pending === undefined && committedNow === undefined) insertSorted(target.added, id)
          target.rows.set(id, outcome)
          return Effect.succeed(outcome)
        }
        return lock.withPermit(Effect.suspend(() => {
          const outcome = change(rowOf(undefined, name, organisation, id))
          if (!isRow(outcome)) return Effect.fail(outcome)
          commitRow(entryOf(committed, name, organisation, newTable), id, outcome)
          return Effect.succeed(outcome)
        }))
      })

    const repository = <A extends { readonly id: string; readonly created_at: string }, K extends string>(
      definition: ResourceDefinition<A, K>
    ): Repository<A, K> => {
      const name = definition.name
      // Rows of this table hold only resources of this definition, written by `insert`/`update` below.
      const typed = (row: Row): Versioned<A> => row as Versioned<A>
      const typedRow = <E>(write: Effect.Effect<Row, E>): Effect.Effect<Versioned<A>, E> => write as Effect.Effect<Versioned<A>, E>
      // The refusals are tagged errors and a row has no tag: one property test, where three
      // `instanceof` checks walked the error classes' prototype chains on every write.
      const isRow = (u: Row | DuplicateId | NotFound | VersionConflict): u is Row => !("_tag" in u)
      return {
        definition,
        get: (organisation, id) =>
          Effect.withFiber((fiber) => {
            const row = rowOf(transactionOf(fiber), name, organisation, id)
            return row === undefined ? Effect.fail(new NotFound({ resource: name, id })) : Effect.succeed(typed(row))
          }),
        list: (organisation, query) =>
          read((tx) => {
            const matching = (id: string): A | undefined => {
              const row = rowOf(tx, name, organisation, id)
              if (row === undefined) return undefined
              const resource = typed(row).resource
              return matchesAll(definition, resource, query.filters) ? resource : undefined
            }
            return pageOfAscending(idsOf(tx, name, organisation), matching, query)
          }),
        scan: (organisation, filters: ListQuery<K>["filters"]) =>
          read((tx) => {
            const out: Array<Versioned<A>> = []
            for (const id of idsOf(tx, name, organisation)) {
              const row = rowOf(tx, name, organisation, id)
              if (row !== undefined && matchesAll(definition, typed(row).resource, filters)) out.push(typed(row))
            }
            return out
          }),
        // The rows written are this definition's resources: the row is retyped, not mapped (a
        // mapping step on every write).
        insert: (organisation, resource) =>
          typedRow(writeRow<DuplicateId>(name, organisation, resource.id, (current) =>
            current !== undefined ? new DuplicateId({ resource: name, id: resource.id }) : { resource, version: 1 }, isRow)),
        update: (organisation, resource, expectedVersion) =>
          typedRow(writeRow<NotFound | VersionConflict>(name, organisation, resource.id, (current) => {
            if (current === undefined) return new NotFound({ resource: name, id: resource.id })
            if (current.version !== expectedVersion) {
              return new VersionConflict({ resource: name, id: resource.id, expectedVersion, actualVersion: current.version })
            }
            return { resource, version: current.version + 1 }
          }, isRow))
      }
    }

    const backend = RepositoryBackend.of({
      repository,
      organisations: read((tx) => {
        const all = new Set<string>()
        for (const byTable of [committed, ...(tx === undefined ? [] : [tx.writes])]) {
          for (const organisations of byTable.values()) for (const organisation of organisations.keys()) all.add(organisation)
        }
        return [...all].sort()
      })
    })

    const transactor = Transactor.of({
      transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.withFiber((fiber): Effect.Effect<A, E, R> => {
          if (transactionOf(fiber) !== undefined) return effect
          // Made in this step, not in a suspended one under the lock: it is this run's own, and
          // nothing reads it before the lock is held.
          const open: OpenTransaction = { store: identity, writes: new Map() }
          return lock.withPermit(Effect.map(Effect.provideService(effect, CurrentTransaction, open), (a) => {
            commit(open.writes)
            return a
          }))
        })
    })
    return { backend, transactor }
  })

/** The in-memory storage: repository backend, unit of work and event log. */
export const InMemoryStorage: Layer.Layer<RepositoryBackend | Transactor | EventLog> = Layer.effectContext(
  Effect.map(makeInMemoryStore(), (store) =>
    Context.make(RepositoryBackend, store.backend).pipe(Context.add(Transactor, store.transactor)))
).pipe((storage) => Layer.provideMerge(EventLog.layerFromBackend, storage))
