import { Context, Effect, Layer, Semaphore } from "effect"
import { NotFound } from "@paykit/core"
import { EventLog } from "../ports/event-log.ts"
import { type ListQuery, matchesAll, pageOf } from "../ports/list-query.ts"
import { DuplicateId, type Repository, RepositoryBackend, Transactor, VersionConflict, type Versioned } from "../ports/repository.ts"
import type { ResourceDefinition } from "../resources/definition.ts"

/**
 * The in-memory adapter of the storage ports. The whole store is one immutable value (resource
 * name -> organisation -> id -> versioned resource); a write replaces the maps on its path and
 * shares the rest (copy-on-write). A transaction works on its own copy of the root and publishes it
 * on success; on failure the copy is dropped, which is the rollback. Transactions and writes made
 * outside one are serialised by a semaphore, so a committed root never loses a concurrent write.
 */

type Rows = ReadonlyMap<string, Versioned<unknown>>
type Table = ReadonlyMap<string, Rows>
type State = ReadonlyMap<string, Table>

interface Cell {
  state: State
}

interface OpenTransaction {
  readonly store: object
  readonly cell: Cell
}

/** The transaction open in the current fiber, if any: nested transactions join it. */
const CurrentTransaction = Context.Reference<OpenTransaction | undefined>("@paykit/engine/InMemory/CurrentTransaction", {
  defaultValue: () => undefined
})

const rowsOf = (state: State, name: string, organisation: string): Rows => state.get(name)?.get(organisation) ?? new Map()

const withRow = (state: State, name: string, organisation: string, id: string, row: Versioned<unknown>): State => {
  const table: Table = state.get(name) ?? new Map()
  const rows = new Map(rowsOf(state, name, organisation))
  rows.set(id, row)
  const nextTable = new Map(table)
  nextTable.set(organisation, rows)
  const next = new Map(state)
  next.set(name, nextTable)
  return next
}

export interface InMemoryStore {
  readonly backend: RepositoryBackend["Service"]
  readonly transactor: Transactor["Service"]
}

export const makeInMemoryStore = (): Effect.Effect<InMemoryStore> =>
  Effect.gen(function*() {
    const identity = {}
    const root: Cell = { state: new Map() }
    const lock = yield* Semaphore.make(1)

    const currentCell = Effect.map(CurrentTransaction, (tx: OpenTransaction | undefined) => (tx !== undefined && tx.store === identity ? tx.cell : undefined))
    const read = Effect.map(currentCell, (cell) => (cell ?? root).state)
    /** Applies a pure change to the open transaction's copy, or atomically to the root. */
    const write = <A, E>(change: (state: State) => { readonly state: State; readonly result: A } | E, isError: (u: A | E) => u is E) =>
      Effect.flatMap(currentCell, (cell) => {
        const apply = (target: Cell) =>
          Effect.suspend(() => {
            const outcome = change(target.state)
            if (isError(outcome as A | E)) return Effect.fail(outcome as E)
            const ok = outcome as { readonly state: State; readonly result: A }
            target.state = ok.state
            return Effect.succeed(ok.result)
          })
        return cell !== undefined ? apply(cell) : lock.withPermit(apply(root))
      })

    const repository = <A extends { readonly id: string; readonly created_at: string }, K extends string>(
      definition: ResourceDefinition<A, K>
    ): Repository<A, K> => {
      const name = definition.name
      // Rows of this table hold only resources of this definition, written by `insert`/`update` below.
      const typed = (row: Versioned<unknown>): Versioned<A> => row as Versioned<A>
      const matching = (organisation: string, filters: ListQuery<K>["filters"]) =>
        Effect.map(read, (state) =>
          [...rowsOf(state, name, organisation).values()]
            .map(typed)
            .filter((row) => matchesAll(definition, row.resource, filters))
            .sort((a, b) => (a.resource.id < b.resource.id ? -1 : a.resource.id > b.resource.id ? 1 : 0)))
      type Written = { readonly state: State; readonly result: Versioned<A> }
      return {
        definition,
        get: (organisation, id) =>
          Effect.flatMap(read, (state) => {
            const row = rowsOf(state, name, organisation).get(id)
            return row === undefined ? Effect.fail(new NotFound({ resource: name, id })) : Effect.succeed(typed(row))
          }),
        list: (organisation, query) =>
          Effect.map(matching(organisation, query.filters), (rows) => pageOf(rows.map((r) => r.resource).reverse(), query)),
        scan: matching,
        insert: (organisation, resource) =>
          write<Versioned<A>, DuplicateId>(
            (state): Written | DuplicateId => {
              if (rowsOf(state, name, organisation).has(resource.id)) return new DuplicateId({ resource: name, id: resource.id })
              const row = { resource, version: 1 }
              return { state: withRow(state, name, organisation, resource.id, row), result: row }
            },
            (u): u is DuplicateId => u instanceof DuplicateId
          ),
        update: (organisation, resource, expectedVersion) =>
          write<Versioned<A>, NotFound | VersionConflict>(
            (state): Written | NotFound | VersionConflict => {
              const current = rowsOf(state, name, organisation).get(resource.id)
              if (current === undefined) return new NotFound({ resource: name, id: resource.id })
              if (current.version !== expectedVersion) {
                return new VersionConflict({ resource: name, id: resource.id, expectedVersion, actualVersion: current.version })
              }
              const row = { resource, version: current.version + 1 }
              return { state: withRow(state, name, organisation, resource.id, row), result: row }
            },
            (u): u is NotFound | VersionConflict => u instanceof NotFound || u instanceof VersionConflict
          )
      }
    }

    const backend = RepositoryBackend.of({
      repository,
      organisations: Effect.map(read, (state) => {
        const all = new Set<string>()
        for (const table of state.values()) for (const organisation of table.keys()) all.add(organisation)
        return [...all].sort()
      })
    })

    const transactor = Transactor.of({
      transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.flatMap(currentCell, (cell): Effect.Effect<A, E, R> =>
          cell !== undefined
            ? effect
            : lock.withPermit(Effect.suspend(() => {
              const working: Cell = { state: root.state }
              return Effect.provideService(effect, CurrentTransaction, { store: identity, cell: working }).pipe(
                Effect.tap(() => Effect.sync(() => { root.state = working.state }))
              )
            })))
    })
    return { backend, transactor }
  })

/** The in-memory storage: repository backend, unit of work and event log. */
export const InMemoryStorage: Layer.Layer<RepositoryBackend | Transactor | EventLog> = Layer.effectContext(
  Effect.map(makeInMemoryStore(), (store) =>
    Context.make(RepositoryBackend, store.backend).pipe(Context.add(Transactor, store.transactor)))
).pipe((storage) => Layer.provideMerge(EventLog.layerFromBackend, storage))
