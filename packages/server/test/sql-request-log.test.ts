import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RequestLogRecord, RequestLogStore } from "@paykit/http"
import { PgliteClient } from "@paykit/store-sql"
import { api, flushedRequestLog, startServer, tempDataDir, type TestServer } from "./harness.ts"

/**
 * The request log on PGlite, in its own database in its own thread: what `COPY`'s text format
 * escapes (tabs, line ends, backslashes, quotes, characters beyond ASCII) comes back as it was
 * given, a record of an organisation that does not exist is dropped, a batch the `COPY` refuses
 * (a request id stored already) is stored a record at a time, each row once; the server's own
 * database holds none of the log's rows, and on disk the log is in the data directory's
 * `request-log`, kept across a restart.
 */

const recordOf = (organisation: string, requestId: string, over: Partial<RequestLogRecord> = {}): RequestLogRecord => ({
  organisation,
  requestId,
  createdAt: "2026-11-29T10:00:00.123Z",
  method: "POST",
  path: "/customers",
  query: null,
  status: 201,
  durationMs: 1.25,
  idempotencyKey: null,
  tokenId: "AT000000000001",
  tokenPrefix: "paykit_rw_abcd",
  requestBody: null,
  responseBody: null,
  resourceIds: [],
  ...over
})

describe("the request log's thread on PGlite", () => {
  let server: TestServer
  let organisation = ""
  beforeAll(async () => {
    server = await startServer()
    organisation = server.boot.organisation.id
  }, 120_000)
  afterAll(() => server.close())

  const appended = (records: ReadonlyArray<RequestLogRecord>) =>
    server.runtime.runPromise(Effect.flatMap(RequestLogStore, (store) => store.append(records)))
  const stored = (requestId: string) => server.runtime.runPromise(Effect.flatMap(RequestLogStore, (store) => store.find(organisation, requestId)))

  it("stores each field as given, whatever COPY's text format escapes", async () => {
    const awkward = "tab\there, line\nend, return\r, back\\slash, \"quoted\", \\N, \\t, é, 日本, 🙂"
    const records = [
      recordOf(organisation, "RQ_copy_1", {
        query: { q: awkward, limit: "5" },
        idempotencyKey: "key\twith\\tab",
        requestBody: { customers: { given_name: awkward, nested: [1, 2.5, true, null, { x: awkward }] } },
        responseBody: { customers: { id: "CU000000000001", note: awkward } },
        resourceIds: ["CU000000000001", "CR000000000001"]
      }),
      recordOf(organisation, "RQ_copy_2", { method: "GET", path: "/customers/CU000000000001", status: 404, tokenPrefix: null, responseBody: "a string body" }),
      recordOf(organisation, "RQ_copy_3", { requestBody: 42, responseBody: [awkward] })
    ]
    await appended(records)
    for (const record of records) expect(await stored(record.requestId)).toEqual(record)
  })

  it("drops the record of an organisation that does not exist, keeping the others", async () => {
    await appended([recordOf("OR000000GONE00", "RQ_copy_gone"), recordOf(organisation, "RQ_copy_kept")])
    expect(await stored("RQ_copy_kept")).toEqual(recordOf(organisation, "RQ_copy_kept"))
    const gone = await server.runtime.runPromise(Effect.flatMap(RequestLogStore, (store) => store.find("OR000000GONE00", "RQ_copy_gone")))
    expect(gone).toBeUndefined()
  })

  it("stores a batch COPY refuses a record at a time, each row once", async () => {
    await appended([recordOf(organisation, "RQ_copy_twice")])
    await appended([recordOf(organisation, "RQ_copy_twice", { status: 500 }), recordOf(organisation, "RQ_copy_after")])
    expect(await stored("RQ_copy_twice")).toEqual(recordOf(organisation, "RQ_copy_twice"))
    expect(await stored("RQ_copy_after")).toEqual(recordOf(organisation, "RQ_copy_after"))
  })

  it("writes the requests' rows in its own database: the server's holds none while the log answers", async () => {
    const token = server.boot.accessToken ?? ""
    const answered = await api(server.url, token, "/customers")
    expect(answered.status).toBe(200)
    await flushedRequestLog(server)
    const requestId = answered.headers.get("x-request-id") ?? ""
    expect(await stored(requestId)).toMatchObject({ requestId, method: "GET", path: "/customers", status: 200 })
    const [row] = await server.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM request_log`))
    expect(row?.n).toBe(0)
  })
})

describe("the request log's thread on an on-disk PGlite", () => {
  it("keeps the log in the data directory's request-log, across a restart", { timeout: 120_000 }, async () => {
    const data = tempDataDir()
    try {
      const first = await startServer({ dataDir: data.dir })
      const answered = await api(first.url, first.boot.accessToken ?? "", "/customers")
      const requestId = answered.headers.get("x-request-id") ?? ""
      await flushedRequestLog(first)
      await first.close()
      const logDir = join(data.dir, "request-log")
      expect(existsSync(logDir)).toBe(true)
      const rows = await Effect.runPromise(Effect.provide(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ readonly request_id: string }>`SELECT request_id FROM request_log`),
        PgliteClient.layer({ dataDir: logDir })
      ))
      expect(rows.map((row) => row.request_id)).toContain(requestId)
      const second = await startServer({ dataDir: data.dir })
      try {
        const found = await second.runtime.runPromise(Effect.flatMap(RequestLogStore, (store) => store.find(second.boot.organisation.id, requestId)))
        expect(found?.path).toBe("/customers")
      } finally {
        await second.close()
      }
    } finally {
      data.remove()
    }
  })
})
