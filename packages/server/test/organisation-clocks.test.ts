import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { DueWorkStore } from "@paykit/engine"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { issueAccessToken } from "@paykit/http"
import { Organisations } from "../src/index.ts"
import { api, json, SERVER_DATABASES, startServer, type TestServer } from "./harness.ts"

/**
 * Each sandbox organisation has its own clock: an advance through one organisation's token runs
 * that organisation's due work and moves its clock only; another organisation on the same server
 * keeps real time and its daily run does not happen.
 */

const DAY = 86_400_000

const clockOf = async (url: string, token: string) =>
  (await json(await api(url, token, "/sandbox/simulator/clock")))["simulator_clock"] as { readonly now: string; readonly offset_ms: number }

const VERIFICATION = (creditor: string) => ({
  verification_details: {
    name: "Clock Ltd", company_number: "01234567", description: "Testing", address_line1: "1 High Street", city: "London", postal_code: "E1 6AN",
    directors: [{ given_name: "Grace", family_name: "Hopper", date_of_birth: "1970-01-01", street: "1 High Street", city: "London", postal_code: "E1 6AN", country_code: "GB" }],
    links: { creditor }
  }
})

/** A creditor of the token's organisation, in review: the next daily run verifies it. */
const creditorInReview = async (url: string, token: string): Promise<string> => {
  const created = await json(await api(url, token, "/creditors", { method: "POST", body: { creditors: { name: "Clock Ltd", country_code: "GB", creditor_type: "company" } } }))
  const id = (created["creditors"] as { id: string }).id
  expect((await api(url, token, "/verification_details", { method: "POST", body: VERIFICATION(id) })).status).toBe(201)
  return id
}

const statusOf = async (url: string, token: string, creditor: string) =>
  ((await json(await api(url, token, `/creditors/${creditor}`)))["creditors"] as { verification_status: string }).verification_status

describe("per-organisation sandbox clocks", () => {
  let server: TestServer
  let tokenA: string
  let tokenB: string
  beforeAll(async () => {
    server = await startServer()
    tokenA = server.boot.accessToken ?? ""
    tokenB = await server.runtime.runPromise(Effect.gen(function*() {
      yield* (yield* Organisations).insert({ id: "OR000000000C10", name: "Second", environment: "sandbox", origin: "operator" })
      return yield* issueAccessToken({ id: "AT_clock_b", organisation: "OR000000000C10", scope: "read_write" })
    }))
  }, 60_000)
  afterAll(() => server.close())

  it("two organisations: one advances a day, the other's time and daily run do not move", { timeout: 60_000 }, async () => {
    const creditorA = await creditorInReview(server.url, tokenA)
    const creditorB = await creditorInReview(server.url, tokenB)
    const advanced = await json(await api(server.url, tokenA, "/sandbox/simulator/advance", { method: "POST", body: { by: "P1D" } }))
    expect((advanced["simulator_clock"] as { offset_ms: number }).offset_ms).toBe(DAY)
    expect(await statusOf(server.url, tokenA, creditorA)).toBe("successful")

    const clockB = await clockOf(server.url, tokenB)
    expect(clockB.offset_ms).toBe(0)
    expect(Math.abs(Date.parse(clockB.now) - Date.now())).toBeLessThan(60_000)
    expect(await statusOf(server.url, tokenB, creditorB)).toBe("in_review")

    // Resources are stamped with their own organisation's time.
    const made = async (token: string) =>
      Date.parse(((await json(await api(server.url, token, "/creditors", { method: "POST", body: { creditors: { name: "Later Ltd", country_code: "GB", creditor_type: "company" } } })))["creditors"] as { created_at: string }).created_at)
    expect((await made(tokenA)) - Date.now()).toBeGreaterThan(DAY - 60_000)
    expect(Math.abs((await made(tokenB)) - Date.now())).toBeLessThan(60_000)
  })
})

describe.each(SERVER_DATABASES)("an organisation's tokens carry its clock, written once a move on %s", (_name, start) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start()
  }, 60_000)
  afterAll(() => server.close())

  it("an advance running many rows writes each token once; a move that does not move writes none", { timeout: 60_000 }, async () => {
    const token = server.boot.accessToken ?? ""
    const organisation = server.boot.organisation.id
    const TOKENS = 4
    const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => server.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, f))
    // Counts every write of a token's clock copy: the request path reads the copy, so each is a cost
    // (a request's own write of `last_used_at`, at most once a minute, sets no clock column).
    await sql((q) => Effect.gen(function*() {
      yield* q.unsafe(`CREATE TABLE token_writes (id text NOT NULL)`)
      yield* q.unsafe(`CREATE FUNCTION count_token_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO token_writes VALUES (NEW.id); RETURN NEW; END $$`)
      yield* q.unsafe(`CREATE TRIGGER count_token_write AFTER UPDATE OF clock_offset_ms ON access_tokens FOR EACH ROW EXECUTE FUNCTION count_token_write()`)
    }))
    await server.runtime.runPromise(Effect.forEach(Array.from({ length: TOKENS - 1 }, (_, i) => i), (i) =>
      issueAccessToken({ id: `AT_clock_copy_${i}`, organisation, scope: "read_write" })))
    const writes = () => sql((q) => q<{ id: string }>`SELECT id FROM token_writes`)
    // Three days: three daily runs and three retention runs, each a row of the advance.
    await creditorInReview(server.url, token)
    expect((await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by: "P3D" } })).status).toBe(200)
    const afterAdvance = await writes()
    expect(afterAdvance).toHaveLength(TOKENS)
    expect(new Set(afterAdvance.map((w) => w.id)).size).toBe(TOKENS)
    // A move that does not move writes no clock row (xmin is the writing transaction), so no trigger runs.
    const clockRow = () => sql((q) => q<{ x: string }>`SELECT xmin::text AS x FROM organisation_clocks WHERE organisation_id = ${organisation}`)
    const before = await clockRow()
    await server.runtime.runPromise(Effect.flatMap(DueWorkStore, (store) => Effect.andThen(store.raiseOffset(organisation, 0), store.raiseOffset(organisation, 3 * DAY))))
    expect(await clockRow()).toEqual(before)
    expect(await writes()).toHaveLength(TOKENS)
  })
})
