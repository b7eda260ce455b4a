import { OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiError, InvalidApiUsageError, ValidationFailedError } from "gocardless-nodejs"
import { Creditors } from "@paykit/engine"
import { failure, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * Creditor bank accounts through the official client, unchanged: create (idempotent), find, list
 * with its filters and `.all()`, disable; the account becomes the creditor's default payout
 * account, is verified by the review, and stops being the default when disabled.
 */

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.close()
})

const run = <A, E, R>(effect: Effect.Effect<A, E, R>) => server.run(effect)

const expectError = (error: unknown, kind: abstract new (...args: never) => ApiError, code: number) => {
  expect(error).toBeInstanceOf(kind)
  expect((error as ApiError).code).toBe(code)
}

const account = (creditor: string, number = "55779911") => ({
  account_holder_name: "Acme Gym Ltd",
  account_number: number,
  branch_code: "200000",
  country_code: "GB",
  currency: "GBP",
  links: { creditor }
})

const status = (response: { readonly __response__?: unknown }): number => (response.__response__ as { statusCode: number }).statusCode

describe("creditor bank accounts", () => {
  const org = OrganisationId("OR000000000CBA")
  let client: ReturnType<typeof localClient>
  let creditor = ""
  beforeAll(async () => {
    client = localClient(await server.token(org), server.url)
    creditor = (await client.creditors.create({ name: "Acme Gym", country_code: "GB", creditor_type: "company" } as never)).id ?? ""
  })

  it("create answers 201 with Location and becomes the creditor's default payout account; find returns it", async () => {
    const created = await client.creditorBankAccounts.create(account(creditor) as never)
    expect(status(created)).toBe(201)
    expect((created.__response__ as { headers: Record<string, string> }).headers["location"]).toBe(`/creditor_bank_accounts/${created.id}`)
    expect(created).toMatchObject({ account_number_ending: "11", currency: "GBP", enabled: true, verification_status: "in_review", links: { creditor } })
    expect((await client.creditorBankAccounts.find(created.id ?? "")).id).toBe(created.id)
    expect((await client.creditors.find(creditor)).links?.default_gbp_payout_account).toBe(created.id)
    // The review (run by the sandbox's daily jobs) verifies it; the API shows the new status.
    await run(Effect.flatMap(Creditors, (s) => s.completeReviews(org)))
    expect((await client.creditorBankAccounts.find(created.id ?? "")).verification_status).toBe("successful")
  })

  it("create is idempotent with the client's Idempotency-Key: the same key replays the same account", async () => {
    const first = await client.creditorBankAccounts.create(account(creditor, "11223344") as never, "cba-key-1")
    const again = await client.creditorBankAccounts.create(account(creditor, "11223344") as never, "cba-key-1")
    expect(again.id).toBe(first.id)
    const all: Array<string> = []
    for await (const a of client.creditorBankAccounts.all({ creditor })) all.push(a.id ?? "")
    expect(all.filter((id) => id === first.id)).toHaveLength(1)
  })

  it("refuses a body without a holder name (422 naming the field) and an unknown id (404)", async () => {
    const refused = await failure(client.creditorBankAccounts.create({ ...account(creditor), account_holder_name: "" } as never))
    expectError(refused, ValidationFailedError, 422)
    expect((refused as ValidationFailedError).errors.map((e) => e.field)).toContain("account_holder_name")
    expectError(await failure(client.creditorBankAccounts.find("BA000000000000")), InvalidApiUsageError, 404)
    expectError(await failure(client.creditorBankAccounts.disable("BA000000000000")), InvalidApiUsageError, 404)
    expectError(await failure(client.creditorBankAccounts.list({ limit: 501 })), ValidationFailedError, 422)
  })

  it("list pages with .all() and filters by creditor and enabled; disable is final and unsets the default", async () => {
    const other = (await client.creditors.create({ name: "Other Ltd", country_code: "GB", creditor_type: "company" } as never)).id ?? ""
    const created: Array<string> = []
    for (let n = 0; n < 5; n++) created.push((await client.creditorBankAccounts.create(account(other, `9000000${n}`) as never)).id ?? "")
    const paged: Array<string> = []
    for await (const a of client.creditorBankAccounts.all({ creditor: other, limit: 2 })) paged.push(a.id ?? "")
    // Newest first, as every list of the API.
    expect(paged).toEqual([...created].reverse())
    const first = await client.creditorBankAccounts.list({ creditor: other, limit: 2 })
    expect(first.meta.limit).toBe(2)
    expect(first.creditor_bank_accounts).toHaveLength(2)

    const defaultId = (await client.creditors.find(other)).links?.default_gbp_payout_account
    expect(defaultId).toBe(created[0])
    const disabled = await client.creditorBankAccounts.disable(defaultId ?? "")
    expect(disabled.enabled).toBe(false)
    expect(status(disabled)).toBe(200)
    // No payout may go to a disabled account: the creditor has no GBP default until one is set.
    expect((await client.creditors.find(other)).links?.default_gbp_payout_account).toBeNull()
    // Disabling again answers the disabled account unchanged.
    expect((await client.creditorBankAccounts.disable(defaultId ?? "")).enabled).toBe(false)

    const off = await client.creditorBankAccounts.list({ creditor: other, enabled: false })
    expect(off.creditor_bank_accounts.map((a) => a.id)).toEqual([defaultId])
    const on = await client.creditorBankAccounts.list({ creditor: other, enabled: true })
    expect(on.creditor_bank_accounts.map((a) => a.id)).toEqual(created.slice(1).reverse())
  })

  it("accounts are per organisation: another organisation sees none of them and cannot disable them", async () => {
    const stranger = localClient(await server.token("OR0CBASTRANGER"), server.url)
    const mine = await client.creditorBankAccounts.list({ creditor })
    const id = mine.creditor_bank_accounts[0]?.id ?? ""
    expect(id).toMatch(/^BA/)
    expect((await stranger.creditorBankAccounts.list({ creditor })).creditor_bank_accounts).toEqual([])
    expectError(await failure(stranger.creditorBankAccounts.find(id)), InvalidApiUsageError, 404)
    expectError(await failure(stranger.creditorBankAccounts.disable(id)), InvalidApiUsageError, 404)
    expectError(await failure(stranger.creditorBankAccounts.create(account(creditor) as never)), InvalidApiUsageError, 404)
  })

  it("a read-only token may list but not create or disable (403)", async () => {
    const reader = localClient(await server.token(org, "read_only"), server.url)
    expect((await reader.creditorBankAccounts.list({ creditor })).creditor_bank_accounts.length).toBeGreaterThan(0)
    const refused = await failure(reader.creditorBankAccounts.create(account(creditor) as never)) as ApiError
    expect(refused.code).toBe(403)
  })
})
