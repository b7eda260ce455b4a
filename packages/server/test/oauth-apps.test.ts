import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, SERVER_DATABASES, type TestServer } from "./harness.ts"

/** Issue 20: registering partner apps through `/oauth_apps` (paykit's own extension), on each database. */

const sqlDump = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT * FROM oauth_apps`)

interface AppBody {
  readonly id: string
  readonly client_id: string
  readonly client_secret?: string
  readonly status: string
  readonly redirect_uris: ReadonlyArray<string>
  readonly webhook_url: string | null
  readonly links: { readonly organisation: string; readonly creditor: string }
}

describe.each(SERVER_DATABASES)("oauth apps on %s", (_name, start) => {
  let server: TestServer
  let token: string
  beforeAll(async () => {
    server = await start()
    token = server.boot.accessToken ?? ""
  })
  afterAll(() => server.close())

  const register = (body: unknown, bearer = token) => api(server.url, bearer, "/oauth_apps", { method: "POST", body })

  it("registers an app: 201 with 64-character client id and secret, the secret shown only then", async () => {
    const response = await register({ oauth_apps: { name: "Books", redirect_uris: ["https://books.example/callback"], webhook_url: "https://books.example/hooks" } })
    expect(response.status).toBe(201)
    const app = (await response.json() as { oauth_apps: AppBody }).oauth_apps
    expect(app.client_id).toMatch(/^[A-Za-z0-9_-]{64}$/)
    expect(app.client_secret).toMatch(/^[A-Za-z0-9_-]{64}$/)
    expect(app.client_secret).not.toBe(app.client_id)
    expect(app).toMatchObject({ status: "enabled", redirect_uris: ["https://books.example/callback"], webhook_url: "https://books.example/hooks" })
    expect(app.links).toEqual({ organisation: server.boot.organisation.id, creditor: expect.stringMatching(/^CR/) })
    expect(response.headers.get("location")).toBe(`/oauth_apps/${app.id}`)

    const got = (await (await api(server.url, token, `/oauth_apps/${app.id}`)).json() as { oauth_apps: AppBody }).oauth_apps
    expect(got.client_id).toBe(app.client_id)
    expect(got).not.toHaveProperty("client_secret")
    const list = await (await api(server.url, token, "/oauth_apps")).json() as { oauth_apps: ReadonlyArray<AppBody> }
    expect(list.oauth_apps.map((a) => a.id)).toContain(app.id)
    expect(list.oauth_apps.every((a) => a.client_secret === undefined)).toBe(true)
    // The secret is stored hashed: the database holds no copy of it.
    const stored = JSON.stringify(await server.runtime.runPromise(sqlDump))
    expect(stored).not.toContain(app.client_secret)
    expect(stored).toContain(app.client_id)
  })

  it("disables an app", async () => {
    const app = (await (await register({ oauth_apps: { name: "Gone", redirect_uris: ["http://127.0.0.1:9/cb"] } })).json() as { oauth_apps: AppBody }).oauth_apps
    const disabled = await api(server.url, token, `/oauth_apps/${app.id}/actions/disable`, { method: "POST" })
    expect(disabled.status).toBe(200)
    expect((await disabled.json() as { oauth_apps: AppBody }).oauth_apps.status).toBe("disabled")
    expect((await (await api(server.url, token, `/oauth_apps/${app.id}`)).json() as { oauth_apps: AppBody }).oauth_apps.status).toBe("disabled")
  })

  it("refuses bad input with the API's error body: no redirect URI, a fragment, a relative URI, no name", async () => {
    const cases = [
      { name: "A", redirect_uris: [] },
      { name: "A", redirect_uris: ["https://a.example/cb#frag"] },
      { name: "A", redirect_uris: ["/cb"] },
      { redirect_uris: ["https://a.example/cb"] }
    ]
    for (const body of cases) {
      const response = await register({ oauth_apps: body })
      expect(response.status).toBe(422)
      const error = (await response.json() as { error: { type: string; errors: ReadonlyArray<{ field: string }> } }).error
      expect(error.type).toBe("validation_failed")
    }
  })

  it("answers 401 without a token, 404 for an unknown or malformed id", async () => {
    expect((await register({ oauth_apps: { name: "A", redirect_uris: ["https://a.example/cb"] } }, "nope")).status).toBe(401)
    expect((await api(server.url, token, "/oauth_apps/APP000000000000")).status).toBe(404)
    expect((await api(server.url, token, "/oauth_apps/PM123")).status).toBe(404)
  })
})
