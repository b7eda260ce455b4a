import { OrganisationId } from "@paykit/core"
import { Effect, Schema } from "effect"
import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Payments, REQUEST_BODIES } from "@paykit/engine"
import { api, fulfilledMandateRequest, localClient, SERVER_DATABASES, type TestServer } from "./harness.ts"

/**
 * Issue 18's money reads on a sandbox server, through the official client: payments collected on
 * the organisation's own clock are paid out by the daily runs an advance crosses, and each
 * payout's items (walked a small page at a time) add up to its amount; a withdrawal executed by
 * the daily outbound work is a debit on the payment account's statement.
 */

describe.each(SERVER_DATABASES)("money on a sandbox server on %s", (_database, start) => {
  let server: TestServer
  let client: GoCardlessClient
  let creditor: string

  const scenario = (name: string, resource: string) => client.scenarioSimulators.run(name, { links: { resource } })

  /** A payment made by the engine in the server's process (POST /payments is another part's route). */
  const newPayment = (mandate: string, amount: number): Promise<string> =>
    server.runtime.runPromise(Effect.gen(function*() {
      const command = yield* Effect.orDie(Schema.decodeUnknownEffect(REQUEST_BODIES.payments.create)({ amount, currency: "GBP", links: { mandate } }))
      return (yield* Effect.orDie((yield* Payments).create(OrganisationId(server.boot.organisation.id), command))).id
    }) as unknown as Effect.Effect<string>)

  beforeAll(async () => {
    server = await start()
    client = localClient(server.boot.accessToken ?? "", server.url)
    creditor = server.boot.creditor ?? ""
    await client.creditorBankAccounts.create({
      account_holder_name: "Sandbox Creditor Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP",
      set_as_default_payout_account: true, links: { creditor }
    } as never)
    await scenario("creditor_verification_status_successful", creditor)
  }, 60_000)
  afterAll(async () => {
    await server.close()
  })

  it("after the clock passes the payments' payout, every payout's items sum to its amount", async () => {
    const { mandate } = await fulfilledMandateRequest(client)
    const amounts = [1000, 2550, 12_345]
    const payments: Array<string> = []
    for (const amount of amounts) payments.push(await newPayment(mandate, amount))
    const before = await client.balances.list({ creditor })
    expect(before.balances.filter((b) => Number(b.amount) !== 0)).toEqual([])

    // Day by day: the submitted and pending payout balances are always the totals of those payments and payouts, each seen non-zero.
    const submittedSeen: Array<number> = []
    const pendingSeen: Array<number> = []
    for (let day = 0; day < 14; day++) {
      const advanced = await api(server.url, server.boot.accessToken, "/sandbox/simulator/advance", { method: "POST", body: { by: "P1D" } })
      expect(advanced.status).toBe(200)
      const statuses = await Promise.all(payments.map(async (id, i) => [(await client.payments.find(id)).status, amounts[i] ?? 0] as const))
      const submitted = statuses.filter(([status]) => status === "submitted").reduce((sum, [, amount]) => sum + amount, 0)
      const balances = (await client.balances.list({ creditor })).balances
      const balance = (type: string) => balances.find((b) => b.currency === "GBP" && b.balance_type === type)?.amount
      expect(balance("pending_payments_submitted")).toBe(submitted)
      const pending = (await client.payouts.list({ creditor, status: "pending" } as never)).payouts.reduce((sum, p) => sum + Number(p.amount), 0)
      expect(balance("pending_payouts")).toBe(pending)
      submittedSeen.push(submitted)
      pendingSeen.push(pending)
    }
    expect(Math.max(...submittedSeen)).toBe(amounts.reduce((a, b) => a + b, 0))
    expect(Math.max(...pendingSeen)).toBeGreaterThan(0)

    const paid = await Promise.all(payments.map((id) => client.payments.find(id)))
    expect(paid.map((p) => p.status)).toEqual(["paid_out", "paid_out", "paid_out"])
    const payoutIds = [...new Set(paid.map((p) => p.links?.payout ?? ""))]
    expect(payoutIds.length).toBeGreaterThan(0)
    let paidOut = 0
    for (const id of payoutIds) {
      const payout = await client.payouts.find(id)
      const items = []
      for await (const item of client.payoutItems.all({ payout: id, limit: 2 })) items.push(item)
      expect(items.reduce((sum, item) => sum + Number(item.amount), 0)).toBe(payout.amount)
      const fees = items.filter((i) => i.type === "gocardless_fee" || i.type === "app_fee").reduce((sum, i) => sum - Number(i.amount), 0)
      expect(fees).toBe(payout.deducted_fees)
      paidOut += items.filter((i) => i.type === "payment_paid_out").reduce((sum, i) => sum + Number(i.amount), 0)
      for (const item of items) expect(payments).toContain(item.links?.payment)
    }
    expect(paidOut).toBe(amounts.reduce((a, b) => a + b, 0))

    // Nothing is left unsettled or submitted; the payouts were sent (paid), so none is pending.
    const after = await client.balances.list({ creditor })
    expect(after.balances.filter((b) => b.currency === "GBP").map((b) => [b.balance_type, b.amount])).toEqual([
      ["pending_payments_submitted", 0],
      ["confirmed_funds", 0],
      ["pending_payouts", 0]
    ])
  }, 120_000)

  it("a withdrawal executed after the advance is a debit after the funding's credit on the payment account's statement", async () => {
    const funded = await api(server.url, server.boot.accessToken, "/sandbox/payment_accounts/fund", { method: "POST", body: { amount: 10_000, links: { creditor } } })
    expect(funded.status).toBe(200)
    const withdrawal = await client.outboundPayments.withdraw({ amount: 4_000, scheme: "faster_payments", reference: "WD 1", links: { creditor } } as never)
    await client.outboundPayments.approve(withdrawal.id ?? "")
    const advanced = await api(server.url, server.boot.accessToken, "/sandbox/simulator/advance", { method: "POST", body: { by: "P2D" } })
    expect(advanced.status).toBe(200)
    expect((await client.outboundPayments.find(withdrawal.id ?? "")).status).toBe("executed")

    const account = (await client.paymentAccounts.list({ creditor } as never)).payment_accounts[0]?.id ?? ""
    const range = { value_date_from: "2000-01-01", value_date_to: "2999-12-31" }
    const statement = await client.paymentAccountTransactions.list(account, range)
    expect(statement.payment_account_transactions.map((t) => [t.direction, t.amount, t.balance_after_transaction, t.links?.outbound_payment])).toEqual([
      ["debit", 4_000, 6_000, withdrawal.id],
      ["credit", 10_000, 10_000, undefined]
    ])
    expect(statement.payment_account_transactions[0]).toMatchObject({ reference: "WD 1", counterparty_name: "Sandbox Creditor Ltd" })
    const debits = await client.paymentAccountTransactions.list(account, { ...range, direction: "debit" })
    expect(debits.payment_account_transactions.map((t) => t.id)).toEqual([statement.payment_account_transactions[0]?.id])
  }, 60_000)
})
