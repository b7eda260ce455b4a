import { Context, Effect, Layer } from "effect"
import { join } from "node:path"
import { Worker } from "node:worker_threads"
import type { RequestLogPage, RequestLogRecord } from "@paykit/http"
import { RequestLogStore } from "@paykit/http"
import type { ThreadData, ThreadMessage, ThreadOptions, ThreadReply, ThreadRequest } from "./messages.ts"

/**
 * The stored request log on the embedded store (PGlite): a database of its own, in a thread of its
 * own (`thread-entry.ts`). PGlite runs in the thread that calls it, so with the log in the server's
 * database every logged row's parsing, redaction and `COPY` ran in the thread answering requests,
 * and each `COPY` held the database the requests wait for (docs/architecture.md, "The request
 * log's thread"). Here the server's thread only posts what it captured (a structured clone).
 *
 * The thread starts with the first call, not with the server, so a start does not wait for its
 * database to open; it holds the process open only while a call waits for it, and `close` (the
 * layer's end, after the writer's last flush) closes its database and ends it.
 */

/** Where the log lives beside an on-disk PGlite: a data directory of its own inside the server's. */
export const REQUEST_LOG_DIRECTORY = "request-log"

/** The thread's database for the server's PGlite at `dataDir` (undefined or `memory://…`: in memory). */
export const threadOptionsFor = (dataDir: string | undefined): ThreadOptions => ({
  dataDir: dataDir === undefined || dataDir.startsWith("memory://") ? undefined : join(dataDir, REQUEST_LOG_DIRECTORY)
})

/**
 * What the log's storage must do when an organisation goes or its old records expire, when it is
 * not the server's database (where the removal's transaction and `RetentionSql` do it).
 */
export class RequestLogUpkeep extends Context.Service<RequestLogUpkeep, {
  /** Removes the organisation's records, and drops any of its records still on their way. */
  readonly removeOrganisation: (organisation: string) => Effect.Effect<void>
  /** Removes at most `limit` of the organisation's records older than `before` (ISO 8601); answers how many. */
  readonly prune: (organisation: string, before: string, limit: number) => Effect.Effect<number>
}>()("@paykit/server/RequestLogUpkeep") {
  /** The log is in the server's database: its removal and retention cover it. */
  static readonly inServerDatabase: Layer.Layer<RequestLogUpkeep> = Layer.succeed(RequestLogUpkeep, RequestLogUpkeep.of({
    removeOrganisation: () => Effect.void,
    prune: () => Effect.succeed(0)
  }))
}

const sourceEntry = import.meta.url.endsWith(".ts")
const ENTRY = new URL(sourceEntry ? "./thread-entry.ts" : "./thread-entry.js", import.meta.url)
/** From the sources the thread registers tsx's loader first (`source-boot.mjs`), under the sources' export condition. */
const BOOT = new URL("./source-boot.mjs", import.meta.url)

interface Waiting {
  readonly resolve: (value: unknown) => void
  readonly reject: (error: Error) => void
}

/** The thread's client: each call a message, answered by its id. */
const makeThreadClient = (options: ThreadOptions) => {
  let worker: Worker | undefined
  let next = 0
  const waiting = new Map<number, Waiting>()

  const failAll = (error: Error) => {
    for (const call of waiting.values()) call.reject(error)
    waiting.clear()
  }

  const start = (): Worker => {
    const data: ThreadData = sourceEntry ? { options, entry: ENTRY.href } : { options }
    const started = sourceEntry
      ? new Worker(BOOT, { workerData: data, execArgv: ["--conditions=@paykit/source"] })
      : new Worker(ENTRY, { workerData: data, execArgv: [] })
    started.on("message", (reply: ThreadReply) => {
      const call = waiting.get(reply.id)
      waiting.delete(reply.id)
      if (waiting.size === 0) started.unref()
      if (reply.ok) call?.resolve(reply.value)
      else call?.reject(new Error(`request log: ${reply.error}`))
    })
    started.on("error", (error) => {
      if (worker === started) worker = undefined
      failAll(error)
    })
    started.on("exit", (code) => {
      if (worker === started) worker = undefined
      failAll(new Error(`the request log's thread ended (exit code ${code})`))
    })
    started.unref()
    return started
  }

  const call = (request: ThreadRequest): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const thread = worker ??= start()
      const id = next++
      waiting.set(id, { resolve, reject })
      thread.ref()
      const message: ThreadMessage = { id, request }
      thread.postMessage(message)
    })

  return {
    call,
    /** Closes the thread's database and ends the thread (nothing when it never started). */
    close: async (): Promise<void> => {
      const thread = worker
      if (thread === undefined) return
      await call({ op: "close" }).catch(() => undefined)
      worker = undefined
      await thread.terminate()
    }
  }
}

