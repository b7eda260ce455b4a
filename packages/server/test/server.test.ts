import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, describe, expect, it } from "vitest"
import { hashToken } from "@paykit/http"
import { SANDBOX_CREDITOR } from "../src/index.ts"
import { api, json, localClient, startServer, tempDataDir } from "./harness.ts"

const tokenRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<{ organisation_id: string; token_hash: string; scope: string; status: string }>`SELECT organisation_id, token_hash, scope, status FROM access_tokens`
})

describe("first start", () => {
  const data = tempDataDir()
  afterAll(() => data.remove())

  it("creates a sandbox organisation with a creditor, prints its token once, and stores only the token's hash", async () => {
    const server = await startServer({ dataDir: data.dir })
    try {
      expect(server.boot.created).toBe(true)
      const token = server.boot.accessToken ?? ""
      expect(token).toMatch(/^paykit_rw_/)
      const created = server.lines.find((l) => l.msg.startsWith("sandbox organisation created"))
      expect(created?.["access_token"]).toBe(token)
      expect(created?.["organisation"]).toBe(server.boot.organisation.id)

      const client = localClient(token, server.url)
      const page = await client.creditors.list()
      expect(page.creditors.map((c) => c.name)).toEqual([SANDBOX_CREDITOR.name])
      expect(page.creditors[0]?.id).toBe(server.boot.creditor)

      const rows = await server.runtime.runPromise(tokenRows)
      expect(rows).toEqual([{ organisation_id: server.boot.organisation.id, token_hash: hashToken(token), scope: "read_write", status: "active" }])
      const dump = await server.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT row_to_json(t)::text AS row FROM access_tokens t`))
      expect(JSON.stringify(dump)).not.toContain(token)
    } finally {
      await server.close()
    }
  })

  it("after a restart on the same data directory: the same organisation, no new token, the old one accepted", async () => {
    const first = await startServer({ dataDir: data.dir })
    const organisation = first.boot.organisation.id
    await first.close()
    const again = await startServer({ dataDir: data.dir })
    try {
      expect(again.boot.created).toBe(false)
      expect(again.boot.organisation.id).toBe(organisation)
      expect(again.boot.accessToken).toBeUndefined()
      expect(again.lines.some((l) => "access_token" in l)).toBe(false)
      const rows = await again.runtime.runPromise(tokenRows)
      expect(rows).toHaveLength(1)
    } finally {
      await again.close()
    }
  })

  it("a wrong token is refused with the API's 401", async () => {
    const server = await startServer()
    try {
      const response = await api(server.url, "paykit_rw_not-a-token", "/creditors")
      expect(response.status).toBe(401)
      const body = await json(response)
      expect(body["error"]).toMatchObject({ type: "invalid_api_usage", errors: [{ reason: "access_token_not_found" }] })
    } finally {
      await server.close()
    }
  })
})

describe("the token survives a restart", () => {
  const data = tempDataDir()
  afterAll(() => data.remove())

  it("the token printed on the first start is accepted after a restart", async () => {
    const first = await startServer({ dataDir: data.dir })
    const token = first.boot.accessToken ?? ""
    await first.close()
    const again = await startServer({ dataDir: data.dir })
    try {
      const page = await localClient(token, again.url).creditors.list()
      expect(page.creditors).toHaveLength(1)
    } finally {
      await again.close()
    }
  })
})

describe("PAYKIT_SANDBOX_TOKEN", () => {
  const data = tempDataDir()
  afterAll(() => data.remove())
  const given = "sandbox-token-for-local-development-1"

  it("is the sandbox organisation's token on the first start", async () => {
    const server = await startServer({ dataDir: data.dir, sandboxToken: given })
    try {
      expect(server.boot.accessToken).toBe(given)
      const page = await localClient(given, server.url).creditors.list()
      expect(page.creditors).toHaveLength(1)
    } finally {
      await server.close()
    }
  })

  it("a new one is added to the existing sandbox organisation on a later start, and the old one still works", async () => {
    const other = "another-sandbox-token-2222"
    const server = await startServer({ dataDir: data.dir, sandboxToken: other })
    try {
      expect(server.boot.created).toBe(false)
      expect(server.lines.some((l) => l.msg.startsWith("PAYKIT_SANDBOX_TOKEN added"))).toBe(true)
      // Both tokens are the one sandbox organisation's: they see its one creditor.
      const seen = await Promise.all([given, other].map(async (token) =>
        (await localClient(token, server.url).creditors.list()).creditors.map((c) => c.id)))
      expect(seen[0]).toHaveLength(1)
      expect(seen[1]).toEqual(seen[0])
    } finally {
      await server.close()
    }
  })

  it("is ignored by a live server, which makes its own", async () => {
    const server = await startServer({ mode: "live", sandboxToken: given })
    try {
      expect(server.boot.accessToken).not.toBe(given)
      expect((await api(server.url, given, "/creditors")).status).toBe(401)
    } finally {
      await server.close()
    }
  })
})

describe("idempotency is stored in SQL", () => {
  const data = tempDataDir()
  afterAll(() => data.remove())

  it("a key reused after a restart creates nothing: the client gets the first creditor back, a raw request the 409 naming it", async () => {
    const first = await startServer({ dataDir: data.dir })
    const token = first.boot.accessToken ?? ""
    const body = { name: "Idempotent Ltd", country_code: "GB", creditor_type: "company" } as const
    const created = await localClient(token, first.url).creditors.create(body, "key-restart-1")
    await first.close()

    const again = await startServer({ dataDir: data.dir })
    try {
      const replayed = await localClient(token, again.url).creditors.create(body, "key-restart-1")
      expect(replayed.id).toBe(created.id)
      const conflict = await api(again.url, token, "/creditors", {
        method: "POST",
        body: { creditors: { ...body, name: "Someone Else Ltd" } },
        headers: { "idempotency-key": "key-restart-1" }
      })
      expect(conflict.status).toBe(409)
      expect((await json(conflict))["error"]).toMatchObject({
        errors: [{ reason: "idempotent_creation_conflict", links: { conflicting_resource_id: created.id } }]
      })
      const names = (await localClient(token, again.url).creditors.list()).creditors.map((c) => c.name)
      expect(names.filter((n) => n === body.name)).toHaveLength(1)
    } finally {
      await again.close()
    }
  })
})

describe("GET /", () => {
  it("says what the server is and where its documentation is", async () => {
    const server = await startServer()
    try {
      const response = await fetch(`${server.url}/`)
      expect(response.status).toBe(200)
      expect(await json(response)).toMatchObject({ name: "paykit", mode: "sandbox", documentation: "/docs", openapi: "/openapi.json" })
      expect((await fetch(`${server.url}/docs`)).status).toBe(200)
    } finally {
      await server.close()
    }
  })
})
