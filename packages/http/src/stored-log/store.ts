import { Context, Effect, Layer } from "effect"
import type { RequestCapture } from "./writer.ts"

/**
 * The stored request log (docs/dashboard.md, "Request log"): one record per authenticated API
 * request of an organisation, its bodies redacted (`redactBody`), kept as the organisation's
 * events are (the retention setting). `RequestLogStore` is the port; the server's is SQL
 * (`request_log`, store-sql's migration 0070), `layerMemory` keeps the newest
 * `MEMORY_RECORDS_PER_ORGANISATION` of each organisation.
 */

export interface RequestLogRecord {
  readonly organisation: string
  /** The id the client was given (`X-Request-Id`). */
  readonly requestId: string
  /** When it was answered, on the organisation's clock (its events' time): ISO 8601. */
  readonly createdAt: string
  readonly method: string
  /** The path below the mount, without the query. */
  readonly path: string
  /** The query's parameters, redacted; null when none. */
  readonly query: Readonly<Record<string, unknown>> | null
  readonly status: number
  readonly durationMs: number
  readonly idempotencyKey: string | null
  /** The access token's id and its display prefix (`issueAccessToken`): never the token. */
  readonly tokenId: string
  readonly tokenPrefix: string | null
  /** The bodies as JSON, redacted; null when none (or not JSON). */
  readonly requestBody: unknown
  readonly responseBody: unknown
  /** The resources the answer named (`resourceIdsOf`). */
  readonly resourceIds: ReadonlyArray<string>
}

export const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx"] as const
export type StatusClass = (typeof STATUS_CLASSES)[number]

/** The lowest status of a class (`4xx` -> 400); the class holds the hundred from it. */
export const lowestStatusOf = (statusClass: StatusClass): number => Number(statusClass[0]) * 100

/** Where a page starts: older than `after`, or newer than `before` (a record's `cursorOf`). */
export type LogCursor = { readonly _tag: "After" | "Before"; readonly createdAt: string; readonly requestId: string }

export interface RequestLogQuery {
  readonly statusClass?: StatusClass
  /** Paths starting with it. */
  readonly pathPrefix?: string
  /** Records whose answer named this resource. */
  readonly resourceId?: string
  readonly cursor?: LogCursor
  readonly limit: number
}

/** A page, newest first, and whether older records remain after its last one. */
export interface RequestLogPage {
  readonly records: ReadonlyArray<RequestLogRecord>
  readonly more: boolean
}

/** A record's place in the log, as a cursor's text: its time and request id. */
export const cursorOf = (record: Pick<RequestLogRecord, "createdAt" | "requestId">): string => `${record.createdAt}_${record.requestId}`

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([0-9a-f-]{36})$/

/** The cursor's parts, or undefined for text no record's cursor is. */
export const parseCursor = (text: string, tag: LogCursor["_tag"]): LogCursor | undefined => {
  const match = CURSOR.exec(text)
  return match?.[1] === undefined || match[2] === undefined ? undefined : { _tag: tag, createdAt: match[1], requestId: match[2] }
}

export class RequestLogStore extends Context.Service<RequestLogStore, {
  /** Stores records (the writer's batch), each organisation's in its own rows. */
  readonly append: (records: ReadonlyArray<RequestLogRecord>) => Effect.Effect<void>
  /**
   * Stores answered requests as they were captured, making their records itself (`recordOf`):
   * a store in another thread takes the parsing and redaction off the requests' thread. The
   * writer uses it when the store has it, else `append`. A record it cannot store loses itself only.
   */
  readonly appendCaptured?: (captures: ReadonlyArray<RequestCapture>) => Effect.Effect<void>
  readonly list: (organisation: string, query: RequestLogQuery) => Effect.Effect<RequestLogPage>
  readonly find: (organisation: string, requestId: string) => Effect.Effect<RequestLogRecord | undefined>
}>()("@paykit/http/RequestLogStore") {
  /** In memory, the newest records of each organisation (tests, benchmarks, the in-memory app). */
  static readonly layerMemory: Layer.Layer<RequestLogStore> = Layer.sync(RequestLogStore, () => makeMemoryRequestLog())
}

/** How many records the in-memory store keeps per organisation: it is bounded whatever the traffic. */
export const MEMORY_RECORDS_PER_ORGANISATION = 10_000

/** Newest first: later time, then the larger request id. */
const newerFirst = (a: Pick<RequestLogRecord, "createdAt" | "requestId">, b: Pick<RequestLogRecord, "createdAt" | "requestId">): number =>
  a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.requestId < b.requestId ? 1 : a.requestId > b.requestId ? -1 : 0

/** Whether a record passes a query's filters and cursor: the rule the SQL store's statement states too. */
export const matchesQuery = (record: RequestLogRecord, query: RequestLogQuery): boolean => {
  if (query.statusClass !== undefined) {
    const lowest = lowestStatusOf(query.statusClass)
    if (record.status < lowest || record.status >= lowest + 100) return false
  }
  if (query.pathPrefix !== undefined && !record.path.startsWith(query.pathPrefix)) return false
  if (query.resourceId !== undefined && !record.resourceIds.includes(query.resourceId)) return false
  const cursor = query.cursor
  if (cursor === undefined) return true
  const order = newerFirst(record, cursor)
  return cursor._tag === "After" ? order > 0 : order < 0
}

const makeMemoryRequestLog = (): RequestLogStore["Service"] => {
  // Oldest first, as records arrive: a record older than the last (another process's clock) sorts it again.
  const byOrganisation = new Map<string, Array<RequestLogRecord>>()
  return RequestLogStore.of({
    append: (records) =>
      Effect.sync(() => {
        for (const record of records) {
          const kept = byOrganisation.get(record.organisation) ?? []
          const last = kept.at(-1)
          kept.push(record)
          if (last !== undefined && newerFirst(last, record) < 0) kept.sort((a, b) => newerFirst(b, a))
          if (kept.length > MEMORY_RECORDS_PER_ORGANISATION) kept.splice(0, kept.length - MEMORY_RECORDS_PER_ORGANISATION)
          byOrganisation.set(record.organisation, kept)
        }
      }),
    list: (organisation, query) =>
      Effect.sync(() => {
        const matching = [...(byOrganisation.get(organisation) ?? [])].reverse().filter((record) => matchesQuery(record, query))
        // A `before` page is the records just newer than the cursor: the ones nearest it.
        if (query.cursor?._tag === "Before") return { records: matching.slice(-query.limit), more: false }
        return { records: matching.slice(0, query.limit), more: matching.length > query.limit }
      }),
    find: (organisation, requestId) =>
      Effect.sync(() => byOrganisation.get(organisation)?.find((record) => record.requestId === requestId))
  })
}
