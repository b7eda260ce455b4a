import { OpenApi } from "effect/http-api"
import { randomUUID } from "node:crypto"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PaykitApi } from "@paykit/http"
import { api, json, startPostgresServer, startServer } from "./harness.ts"

/**
 * Input the store cannot hold, as users send it, against the real server on PGlite and (with
 * DATABASE_URL) on PostgreSQL, which refuses 0x00 in text: a malformed path id is a 404, a
 * malformed cursor, id filter or link a 422 naming the field, NUL and unpaired surrogates in any
 * string a 422; never a 500, and nothing of it stored.
 */

interface Served {
  readonly url: string
  readonly token: string
  readonly close: () => Promise<void>
}

const onPglite = async (): Promise<Served> => {
  const server = await startServer()
  return { url: server.url, token: server.boot.accessToken ?? "", close: () => server.close() }
}

const onPostgres = async (url: string): Promise<Served> => {
  const server = await startPostgresServer(url)
  return { url: server.url, token: server.boot.accessToken ?? "", close: () => server.close() }
}

/** Every `/{resource}/{id}...` route of the API, with its method. */
const idRoutes = Object.entries(OpenApi.fromApi(PaykitApi).paths).flatMap(([path, item]) =>
  Object.keys(item).filter((m) => ["get", "post", "put"].includes(m) && path.includes("{id}")).map((method) => ({ method: method.toUpperCase(), path }))
)

const errorOf = async (response: Response) => {
  const error = (await json(response))["error"] as { readonly code: number; readonly errors: ReadonlyArray<{ readonly reason: string; readonly field?: string; readonly message: string }> }
  return error
}

const databases: ReadonlyArray<readonly [string, () => Promise<Served>]> = [
  ["PGlite", onPglite],
  ...(process.env["DATABASE_URL"] === undefined ? [] : [["PostgreSQL", () => onPostgres(process.env["DATABASE_URL"] ?? "")] as const])
]

describe.each(databases)("input the store cannot hold, on %s", (_name, start) => {
  let served: Served
  beforeAll(async () => {
    served = await start()
  }, 60_000)
  afterAll(async () => {
    await served.close()
  })
  const call = (path: string, init: Parameters<typeof api>[3] = {}) => api(served.url, served.token, path, init)

  it("a malformed path id is 404 resource_not_found on every id route, action routes included", async () => {
    expect(idRoutes.length).toBeGreaterThan(30)
    for (const { method, path } of idRoutes) {
      for (const id of ["%00", "PM%00", "CR%00", "x", "OUT00000000000%00", "CR0000000000001"]) {
        const response = await call(path.replace("{id}", id), method === "GET" ? { method } : { method, body: {}, headers: { "idempotency-key": randomUUID() } })
        expect(response.status, `${method} ${path} ${id}`).toBe(404)
        expect((await errorOf(response)).errors[0]?.reason).toBe("resource_not_found")
      }
    }
  })

  it("the sandbox's action routes refuse a malformed id the same way", async () => {
    for (const path of ["/sandbox/bank_authorisations/BAU%00/actions/visit", "/sandbox/outbound_payment_imports/IM%00/actions/authorise"]) {
      const response = await call(path, { method: "POST", body: {} })
      expect(response.status, path).toBe(404)
    }
  })

  it("a malformed cursor or id filter is 422 naming the parameter", async () => {
    for (const [path, field] of [
      ["/payments?after=PM%00", "after"],
      ["/payments?before=CR000000000001", "before"],
      ["/mandates?customer=CU%00", "customer"],
      ["/subscriptions?mandate=MD", "mandate"],
      ["/creditor_bank_accounts?creditor=%00", "creditor"]
    ] as const) {
      const response = await call(path)
      expect(response.status, path).toBe(422)
      expect((await errorOf(response)).errors.map((e) => e.field), path).toEqual([field])
    }
  })

  it("a malformed link in a body is 422 naming the link", async () => {
    const response = await call("/creditor_bank_accounts", {
      method: "POST",
      body: { creditor_bank_accounts: { account_holder_name: "Acme", country_code: "GB", currency: "GBP", links: { creditor: "CR\u0000" } } },
      headers: { "idempotency-key": randomUUID() }
    })
    expect(response.status).toBe(422)
    expect((await errorOf(response)).errors.map((e) => e.field)).toContain("links.creditor")
  })

  it("NUL or an unpaired surrogate in free text is 422 naming the field, and nothing is stored", async () => {
    const before = (await json(await call("/creditors?limit=500")))["creditors"] as ReadonlyArray<unknown>
    const creditor = { name: "Acme", creditor_type: "company", country_code: "GB", address_line1: "1 Street", city: "London", postal_code: "N1 1AA" }
    for (const [body, field] of [
      [JSON.stringify({ creditors: { ...creditor, name: "Acme\u0000" } }), "name"],
      ['{"creditors":{"name":"Acme\\ud800","creditor_type":"company","country_code":"GB"}}', "name"],
      [JSON.stringify({ creditors: { ...creditor, name: "x".repeat(1024 * 1024) } }), "name"]
    ] as const) {
      const response = await fetch(`${served.url}/creditors`, {
        method: "POST",
        headers: { authorization: `Bearer ${served.token}`, "gocardless-version": "2015-07-06", "content-type": "application/json", "idempotency-key": randomUUID() },
        body
      })
      expect(response.status).toBe(422)
      const error = await errorOf(response)
      expect(error.errors.map((e) => e.field)).toContain(field)
    }
    const after = (await json(await call("/creditors?limit=500")))["creditors"] as ReadonlyArray<unknown>
    expect(after.length).toBe(before.length)
  })

  it("a raw NUL in a body is 400 for the document; a NUL in a header never reaches a handler", async () => {
    // A raw NUL (not the escape \\u0000) is a control character JSON does not allow, even in a string.
    for (const body of ["\u0000", '{"creditors":{"name":"a\u0000b"}}']) {
      const response = await fetch(`${served.url}/creditors`, {
        method: "POST",
        headers: { authorization: `Bearer ${served.token}`, "gocardless-version": "2015-07-06", "content-type": "application/json", "idempotency-key": randomUUID() },
        body
      })
      expect(response.status).toBe(400)
    }
    // fetch refuses to send such a header, so it goes over a socket as a client could send it.
    const { port } = new URL(served.url)
    const status = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.end(`GET /creditors HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${served.token}\r\nGoCardless-Version: 2015-07-06\r\nIdempotency-Key: a\u0000b\r\n\r\n`)
      })
      let data = ""
      socket.on("data", (chunk) => { data += String(chunk) })
      socket.on("end", () => resolve(data.split("\r\n")[0] ?? ""))
      socket.on("error", reject)
    })
    expect(status).toMatch(/^HTTP\/1\.1 400/)
  })

  it("a 5 MiB creditor name is refused", async () => {
    const response = await call("/creditors", {
      method: "POST",
      body: { creditors: { name: "x".repeat(5 * 1024 * 1024), creditor_type: "company", country_code: "GB" } },
      headers: { "idempotency-key": randomUUID() }
    })
    expect([413, 422]).toContain(response.status)
  })
})
