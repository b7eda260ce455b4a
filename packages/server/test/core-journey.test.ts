import type { ApiError, GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, json, localClient, SERVER_DATABASES_AND_CITUS, type TestServer } from "./harness.ts"

/**
 * The direct-debit core's journeys through the official client on a sandbox server (issue 18),
 * with the sandbox clock advanced over the daily runs: a customer, their bank account, a mandate
 * and a payment made over HTTP, collected and paid out; a refund while the money is held, refused
 * once it is paid out; a failed payment retried; a mandate cancelled with its payment, then
 * reinstated. On PGlite, PostgreSQL when `DATABASE_URL` is set, and Citus when `CITUS_URL` is.
 */

describe.each(SERVER_DATABASES_AND_CITUS)("the direct-debit core on %s", (_database, start) => {
  let server: TestServer
  let client: GoCardlessClient
  let token = ""
  let creditor = ""
  let mandate = ""

  /** The sandbox clock moved to noon UTC of `day` (after that day's daily run), running every run it crosses. */
  const advanceTo = async (day: string) => {
    const response = await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { to: `${day}T12:00:00Z` } })
    expect(response.status, JSON.stringify(await json(response.clone()))).toBe(200)
  }
  const advanceBy = async (days: number) => {
    const response = await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by: `P${days}D` } })
    expect(response.status).toBe(200)
  }
  /** The actions of the events of a payment or mandate, oldest first. */
  const actions = async (key: "payment" | "mandate", id: string, resourceType: string) =>
    (await client.events.list({ [key]: id, resource_type: resourceType, limit: "500" } as never)).events.map((e) => String(e.action)).reverse()
  /** The reason of a refused call, which must be a state refusal (422 `invalid_state`) unless `type` says otherwise. */
  const reasonOf = async (call: Promise<unknown>, type = "invalid_state"): Promise<string> => {
    const outcome = await call.then(() => undefined, (error: unknown) => error)
    if (outcome === undefined) throw new Error("expected the call to fail")
    expect((outcome as ApiError).errorType).toBe(type)
    return String((outcome as ApiError).errors[0]?.reason)
  }
  const pay = async (amount: number) => client.payments.create({ amount, currency: "GBP", links: { mandate } } as never)

  beforeAll(async () => {
    server = await start()
    token = server.boot.accessToken ?? ""
    client = localClient(token, server.url)
    creditor = server.boot.creditor ?? ""
    // The sandbox creditor starts verified, with its GBP payout account: payouts need nothing more.
    expect((await client.creditors.find(creditor)).verification_status).toBe("successful")
  }, 60_000)
  afterAll(async () => {
    await server.close()
  })

  it("customer, bank account, mandate and payment over HTTP; collected, refunded in part, paid out; a refund beyond the balance refused", { timeout: 60_000 }, async () => {
    const customer = await client.customers.create({ email: "ada@example.com", given_name: "Ada", family_name: "Lovelace", country_code: "GB" } as never)
    const account = await client.customerBankAccounts.create({
      account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
    } as never)
    const created = await client.mandates.create({ scheme: "bacs", links: { customer_bank_account: account.id, creditor } } as never)
    mandate = created.id ?? ""
    const payment = await pay(5000)
    const id = payment.id ?? ""
    expect(payment.charge_date).toBe(created.next_possible_charge_date)

    await advanceTo(payment.charge_date ?? "")
    expect((await client.mandates.find(mandate)).status).toBe("active")
    expect((await client.payments.find(id)).status).toBe("confirmed")
    expect(await reasonOf(client.refunds.create({ amount: 1000, total_amount_confirmation: 999, links: { payment: id } } as never)))
      .toBe("total_amount_confirmation_invalid")
    const refund = await client.refunds.create({ amount: 1000, total_amount_confirmation: 1000, reference: "Sorry", links: { payment: id } } as never)
    expect(refund).toMatchObject({ amount: 1000, currency: "GBP", status: "created", links: { payment: id, mandate } })
    expect((await client.refunds.update(refund.id ?? "", { metadata: { ticket: "9" } } as never)).metadata).toEqual({ ticket: "9" })
    expect((await client.payments.find(id)).amount_refunded).toBe(1000)

    await advanceBy(5)
    const paidOut = await client.payments.find(id)
    expect(paidOut.status).toBe("paid_out")
    expect((await client.payouts.list({ creditor } as never)).payouts.length).toBeGreaterThan(0)
    expect(await actions("payment", id, "payments")).toEqual(["created", "submitted", "confirmed", "partially_refunded", "paid_out"])
    // Paid out, the money has left the balance and the default negative balance limit is zero.
    expect(await reasonOf(client.refunds.create({ amount: 1000, total_amount_confirmation: 2000, links: { payment: id } } as never)))
      .toBe("available_refund_amount_insufficient")
  })

  it("scenario payment_failed, then retry: resubmitted on the mandate's next possible date and collected", { timeout: 60_000 }, async () => {
    const id = (await pay(2000)).id ?? ""
    await client.scenarioSimulators.run("payment_failed", { links: { resource: id } })
    expect((await client.payments.find(id)).status).toBe("failed")
    // paykit runs no intelligent retries (Success+), so the failure says none will come.
    const failure = (await client.events.list({ payment: id, action: "failed" } as never)).events
    expect(failure.map((e) => e.details?.will_attempt_retry)).toEqual([false])
    const retried = await client.payments.retry(id, { metadata: { attempt: "2" } } as never)
    expect(retried.status).toBe("pending_submission")
    expect(retried.charge_date).toBe((await client.mandates.find(mandate)).next_possible_charge_date)
    expect(await reasonOf(client.payments.retry(id, {} as never))).toBe("retry_failed")
    await advanceTo(retried.charge_date ?? "")
    expect((await client.payments.find(id)).status).toBe("confirmed")
    expect(await actions("payment", id, "payments")).toEqual(["created", "submitted", "failed", "resubmission_requested", "submitted", "confirmed"])
  })

  it("refunds: never beyond the payment's amount, and no count limit (the spec removed it): a sixth within the amount is accepted", async () => {
    const id = (await pay(1000)).id ?? ""
    await client.scenarioSimulators.run("payment_confirmed", { links: { resource: id } })
    expect(await reasonOf(client.refunds.create({ amount: 1001, total_amount_confirmation: 1001, links: { payment: id } } as never)))
      .toBe("refund_amount_exceeds_payment")
    for (let n = 1; n <= 5; n++) {
      expect((await client.refunds.create({ amount: 100, total_amount_confirmation: 100 * n, links: { payment: id } } as never)).amount).toBe(100)
    }
    expect((await client.refunds.create({ amount: 100, total_amount_confirmation: 600, links: { payment: id } } as never)).amount).toBe(100)
    expect((await client.refunds.list({ payment: id } as never)).refunds).toHaveLength(6)
    expect((await client.payments.find(id)).amount_refunded).toBe(600)
    expect(await reasonOf(client.refunds.create({ amount: 401, total_amount_confirmation: 1001, links: { payment: id } } as never)))
      .toBe("refund_amount_exceeds_payment")
  })

  it("a payment is retried at most three times (retry_failed after)", async () => {
    const id = (await pay(700)).id ?? ""
    for (let retry = 1; retry <= 3; retry++) {
      await client.scenarioSimulators.run("payment_failed", { links: { resource: id } })
      expect((await client.payments.retry(id, {} as never)).status).toBe("pending_submission")
    }
    await client.scenarioSimulators.run("payment_failed", { links: { resource: id } })
    expect(await reasonOf(client.payments.retry(id, {} as never))).toBe("retry_failed")
    expect((await client.payments.find(id)).status).toBe("failed")
  })

  it("mandate cancel takes its pending payment; reinstated, it is resubmitted and active again", { timeout: 60_000 }, async () => {
    const id = (await pay(1500)).id ?? ""
    expect((await client.mandates.cancel(mandate, {} as never)).status).toBe("cancelled")
    expect((await client.payments.find(id)).status).toBe("cancelled")
    expect(await reasonOf(pay(100))).toBe("mandate_is_inactive")
    expect((await client.mandates.reinstate(mandate, {} as never)).status).toBe("pending_submission")
    await advanceBy(4)
    expect((await client.mandates.find(mandate)).status).toBe("active")
    const events = await actions("mandate", mandate, "mandates")
    expect(events.slice(-4)).toEqual(["cancelled", "resubmission_requested", "submitted", "reinstated"])
    expect((await pay(100)).status).toBe("pending_submission")
  })
})
