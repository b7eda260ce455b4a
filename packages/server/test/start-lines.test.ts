import { afterAll, describe, expect, it } from "vitest"
import { freePort, MINT_TOKEN, startChild, stopChild } from "./child-server.ts"
import { api, localClient, tempDataDir } from "./harness.ts"

/**
 * What `npm start` prints, read as a log shipper or `jq` reads it: every line of stdout and
 * stderr one JSON object, Effect's warnings (a webhook endpoint that refuses) included; the
 * listening line says where the token comes from, and `npm run token` mints one; a database that
 * is missing, refuses the connection or is badly named is one line saying what to do, and exit 1.
 */

/** Every line of both streams parsed; a line that is not one JSON object fails the test, named. */
const parsedLines = (streams: { readonly stdout: string; readonly stderr: string }): ReadonlyArray<Record<string, unknown>> =>
  [...streams.stdout.split("\n"), ...streams.stderr.split("\n")].filter((line) => line !== "").map((line) => {
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      throw new Error(`not a JSON line: ${line}`)
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`not a JSON object: ${line}`)
    return value as Record<string, unknown>
  })

const NO_TOKEN = { PAYKIT_SANDBOX_TOKEN: undefined }

describe("the server's lines", () => {
  const data = tempDataDir()
  afterAll(() => data.remove())

  it("a journey with a failing webhook endpoint: every line is JSON; a restart names where the token comes from; npm run token mints one", { timeout: 300_000 }, async () => {
    // Nothing listens on the endpoint's port: each delivery attempt logs a warning.
    const hook = `http://127.0.0.1:${await freePort()}/hook`
    const env = { ...NO_TOKEN, PAYKIT_WEBHOOK_URL: hook, PAYKIT_WEBHOOK_SECRET: "a_webhook_secret_of_enough_length", PAYKIT_WORKER_POLL_MS: "50" }
    const first = startChild({ dataDir: data.dir }, await freePort(), env)
    const url = await first.listening
    const created = parsedLines(first.streams()).find((line) => typeof line["access_token"] === "string")
    const token = String(created?.["access_token"])
    const client = localClient(token, url)
    const customer = await client.customers.create({ email: "ada@example.com", given_name: "Ada", family_name: "Lovelace", country_code: "GB" } as never)
    const account = await client.customerBankAccounts.create({
      account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
    } as never)
    const mandate = await client.mandates.create({ scheme: "bacs", links: { customer_bank_account: account.id } } as never)
    await client.payments.create({ amount: "1000", currency: "GBP", links: { mandate: mandate.id } } as never)
    expect((await api(url, token, "/sandbox/simulator/advance", { method: "POST", body: { by: "P5D" } })).status).toBe(200)
    await expect.poll(() => parsedLines(first.streams()).some((line) => line["level"] === "warn" && line["msg"] === "webhook attempt failed"), { timeout: 60_000 }).toBe(true)
    await stopChild(first)
    const lines = parsedLines(first.streams())
    expect(lines.find((line) => line["msg"] === "listening")?.["token"]).toBe("access_token on the line above, shown this once")

    const again = startChild({ dataDir: data.dir }, await freePort(), NO_TOKEN)
    await again.listening
    await stopChild(again)
    const listening = parsedLines(again.streams()).find((line) => line["msg"] === "listening")
    expect(listening?.["organisation_name"]).toBe("Sandbox organisation")
    expect(String(listening?.["token"])).toContain("npm run token")

    const minting = startChild({ dataDir: data.dir }, await freePort(), NO_TOKEN, MINT_TOKEN)
    expect((await minting.exited).code, minting.output()).toBe(0)
    const minted = parsedLines(minting.streams())
    expect(minted).toHaveLength(1)
    const fresh = String(minted[0]?.["access_token"])
    expect(fresh).toMatch(/^paykit_rw_/)

    const third = startChild({ dataDir: data.dir }, await freePort(), NO_TOKEN)
    const thirdUrl = await third.listening
    expect((await api(thirdUrl, fresh, "/creditors")).status).toBe(200)
    await stopChild(third)
    parsedLines(third.streams())
  })

  const adminUrl = process.env["DATABASE_URL"] ?? "postgresql://postgres@127.0.0.1:5432/test"
  const missing = new URL(adminUrl)
  missing.pathname = "/paykit_no_such_database_31"
  it.each([
    ["a missing database", missing.href, "createdb"],
    ["a refused connection", "postgresql://postgres@127.0.0.1:1/paykit", "nothing accepts connections at 127.0.0.1:1"],
    ["a bad URL", "localhost:5432/paykit", "DATABASE_URL must be a PostgreSQL URL"]
  ])("%s: one JSON line saying what to do, exit 1", { timeout: 120_000 }, async (_case, databaseUrl, remedy) => {
    const server = startChild({ databaseUrl }, await freePort())
    const exit = await server.exited
    expect(exit.code).toBe(1)
    const lines = parsedLines(server.streams())
    expect(lines, server.output()).toHaveLength(1)
    expect(lines[0]?.["level"]).toBe("error")
    expect(String(lines[0]?.["msg"])).toContain(remedy)
  })
})