/** The thread's answers, typed by the operation that asked (its entry answers each with that operation's value). */
const asVoid = (answer: Promise<unknown>): Promise<void> => answer.then(() => undefined)
const asPage = (answer: Promise<unknown>) => answer as Promise<RequestLogPage>
const asRecord = (answer: Promise<unknown>) => answer as Promise<RequestLogRecord | undefined>
const asCount = (answer: Promise<unknown>) => answer.then((n) => typeof n === "number" ? n : 0)

/**
 * Which of `organisations` the server still has. A batch is posted only with their records: the
 * log's database holds no organisations, and a record of one removed meanwhile must not be left
 * behind with nothing to remove it (one removed after the check is dropped by the thread, which
 * takes the removal after the batch).
 */
export type PresentOrganisations = (organisations: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>>

/** `RequestLogStore` and `RequestLogUpkeep` on the request log's thread, its database placed by `options`. */
export const requestLogThread = (options: ThreadOptions, present: PresentOrganisations): Layer.Layer<RequestLogStore | RequestLogUpkeep> =>
  Layer.effectContext(Effect.gen(function*() {
    const thread = yield* Effect.acquireRelease(Effect.sync(() => makeThreadClient(options)), (client) => Effect.promise(() => client.close()))
    const run = <A>(answer: () => Promise<A>): Effect.Effect<A> => Effect.orDie(Effect.tryPromise(answer))
    /** `items` of organisations still there, posted as `post` makes their message; nothing when none is. */
    const postPresent = <I>(items: ReadonlyArray<I>, organisationOf: (item: I) => string, post: (kept: ReadonlyArray<I>) => Promise<unknown>) =>
      items.length === 0 ? Effect.void : Effect.flatMap(present([...new Set(items.map(organisationOf))]), (there) => {
        const kept = there.size === 0 ? [] : items.filter((item) => there.has(organisationOf(item)))
        return kept.length === 0 ? Effect.void : run(() => asVoid(post(kept)))
      })
    const store = RequestLogStore.of({
      append: (records) => postPresent(records, (record) => record.organisation, (kept) => thread.call({ op: "records", records: kept })),
      appendCaptured: (captures) =>
        postPresent(captures, (capture) => capture.caller.organisation, (kept) =>
          thread.call({
            op: "captured",
            // Only what a record keeps of the caller crosses: the rest (its app) need not be cloned.
            captures: kept.map((capture) => ({
              ...capture,
              caller: {
                organisation: capture.caller.organisation,
                scope: capture.caller.scope,
                tokenId: capture.caller.tokenId,
                app: null,
                ...(capture.caller.tokenPrefix === undefined ? {} : { tokenPrefix: capture.caller.tokenPrefix }),
                ...(capture.caller.clockOffsetMillis === undefined ? {} : { clockOffsetMillis: capture.caller.clockOffsetMillis })
              }
            }))
          })),
      list: (organisation, query) => run(() => asPage(thread.call({ op: "list", organisation, query }))),
      find: (organisation, requestId) => run(() => asRecord(thread.call({ op: "find", organisation, requestId })))
    })
    const upkeep = RequestLogUpkeep.of({
      removeOrganisation: (organisation) => run(() => asVoid(thread.call({ op: "removeOrganisation", organisation }))),
      prune: (organisation, before, limit) => run(() => asCount(thread.call({ op: "prune", organisation, before, limit })))
    })
    return Context.make(RequestLogStore, store).pipe(Context.add(RequestLogUpkeep, upkeep))
  }))
