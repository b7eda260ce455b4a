import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { connect, createServer, type Server, type Socket } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { MIGRATIONS_TABLE } from "@paykit/store-sql"
import { json, run, startPostgresServer, startServer, type TestServer } from "./harness.ts"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const health = async (server: TestServer, path: string) => {
  // No token, no version header: a probe knows neither.
  const response = await fetch(`${server.url}${path}`)
  return { status: response.status, body: await json(response) }
}

/**
 * A TCP proxy to PostgreSQL on 127.0.0.1 that the test can cut (every connection dropped, new ones
 * refused, as if the database's host went away) and mend again.
 */
const cuttableProxy = async (target: URL) => {
  const sockets = new Set<Socket>()
  let cut = false
  const proxy: Server = createServer((client) => {
    client.on("error", () => {})
    if (cut) return void client.destroy()
    const upstream = connect(Number(target.port || 5432), target.hostname)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on("error", () => {})
      socket.on("close", () => sockets.delete(socket))
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
  const address = proxy.address()
  const via = new URL(target.toString())
  via.hostname = "127.0.0.1"
  via.port = String(typeof address === "object" && address !== null ? address.port : 0)
  return {
    url: via.toString(),
    cut: () => {
      cut = true
      for (const socket of sockets) socket.destroy()
    },
    mend: () => void (cut = false),
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve()))
  }
}

describe("GET /health/live and /health/ready", () => {
  it("live answers 200; ready answers 200 on a migrated database and 503 once the database is behind this code's migrations", { timeout: 60_000 }, async () => {
    const server = await startServer()
    cleanups.push(() => server.close())
    expect(await health(server, "/health/live")).toEqual({ status: 200, body: { status: "live" } })
    expect(await health(server, "/health/ready")).toEqual({ status: 200, body: { status: "ready", database: "answers", migrations: "current" } })
    // The latest migration forgotten: the database is now as an older paykit left it.
    const latest = await run(server, Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly id: number }>`DELETE FROM ${sql(MIGRATIONS_TABLE)} WHERE migration_id = (SELECT max(migration_id) FROM ${sql(MIGRATIONS_TABLE)}) RETURNING migration_id AS id`
      return Number(rows[0]?.id)
    }))
    const behind = await health(server, "/health/ready")
    expect(behind.status).toBe(503)
    expect(behind.body).toEqual({ status: "not_ready", database: "answers", migrations: "behind", behind: [{ table: MIGRATIONS_TABLE, applied: latest - 1, wanted: latest }] })
    // Still live: the process answers.
    expect((await health(server, "/health/live")).status).toBe(200)
  })

  it.skipIf(process.env["DATABASE_URL"] === undefined)("ready answers 503 when PostgreSQL cannot be reached, and live still 200", { timeout: 60_000 }, async () => {
    const proxy = await cuttableProxy(new URL(process.env["DATABASE_URL"] ?? ""))
    cleanups.push(proxy.close)
    const server = await startPostgresServer(proxy.url)
    // The schema is dropped through the proxy on close: mended first.
    cleanups.push(() => server.close(), proxy.mend)
    expect((await health(server, "/health/ready")).status).toBe(200)
    proxy.cut()
    expect(await health(server, "/health/ready")).toEqual({ status: 503, body: { status: "not_ready", database: "unreachable" } })
    expect((await health(server, "/health/live")).status).toBe(200)
    proxy.mend()
    expect((await health(server, "/health/ready")).status).toBe(200)
  })
})
