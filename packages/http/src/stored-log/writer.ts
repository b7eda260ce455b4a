import { Context, Effect, Layer } from "effect"
import type { JsonBody } from "../api-request.ts"
import type { QueryValues } from "../query-params.ts"
import type { CallerShape } from "../request-context.ts"
import { redactBody, resourceIdsOf } from "./redaction.ts"
import { type RequestLogRecord, RequestLogStore } from "./store.ts"

/**
 * How requests reach the stored log without slowing them: the dispatcher hands each answered,
 * authenticated request to `record` after its answer is written, which only queues what it was
 * given (no parsing, no copying). A flush a moment later (or at once when a batch is full) turns
 * each into its record (bodies parsed and redacted, resources found) and stores the batch in one
 * call. The queue is bounded (`MAX_QUEUED` requests, `MAX_QUEUED_BYTES` of bodies): past either,
 * requests go unlogged and a line says how many. A failed store is a line too; the request it
 * came from was answered long before, so logging never fails a request.
 */

/** What the dispatcher knows of an answered request. */
export interface RequestCapture {
  readonly caller: CallerShape
  readonly requestId: string
  readonly method: string
  readonly path: string
  readonly query: QueryValues
  readonly requestJson: JsonBody
  /** The request body's length as sent (what the queue's bound counts). */
  readonly requestBodyLength: number
  readonly idempotencyKey: string | undefined
  readonly status: number
  readonly responseBody: string
  /** Real time when answered; the record's time adds the organisation's clock offset. */
  readonly answeredAtMillis: number
  readonly durationMs: number
}

export interface RequestRecorder {
  readonly record: (capture: RequestCapture) => void
  /** Stores everything queued so far (a shutdown waits for it). */
  readonly flush: () => Promise<void>
}

/** The dispatcher's recorder: none unless the server provides one (`requestLogWriterLayer`). */
export const CurrentRequestRecorder = Context.Reference<RequestRecorder | undefined>("@paykit/http/CurrentRequestRecorder", {
  defaultValue: () => undefined
})

/** The log's own route: reading the log is not logged, or following it would fill it. */
export const REQUEST_LOGS_PATH = "/request_logs"

/** The most requests queued, and the most body bytes they hold, before requests go unlogged. */
export const MAX_QUEUED = 5_000
export const MAX_QUEUED_BYTES = 16 * 1024 * 1024
/** A body longer than this is stored as a note of its size. */
export const MAX_STORED_BODY_BYTES = 64 * 1024
/** How many records one store call takes, and how long a lone request waits for others to join it. */
export const BATCH = 500
export const FLUSH_DELAY_MS = 200

const omitted = (length: number) => ({ omitted: `a body of ${length} characters, over the log's ${MAX_STORED_BODY_BYTES}` })

const responseJsonOf = (body: string): unknown => {
  if (body.length > MAX_STORED_BODY_BYTES) return omitted(body.length)
  try {
    return body === "" ? null : JSON.parse(body) as unknown
  } catch {
    return null
  }
}

/** The text a body parsed from it serialises to, where redaction left the body as it was: the store need not serialise it again. */
const answeredTexts = new WeakMap<object, string>()

/**
 * A record's body as the JSON text the store keeps: the answer's own text when the body is the
 * answer as parsed (nothing redacted), else the body serialised.
 */
export const storedJsonOf = (body: unknown): string =>
  (typeof body === "object" && body !== null ? answeredTexts.get(body) : undefined) ?? JSON.stringify(body)

const requestJsonOf = (json: JsonBody, length: number): unknown =>
  json._tag !== "Parsed" ? null : length > MAX_STORED_BODY_BYTES ? omitted(length) : redactBody(json.value)

