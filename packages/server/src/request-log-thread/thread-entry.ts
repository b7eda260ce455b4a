import { Effect, ManagedRuntime } from "effect"
import { parentPort, workerData } from "node:worker_threads"
import { recordOf, type RequestLogRecord } from "@paykit/http/stored-log"
import { migrateRequestLog, PgliteClient, pruneRequestLog } from "@paykit/store-sql/request-log"
import { COLUMNS, copyLines, requestLogReads } from "../request-log-rows.ts"
import type { ThreadData, ThreadMessage, ThreadReply, ThreadRequest } from "./messages.ts"

/**
 * The request log's thread: its own PGlite database holding only `request_log` (migrations 0070
 * and 0071), which the server's thread reaches by messages (`thread-store.ts`). The captured
 * requests are parsed, redacted and loaded by `COPY` here, off the thread that answers requests.
 * Messages are taken in order, and the database runs one statement at a time, so a removal is
 * stored after every batch posted before it.
 */

const port = parentPort
if (port === null) throw new Error("the request log's thread runs only as a worker thread")
const data: ThreadData = workerData
const runtime = ManagedRuntime.make(PgliteClient.layer({ dataDir: data.options.dataDir }))

/** The database, brought up to date (an on-disk one keeps its table and its migrations' record from the last run). */
const opened = runtime.runPromise(Effect.gen(function*() {
  const client = yield* PgliteClient.PgliteClient
  yield* migrateRequestLog
  return { client, reads: requestLogReads(client) }
}))
// Each message answers with the failure to open; none is left unhandled before the first arrives.
opened.catch(() => {})

/** Organisations removed while this thread runs: a batch of theirs still on its way is dropped, not stored with nothing to remove it. */
const removed = new Set<string>()

type Client = PgliteClient.PgliteClient
/** PostgreSQL's `unique_violation`: the request id is stored already. */
const UNIQUE_VIOLATION = "23505"
const isStoredAlready = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "code" in error && error.code === UNIQUE_VIOLATION

/** Loads records by `COPY`; `skipStored`: a record whose request id is stored already is no failure (it is there). */
const copy = (client: Client, records: ReadonlyArray<RequestLogRecord>, skipStored: boolean) =>
  runtime.runPromise(client.exclusive((db) =>
    db.query(`COPY request_log (${COLUMNS}) FROM '/dev/blob'`, [], { blob: new Blob([copyLines(records)]) }).then(
      () => undefined,
      (error: unknown) => {
        if (skipStored && isStoredAlready(error)) return
        throw error
      }
    )
  ))

/**
 * A batch by one `COPY`, which stores all its rows or none; should it fail (a request id stored
 * already), a record at a time, each failure losing only its record.
 */
const store = async (client: Client, records: ReadonlyArray<RequestLogRecord>): Promise<void> => {
  const kept = records.filter((record) => !removed.has(record.organisation))
  if (kept.length === 0) return
  try {
    await copy(client, kept, kept.length === 1)
  } catch {
    const failures: Array<unknown> = []
    for (const record of kept) await copy(client, [record], true).catch((failure: unknown) => failures.push(failure))
    if (failures.length > 0) throw new Error(`${failures.length} of ${kept.length} requests could not be stored: ${String(failures[0])}`)
  }
}

const answer = async (request: ThreadRequest): Promise<unknown> => {
  const { client, reads } = await opened
  switch (request.op) {
    case "captured":
      return store(client, request.captures.map(recordOf))
    case "records":
      return store(client, request.records)
    case "list":
      return runtime.runPromise(reads.list(request.organisation, request.query))
    case "find":
      return runtime.runPromise(reads.find(request.organisation, request.requestId))
    case "removeOrganisation":
      removed.add(request.organisation)
      return runtime.runPromise(client`DELETE FROM request_log WHERE organisation_id = ${request.organisation}`.pipe(Effect.asVoid))
    case "prune":
      return runtime.runPromise(pruneRequestLog(client, request.organisation, request.before, request.limit))
    case "close":
      return runtime.dispose()
  }
}

port.on("message", (message: ThreadMessage) => {
  void answer(message.request).then(
    (value): ThreadReply => ({ id: message.id, ok: true, value }),
    (error: unknown): ThreadReply => ({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) })
  ).then((reply) => {
    port.postMessage(reply)
    if (message.request.op === "close") port.close()
  })
})
