import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  AuthenticationError,
  GoCardlessClient,
  InvalidApiUsageError,
  ValidationFailedError
} from "gocardless-nodejs"
import { seedCreditors } from "./fixtures.ts"
import { startServer, type TestServer } from "./harness.ts"

/**
 * The official client, unchanged, against the server in-process. The client has no base URL
 * option; its environment picks one of two hosts, and this is the one line that points it at a
 * local server instead (documented in docs/http.md).
 */
const localClient = (token: string, url: string): GoCardlessClient => {
  const client = new GoCardlessClient(token)
  ;(client as unknown as { _api: { _baseUrl: string } })._api._baseUrl = url
  return client
}

let server: TestServer
let token: string
const SEEDED = 120

beforeAll(async () => {
  server = await startServer()
  token = await server.token("OR000001NTER0P")
  await server.runtime.runPromise(seedCreditors("OR000001NTER0P", SEEDED))
})
afterAll(async () => {
  await server.close()
})

describe("gocardless-nodejs against paykit", () => {
  it("walks every page with .all(), newest first, no duplicates", async () => {
    const client = localClient(token, server.url)
    const ids: Array<string> = []
    for await (const c of client.creditors.all({ limit: 7 })) ids.push(c.id ?? "")
    expect(ids).toHaveLength(SEEDED)
    expect(new Set(ids).size).toBe(SEEDED)
    expect([...ids].sort().reverse()).toEqual(ids)
  })

  it("lists a page with meta cursors and the default limit", async () => {
    const client = localClient(token, server.url)
    const page = await client.creditors.list()
    expect(page.creditors).toHaveLength(50)
    expect(page.meta.limit).toBe(50)
    expect(page.meta.cursors.before).toBeNull()
    expect(page.meta.cursors.after).toBe(page.creditors[49]?.id)
    expect((page.__response__ as { headers: Record<string, string> }).headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("filters by created_at operators", async () => {
    const client = localClient(token, server.url)
    const page = await client.creditors.list({ created_at: { gte: "2026-11-20T00:00:00.000Z" }, limit: 500 })
    expect(page.creditors.length).toBeGreaterThan(0)
    expect(page.creditors.every((c) => (c.created_at ?? "") >= "2026-11-20T00:00:00.000Z")).toBe(true)
    expect(page.meta.cursors.after).toBeNull()
  })

  it("finds one resource; another organisation cannot see it", async () => {
    const client = localClient(token, server.url)
    const found = await client.creditors.find("CR000000000001")
    expect(found.name).toBe("Creditor 1")
    const other = localClient(await server.token("OR00000000THER"), server.url)
    const error = await other.creditors.find("CR000000000001").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidApiUsageError)
    expect((error as InvalidApiUsageError).code).toBe(404)
    expect((error as InvalidApiUsageError).errors[0]?.reason).toBe("resource_not_found")
  })

  it("parses a 422 into ValidationFailedError with field and request_pointer", async () => {
    const client = localClient(token, server.url)
    const error = await client.creditors.list({ limit: 501 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationFailedError)
    const e = error as ValidationFailedError
    expect(e.code).toBe(422)
    expect(e.errors[0]).toMatchObject({ field: "limit", request_pointer: "/limit" })
    expect(e.requestId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("parses each 401 reason into AuthenticationError", async () => {
    const unknown = await localClient("nope", server.url).creditors.list().catch((e: unknown) => e)
    expect(unknown).toBeInstanceOf(AuthenticationError)
    expect((unknown as AuthenticationError).errors[0]?.reason).toBe("access_token_not_found")

    const { AccessTokens } = await import("../src/index.ts")
    const { Effect } = await import("effect")
    const revokedToken = await server.token("OR000001NTER0P", "read_write", "AT_revoked")
    const inactiveToken = await server.token("OR000001NTER0P", "read_write", "AT_inactive")
    await server.runtime.runPromise(Effect.flatMap(AccessTokens, (s) => Effect.andThen(s.move("AT_revoked", "revoke"), s.move("AT_inactive", "deactivate"))))
    const revoked = await localClient(revokedToken, server.url).creditors.list().catch((e: unknown) => e)
    expect((revoked as AuthenticationError).errors[0]?.reason).toBe("access_token_revoked")
    const inactive = await localClient(inactiveToken, server.url).creditors.list().catch((e: unknown) => e)
    expect((inactive as AuthenticationError).errors[0]?.reason).toBe("access_token_not_active")
  })
})

describe("creditors create and update through the client", () => {
  it("creates (201, Location), updates, and names bad fields in a ValidationFailedError", async () => {
    const client = localClient(token, server.url)
    const made = await client.creditors.create({ name: "Acme", country_code: "GB", creditor_type: "company" } as never)
    expect((made.__response__ as { statusCode: number }).statusCode).toBe(201)
    expect((made.__response__ as { headers: Record<string, string> }).headers["location"]).toBe(`/creditors/${made.id}`)
    const updated = await client.creditors.update(made.id ?? "", { name: "Acme Ltd" } as never)
    expect(updated.name).toBe("Acme Ltd")
    const error = await client.creditors.create({ country_code: "GB", creditor_type: "company" } as never).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationFailedError)
    expect((error as ValidationFailedError).code).toBe(422)
  })

  it("a read_only token cannot create: 403", async () => {
    const readOnly = localClient(await server.token("OR000001NTER0P", "read_only"), server.url)
    const error = await readOnly.creditors.create({ name: "x", country_code: "GB", creditor_type: "company" } as never).catch((e: unknown) => e)
    expect((error as { code?: number }).code).toBe(403)
  })
})