/** A captured request as the record the store keeps. */
export const recordOf = (capture: RequestCapture): RequestLogRecord => {
  const response = responseJsonOf(capture.responseBody)
  const responseBody = redactBody(response)
  if (responseBody === response && typeof response === "object" && response !== null) answeredTexts.set(response, capture.responseBody)
  const query = Object.keys(capture.query).length === 0 ? null : redactBody({ ...capture.query })
  return {
    organisation: capture.caller.organisation,
    requestId: capture.requestId,
    createdAt: new Date(capture.answeredAtMillis + (capture.caller.clockOffsetMillis ?? 0)).toISOString(),
    method: capture.method,
    path: capture.path,
    query: typeof query === "object" && query !== null ? query as Readonly<Record<string, unknown>> : null,
    status: capture.status,
    durationMs: capture.durationMs,
    idempotencyKey: capture.idempotencyKey ?? null,
    tokenId: capture.caller.tokenId,
    tokenPrefix: capture.caller.tokenPrefix ?? null,
    requestBody: requestJsonOf(capture.requestJson, capture.requestBodyLength),
    responseBody,
    resourceIds: resourceIdsOf(response)
  }
}

/** Where the writer says what it could not do: a JSON line on stderr unless replaced. */
export type WriterReport = (message: string, detail?: unknown) => void
const stderrReport: WriterReport = (message, detail) =>
  void process.stderr.write(`${JSON.stringify({ level: "warn", msg: `request log: ${message}`, ...(detail === undefined ? {} : { error: String(detail) }) })}\n`)

const sizeOf = (capture: RequestCapture): number => capture.responseBody.length + capture.requestBodyLength

export const makeRequestLogWriter = (
  store: RequestLogStore["Service"],
  report: WriterReport = stderrReport
): RequestRecorder => {
  let queue: Array<RequestCapture> = []
  let queuedBytes = 0
  let dropped = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let flushing: Promise<void> | undefined

  /** A batch the store refused is tried a record at a time: one bad record loses itself, not its batch. */
  const storeRecords = async (records: ReadonlyArray<RequestLogRecord>): Promise<void> => {
    try {
      await Effect.runPromise(store.append(records))
    } catch (error) {
      if (records.length === 1) return report("a request could not be stored", error)
      for (const record of records) await storeRecords([record])
    }
  }

  const storeCaptured = async (append: NonNullable<RequestLogStore["Service"]["appendCaptured"]>, batch: ReadonlyArray<RequestCapture>): Promise<void> => {
    try {
      await Effect.runPromise(append(batch))
    } catch (error) {
      report(`${batch.length} requests could not be stored`, error)
    }
  }

  const storeBatch = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.slice(0, BATCH)
      queue = queue.slice(BATCH)
      for (const capture of batch) queuedBytes -= sizeOf(capture)
      await (store.appendCaptured === undefined ? storeRecords(batch.map(recordOf)) : storeCaptured(store.appendCaptured, batch))
    }
    if (dropped > 0) {
      report(`${dropped} requests were not logged: the queue was full`)
      dropped = 0
    }
  }

  const flush = (): Promise<void> => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    flushing ??= storeBatch().finally(() => {
      flushing = undefined
      if (queue.length > 0) schedule()
    })
    return flushing
  }

  const schedule = () => {
    if (timer === undefined && flushing === undefined) timer = setTimeout(() => void flush(), queue.length >= BATCH ? 0 : FLUSH_DELAY_MS)
  }

  return {
    record: (capture) => {
      if (capture.path.startsWith(REQUEST_LOGS_PATH)) return
      const bytes = sizeOf(capture)
      if (queue.length >= MAX_QUEUED || queuedBytes + bytes > MAX_QUEUED_BYTES) {
        dropped++
        return
      }
      queue.push(capture)
      queuedBytes += bytes
      schedule()
    },
    flush: async () => {
      while (queue.length > 0 || flushing !== undefined) await flush()
    }
  }
}

/** The writer over the context's store, flushed when the layer closes (before the store's database). */
export const requestLogWriterLayer = Layer.effect(
  CurrentRequestRecorder,
  Effect.gen(function*() {
    const writer = makeRequestLogWriter(yield* RequestLogStore)
    yield* Effect.addFinalizer(() => Effect.promise(() => writer.flush()))
    return writer
  })
)
