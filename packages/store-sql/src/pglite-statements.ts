import { messages as wire, type PGlite, protocol, type Results } from "@electric-sql/pglite"

/**
 * Named prepared statements on a PGlite session, the way `@effect/sql-pg` (its own protocol
 * client) runs every statement on PostgreSQL.
 *
 * PGlite's `query` sends each statement unnamed: parsed, analysed and planned on every run, in six
 * exchanges with the backend. Planning reads the size of every index of every table the statement
 * names, and on a data directory each size is an `lseek` that Emscripten answers with `fstat`:
 * `resources` has 39 indexes, and a primary-key read of it took 0.46 ms, against 0.05 ms as a named
 * statement (planned once, then PostgreSQL's plan cache picks the generic plan) bound and executed
 * in one exchange.
 *
 * The statements are the session's, so the cache is the instance's, keyed by the session's search
 * path and the text (a statement's names resolve in the search path it was parsed under). It holds
 * at most `limit` statements and closes the least recently used beyond that: batch statements come
 * in a shape per batch size.
 */

const { serialize } = protocol

/** How many named statements a PGlite session keeps by default. */
export const DEFAULT_PREPARED_STATEMENTS = 500

interface Field {
  readonly name: string
  readonly dataTypeID: number
}

interface Prepared {
  readonly name: string
  readonly parameterTypes: ReadonlyArray<number>
  readonly fields: ReadonlyArray<Field>
}

/** The statements one PGlite session holds, and those evicted but not yet closed in it. */
export interface StatementCache {
  readonly limit: number
  readonly statements: Map<string, Prepared>
  readonly unclosed: Array<string>
  made: number
}

export const makeStatementCache = (limit: number): StatementCache => ({
  limit,
  statements: new Map(),
  unclosed: [],
  made: 0
})

type BackendMessage = wire.BackendMessage
type ErrorMessage = wire.DatabaseError
const isError = (message: BackendMessage): message is ErrorMessage => message instanceof wire.DatabaseError

/**
 * A statement that must be parsed again: its plan's result columns changed (a table altered under
 * it), or the session lost it (`DEALLOCATE ALL`, `DISCARD ALL`).
 */
const isStale = (error: ErrorMessage): boolean =>
  error.code === "26000" || (error.code === "0A000" && error.message.includes("cached plan must not change result type"))

const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  let length = 0
  for (const part of parts) length += part.length
  const out = new Uint8Array(length)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

const exchange = (db: PGlite, parts: ReadonlyArray<Uint8Array>): Promise<ReadonlyArray<BackendMessage>> =>
  db.execProtocolStream(concat(parts), { throwOnError: false })

const prepare = async (db: PGlite, cache: StatementCache, key: string, text: string): Promise<Prepared> => {
  // Room is made first, so the closes go in the same exchange and the session never holds more.
  for (const [oldest, statement] of cache.statements) {
    if (cache.statements.size < cache.limit) break
    cache.statements.delete(oldest)
    cache.unclosed.push(statement.name)
  }
  const name = `paykit_${++cache.made}`
  const closing = cache.unclosed.splice(0)
  const messages = await exchange(db, [
    ...closing.map((stale) => serialize.close({ type: "S", name: stale })),
    serialize.parse({ name, text }),
    serialize.describe({ type: "S", name }),
    serialize.sync()
  ])
  const failure = messages.find(isError)
  if (failure !== undefined) {
    // The backend stops at the first error: a close it did not reach is tried again next time.
    cache.unclosed.push(...closing)
    throw failure
  }
  let parameterTypes: ReadonlyArray<number> = []
  let fields: ReadonlyArray<Field> = []
  for (const message of messages) {
    if (message instanceof wire.ParameterDescriptionMessage) parameterTypes = message.dataTypeIDs
    if (message instanceof wire.RowDescriptionMessage) {
      fields = message.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID }))
    }
  }
  const prepared: Prepared = { name, parameterTypes, fields }
  cache.statements.set(key, prepared)
  return prepared
}

