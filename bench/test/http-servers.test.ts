import { afterAll, describe, expect, it } from "vitest"
import { type BenchServer, type ServerKind, startServer } from "../support/http-servers.ts"

/**
 * The HTTP benchmark compares each paykit server with a bare `node:http` server that answers the
 * same request with the same body. These tests hold the bare servers to that: a body that drifted
 * (a field the engine gained, a status it now reaches) would make the ratios compare unlike work.
 */
const started: Array<BenchServer> = []
const start = async (kind: ServerKind): Promise<BenchServer> => {
  const server = await startServer(kind)
  started.push(server)
  return server
}
afterAll(() => Promise.all(started.map((s) => s.close())))

interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: unknown
}
const ask = async (server: BenchServer, path: string, post?: true): Promise<Answer> => {
  const response = await fetch(`${server.url}${path}`, post === undefined
    ? { headers: server.headers }
    : { method: "POST", body: server.outboundBody, headers: { ...server.headers, "content-type": "application/json" } })
  return { status: response.status, headers: response.headers, body: await response.json() }
}

/** Ids and times differ between two servers by nature; every other value, and every key's place, must not. */
const shapeOf = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(shapeOf)
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(Object.entries(value).map(([key, v]): [string, unknown] => {
    if (typeof v === "string" && (key === "id" || key === "created_at" || key.endsWith("_id") || /^[A-Z]{2,3}[0-9A-Z]{10,}$/.test(v))) return [key, "<id or time>"]
    return [key, shapeOf(v)]
  }))
}
const keysInOrder = (value: unknown): unknown =>
  typeof value !== "object" || value === null ? typeof value : Array.isArray(value) ? value.map(keysInOrder) : Object.entries(value).map(([k, v]) => [k, keysInOrder(v)])

const expectSameAnswer = (paykit: Answer, bare: Answer, headers: ReadonlyArray<string>) => {
  expect(bare.status).toBe(paykit.status)
  expect(keysInOrder(bare.body)).toEqual(keysInOrder(paykit.body))
  expect(shapeOf(bare.body)).toEqual(shapeOf(paykit.body))
  for (const name of headers) expect(bare.headers.has(name), name).toBe(paykit.headers.has(name))
}

describe("bench servers in memory answer alike", () => {
  it("POST /outbound_payments: the same payment body, Location and rate-limit headers", async () => {
    const paykit = await start("paykit-memory")
    const bare = await start("bare-memory")
    const p = await ask(paykit, "/outbound_payments", true)
    const b = await ask(bare, "/outbound_payments", true)
    expect(p.status).toBe(201)
    expectSameAnswer(p, b, ["location", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "x-request-id"])
  })

  it("GET /payouts/{id}, GET /creditors/{id} and GET /creditors?limit=50: the same bodies", async () => {
    const paykit = await start("paykit-memory")
    const bare = await start("bare-memory")
    for (const path of ["/payouts/PO000000000100", "/creditors/CR000000000100", "/creditors?limit=50"]) {
      const p = await ask(paykit, path)
      expect(p.status, path).toBe(200)
      expectSameAnswer(p, await ask(bare, path), ["x-request-id"])
    }
  })
})

const pairs: ReadonlyArray<readonly [string, ServerKind, ServerKind]> = [
  ["PGlite in memory", "paykit-pglite", "bare-pglite"],
  ["PGlite on a directory, as `npm start` runs it", "paykit-pglite-started", "bare-pglite-file"],
  ["PGlite on a directory, the bare server's statements named", "paykit-pglite-started", "bare-pglite-file-named"],
  ...((process.env["DATABASE_URL"] ?? "") === "" ? [] : [["PostgreSQL", "paykit-postgres-started", "bare-postgres"] as const])
]

describe.each(pairs)("bench servers on %s answer alike", (_name, paykitKind, bareKind) => {
  it("GET /payouts/{id}: the same body", { timeout: 60_000 }, async () => {
    const paykit = await start(paykitKind)
    const bare = await start(bareKind)
    const p = await ask(paykit, "/payouts/PO000000000100")
    expect(p.status).toBe(200)
    expectSameAnswer(p, await ask(bare, "/payouts/PO000000000100"), ["x-request-id"])
  })
})

/** What one request added, table by table (a table it left alone is absent). */
const added = async (server: BenchServer, request: () => Promise<Answer>): Promise<{ readonly answer: Answer; readonly rows: Record<string, number> }> => {
  const counts = server.rowCounts
  if (counts === undefined) throw new Error("this server does not count its rows")
  const before = await counts()
  const answer = await request()
  const after = await counts()
  const rows = Object.fromEntries(Object.entries(after).map(([name, n]): [string, number] => [name, n - (before[name] ?? 0)]).filter(([, n]) => n !== 0))
  return { answer, rows }
}

describe("bench servers on PGlite in memory create alike", () => {
  it("POST /outbound_payments: the same payment body and headers, and the same rows written", { timeout: 60_000 }, async () => {
    const paykit = await start("paykit-pglite")
    const bare = await start("bare-pglite")
    // The first opens the creditor's payment account on both sides; the second finds it.
    for (const account of [1, 0]) {
      const p = await added(paykit, () => ask(paykit, "/outbound_payments", true))
      const b = await added(bare, () => ask(bare, "/outbound_payments", true))
      expect(p.answer.status).toBe(201)
      expectSameAnswer(p.answer, b.answer, ["location", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "x-request-id"])
      expect(b.answer.headers.get("ratelimit-limit")).toBe(p.answer.headers.get("ratelimit-limit"))
      expect(p.rows).toEqual({
        "resources/outbound_payments": 1, ...(account === 1 ? { "resources/payment_accounts": 1 } : {}),
        transitions: 2, events: 2, outbox: 2, "due_work/outbound_approval_expiry": 1
      })
      expect(b.rows).toEqual(p.rows)
    }
  })
})
