import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type InProcessSandboxServer, startSandboxServer, withSandbox } from "@paykit/server/testing"

/**
 * `@paykit/server/testing` as a library user's test suite meets it: `withSandbox` gives each test
 * an organisation of its own on an in-process sandbox server, with the official client and its own
 * clock, and deletes it afterwards, whether the test passed or threw.
 */

const DAY = 86_400_000

describe("withSandbox", () => {
  let server: InProcessSandboxServer
  beforeAll(async () => {
    server = await startSandboxServer()
  }, 60_000)
  afterAll(() => server.close())

  const listed = async () => {
    const response = await fetch(`${server.url}/sandbox/organisations`, { headers: { authorization: `Bearer ${server.operatorToken}` } })
    const body: unknown = await response.json()
    return (body as { organisations: Array<{ id: string }> }).organisations.map((o) => o.id)
  }

  it("two tests at once: each sees only its own resources, and moves only its own clock", { timeout: 120_000 }, async () => {
    const made: Array<string> = []
    const [first, second] = await Promise.all([
      withSandbox(async ({ client, advance, organisation }) => {
        made.push(organisation.id)
        const customer = await client.customers.create({ email: "ada@example.com", given_name: "Ada", family_name: "Lovelace", country_code: "GB" })
        const before = Date.now()
        const now = await advance("P2D")
        expect(now.getTime() - before).toBeGreaterThanOrEqual(2 * DAY)
        return { customers: (await client.customers.list()).customers.map((c) => c.id), customer: customer.id, creditor: (await client.creditors.find(organisation.creditor)).verification_status }
      }, { server }),
      withSandbox(async ({ client, now: clock, organisation }) => {
        made.push(organisation.id)
        await client.customers.create({ email: "grace@example.com", given_name: "Grace", family_name: "Hopper", country_code: "GB" })
        const now = await clock()
        return { customers: (await client.customers.list()).customers.map((c) => c.id), drift: Math.abs(now.getTime() - Date.now()) }
      }, { server })
    ])
    expect(first.customers).toEqual([first.customer])
    expect(first.creditor).toBe("successful")
    expect(second.customers).toHaveLength(1)
    expect(second.customers).not.toContain(first.customer)
    expect(second.drift).toBeLessThan(60_000)
    expect(made).toHaveLength(2)
    for (const id of made) expect(await listed()).not.toContain(id)
  })

  it("deletes the organisation when the test throws, and starts its clock where asked", { timeout: 60_000 }, async () => {
    const start = new Date(Date.now() + 30 * DAY)
    let id = ""
    await expect(withSandbox(async ({ organisation, now }) => {
      id = organisation.id
      expect(Math.abs((await now()).getTime() - start.getTime())).toBeLessThan(60_000)
      throw new Error("the test failed")
    }, { server, startAt: start })).rejects.toThrow("the test failed")
    expect(id).not.toBe("")
    expect(await listed()).not.toContain(id)
  })
})
