import { GoCardlessClient, IdempotentCreationConflictError } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { IDEMPOTENCY_KEY_LIFETIME_MS } from "@paykit/http"
import { api, json, localClient, startServer, type TestServer } from "./harness.ts"

/** GoCardless's idempotency on the sandbox server, through the official client and plain HTTP. */

const CREDITOR = { name: "Keyed Ltd", country_code: "GB", creditor_type: "company" } as const
const DAY_MS = 24 * 60 * 60 * 1000

let server: TestServer
let token: string
beforeAll(async () => {
  server = await startServer()
  token = server.boot.accessToken ?? ""
})
afterAll(() => server.close())

const createWithKey = (key: string, name: string) =>
  api(server.url, token, "/creditors", { method: "POST", body: { creditors: { ...CREDITOR, name } }, headers: { "idempotency-key": key } })

describe("idempotency keys on the server", () => {
  it("with raiseOnIdempotencyConflict the official client raises IdempotentCreationConflictError naming the first creditor", async () => {
    const first = await localClient(token, server.url).creditors.create(CREDITOR, "strict-key")
    const strict = new GoCardlessClient(token, undefined, { raiseOnIdempotencyConflict: true })
    ;(strict as unknown as { _api: { _baseUrl: string } })._api._baseUrl = server.url
    const error = await strict.creditors.create(CREDITOR, "strict-key").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IdempotentCreationConflictError)
    expect((error as IdempotentCreationConflictError).conflictingResourceId).toBe(first.id)
  })

  it("a key is kept for its lifetime on the server's clock (the sandbox's), then creates afresh", async () => {
    const first = await createWithKey("lifetime-key", "First Ltd")
    expect(first.status).toBe(201)
    const id = ((await json(first))["creditors"] as { id: string }).id
    const advance = (days: number) => api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by: `P${days}D` } })
    const lifetimeDays = IDEMPOTENCY_KEY_LIFETIME_MS / DAY_MS
    expect((await advance(lifetimeDays - 1)).status).toBe(200)
    const within = await createWithKey("lifetime-key", "Second Ltd")
    expect(within.status).toBe(409)
    expect(await json(within)).toMatchObject({ error: { errors: [{ reason: "idempotent_creation_conflict", links: { conflicting_resource_id: id } }] } })
    expect((await advance(1)).status).toBe(200)
    const after = await createWithKey("lifetime-key", "Third Ltd")
    expect(after.status).toBe(201)
    expect(((await json(after))["creditors"] as { id: string }).id).not.toBe(id)
    expect((await createWithKey("lifetime-key", "Fourth Ltd")).status).toBe(409)
  })
})
