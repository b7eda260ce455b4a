import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { randomUUID } from "node:crypto"
import { type AccessScope, DISPLAY_PREFIX_LENGTH, issueAccessToken } from "@paykit/http"
import { LAST_USED_GRANULARITY_MILLIS } from "../src/sql-access-tokens.ts"
import { listTokens } from "../src/tokens.ts"
import { api, SERVER_DATABASES, startServer, type TestServer } from "./harness.ts"
import { DASHBOARD_TOKEN, get, signedIn } from "./dashboard-support.ts"

/**
 * Issue 33's token list: a display prefix stored when paykit makes a token (none for a token given
 * to it), and when a token was last used, written at most once a minute per token (migration 0014).
 */

/** A token made as the dashboard, the CLI and the first start make one. */
const makeToken = async (server: TestServer, scope: AccessScope) => {
  const id = `AT_usage_${randomUUID().slice(0, 8)}`
  return { id, access_token: await server.runtime.runPromise(issueAccessToken({ id, organisation: server.boot.organisation.id, scope })) }
}

const listed = async (server: TestServer, id: string) => {
  const tokens = await server.runtime.runPromise(listTokens(server.boot.organisation.id))
  return tokens.find((t) => t.id === id)
}

/** Moves a token's last use back by `millis`, as if that much time had passed since. */
const ageLastUse = (server: TestServer, id: string, millis: number) =>
  server.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE access_tokens SET last_used_at = last_used_at - make_interval(secs => ${millis / 1000}) WHERE id = ${id}`))

describe.each(SERVER_DATABASES)("access tokens' prefix and last use on %s", (_name, start) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start()
  })
  afterAll(() => server.close())

  it("stores a made token's first characters, and no more of it", async () => {
    const made = await makeToken(server, "read_only")
    const token = await listed(server, made.id)
    expect(token?.display_prefix).toBe(made.access_token.slice(0, DISPLAY_PREFIX_LENGTH))
    expect(token?.display_prefix).toMatch(/^paykit_ro_[\w-]{4}$/)
    expect(token?.last_used_at).toBeNull()
  })

  it("records a use, writes no more within the minute, and again once it has passed", async () => {
    const made = await makeToken(server, "read_write")
    const before = Date.now()
    expect((await api(server.url, made.access_token, "/customers")).status).toBe(200)
    const first = (await listed(server, made.id))?.last_used_at ?? ""
    expect(Date.parse(first)).toBeGreaterThanOrEqual(before - 1000)
    expect(Date.parse(first)).toBeLessThanOrEqual(Date.now())

    // Within the minute: the same instant stays, however many requests.
    for (let i = 0; i < 3; i++) expect((await api(server.url, made.access_token, "/customers")).status).toBe(200)
    expect((await listed(server, made.id))?.last_used_at).toBe(first)

    await ageLastUse(server, made.id, LAST_USED_GRANULARITY_MILLIS + 1000)
    const aged = (await listed(server, made.id))?.last_used_at ?? ""
    expect((await api(server.url, made.access_token, "/customers")).status).toBe(200)
    const later = (await listed(server, made.id))?.last_used_at ?? ""
    expect(Date.parse(later)).toBeGreaterThan(Date.parse(aged))
    expect(Date.parse(later)).toBeGreaterThanOrEqual(Date.parse(first))
  })
})

describe("the dashboard's token list", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ sandboxToken: DASHBOARD_TOKEN })
  })
  afterAll(() => server.close())

  it("shows a made token's prefix and 'never'; a given token, no prefix and its last use", async () => {
    const made = await makeToken(server, "read_write")
    const cookie = await signedIn(server.url, DASHBOARD_TOKEN)
    const page = await (await get(server.url, cookie, "/dashboard/tokens")).text()
    const rowOf = (id: string) => new RegExp(`<tr><td><code>${id}</code>.*?</tr>`).exec(page)?.[0] ?? ""
    expect(rowOf(made.id)).toContain(`<td><code>${made.access_token.slice(0, DISPLAY_PREFIX_LENGTH)}…</code></td>`)
    expect(rowOf(made.id)).toContain("<td>never</td>")
    expect(page).not.toContain(made.access_token)
    // The sandbox token came from the environment: its length and randomness are the operator's, none of it is shown.
    const given = (await server.runtime.runPromise(listTokens(server.boot.organisation.id))).find((t) => t.display_prefix === null)
    const row = rowOf(given?.id ?? "-")
    expect(row).toContain("<td>none</td>")
    // Its last use: a <time> with its UTC instant.
    expect(row).toMatch(/<td><time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z"[^>]*>[^<]+<\/time><\/td><td><form/)
  })
})