/** A parameter as PGlite's `query` sends it: by the serializer of the type PostgreSQL inferred. */
const serializeParameter = (db: PGlite, value: unknown, type: number | undefined): string | Uint8Array | null => {
  if (value === null || value === undefined) return null
  const serializer = type === undefined ? undefined : db.serializers[type]
  if (serializer !== undefined) return serializer(value) as string | Uint8Array
  return String(value)
}

const parseField = (db: PGlite, value: string | null, type: number): unknown => {
  if (value === null) return null
  const parser = db.parsers[type]
  return parser === undefined ? value : parser(value, type)
}

/** The commands whose row count PGlite's `query` adds to `affectedRows`. */
const ROW_COUNTING_COMMANDS: ReadonlySet<string> = new Set(["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"])

/** Rows as PGlite's `query` answers them: objects by column name, or arrays with `rowMode: "array"`. */
const resultOf = (
  db: PGlite,
  prepared: Prepared,
  messages: ReadonlyArray<BackendMessage>,
  rowMode: "object" | "array"
): Results<unknown> => {
  const rows: Array<unknown> = []
  let affectedRows = 0
  let rowCount: number | undefined
  const { fields } = prepared
  for (const message of messages) {
    if (message instanceof wire.DataRowMessage) {
      const values = message.fields
      if (rowMode === "array") {
        rows.push(values.map((value, i) => parseField(db, value, fields[i]?.dataTypeID ?? 0)))
      } else {
        const row: Record<string, unknown> = {}
        for (let i = 0; i < values.length; i++) {
          const field = fields[i]
          if (field !== undefined) row[field.name] = parseField(db, values[i] ?? null, field.dataTypeID)
        }
        rows.push(row)
      }
    } else if (message instanceof wire.CommandCompleteMessage) {
      const words = message.text.split(" ")
      const count = Number.parseInt(words[words.length - 1] ?? "", 10)
      if (!Number.isNaN(count)) rowCount = count
      if (ROW_COUNTING_COMMANDS.has(words[0] ?? "")) affectedRows += count
    }
  }
  return { rows, fields: [...fields], affectedRows, ...(rowCount === undefined ? {} : { rowCount }) }
}

/** The session's transaction state after an exchange: `I` idle, `T` in a transaction, `E` failed. */
const statusAfter = (messages: ReadonlyArray<BackendMessage>): string | undefined => {
  const last = messages.findLast((message) => message instanceof wire.ReadyForQueryMessage)
  return last instanceof wire.ReadyForQueryMessage ? last.status : undefined
}

/**
 * Runs `text` as a named statement of the session, preparing it on first use. The caller holds the
 * session (no other statement may run between the prepare and the execute).
 */
export const runPrepared = async (
  db: PGlite,
  cache: StatementCache,
  searchPath: string | undefined,
  text: string,
  params: ReadonlyArray<unknown>,
  rowMode: "object" | "array"
): Promise<Results<unknown>> => {
  const key = `${searchPath ?? ""}\u0000${text}`
  for (let attempt = 1;; attempt++) {
    let prepared = cache.statements.get(key)
    if (prepared === undefined) prepared = await prepare(db, cache, key, text)
    else {
      // Most recently used last: the map's order is the eviction order.
      cache.statements.delete(key)
      cache.statements.set(key, prepared)
    }
    const { name, parameterTypes } = prepared
    const values = params.map((value, i) => serializeParameter(db, value, parameterTypes[i]))
    const messages = await exchange(db, [
      serialize.bind({ statement: name, values }),
      serialize.execute({}),
      serialize.sync()
    ])
    const failure = messages.find(isError)
    if (failure === undefined) return resultOf(db, prepared, messages, rowMode)
    if (!isStale(failure)) throw failure
    cache.statements.delete(key)
    cache.unclosed.push(name)
    // Inside a transaction the error has already failed it: only an idle session may try again.
    if (attempt > 1 || statusAfter(messages) !== "I") throw failure
  }
}
