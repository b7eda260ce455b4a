import { OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { issueAccessToken } from "@paykit/http"
import { Creditors, Payments } from "@paykit/engine"
import { Organisations } from "../src/index.ts"
import { api, collectPayerAccount, collectPayerDetails, fulfilledMandateRequest, json, localClient, run, SERVER_DATABASES, startServer, type TestServer } from "./harness.ts"

/**
 * The scenario simulators through the official client over HTTP on a sandbox server: each moves
 * its resource to the status GoCardless names, through the moves (and so the events) the real
 * path makes, and refuses with 422 a resource that is not where it starts.
 */

type LinkKey = "payment" | "mandate" | "refund" | "payout" | "creditor" | "billing_request"

interface ApiFailure {
  readonly statusCode: number
  readonly reason: string
  readonly message: string
}

/** The failure a client call ends with (the test fails if it succeeds): its status and first reason. */
const refusal = async (call: Promise<unknown>): Promise<ApiFailure> => {
  const outcome = await call.then(() => undefined, (error: unknown) => error)
  if (outcome === undefined) throw new Error("expected the call to fail")
  const e = outcome as { readonly response?: { readonly statusCode?: number }; readonly errors?: ReadonlyArray<{ readonly reason?: string }>; readonly message?: string }
  return { statusCode: e.response?.statusCode ?? 0, reason: e.errors?.[0]?.reason ?? "", message: e.message ?? "" }
}

describe.each(SERVER_DATABASES)("scenario simulators on %s", (_database, start) => {
  let server: TestServer
  let client: GoCardlessClient
  let organisation: OrganisationId
  let creditor: string

  const scenario = (name: string, resource: string) => client.scenarioSimulators.run(name, { links: { resource } })

  /** The actions of the events of a resource, oldest first. */
  const actions = async (key: LinkKey, id: string, resourceType?: string): Promise<ReadonlyArray<string>> => {
    const page = await client.events.list({ [key]: id, limit: "500", ...(resourceType === undefined ? {} : { resource_type: resourceType }) } as never)
    return page.events.map((e) => String(e.action)).reverse()
  }

  /** A Bacs mandate from a billing request the payer completed: pending submission (or awaiting their approval). */
  const newMandate = async (options: { readonly dualSignature?: boolean } = {}): Promise<string> =>
    (await fulfilledMandateRequest(client, options)).mandate

  const activeMandate = async (): Promise<string> => {
    const mandate = await newMandate()
    await scenario("mandate_activated", mandate)
    return mandate
  }

  /** A payment on the mandate, through the API. */
  const newPayment = async (mandate: string, amount = 1000): Promise<string> =>
    (await client.payments.create({ amount, currency: "GBP", links: { mandate } })).id ?? ""

  const paymentOf = async (id: string) => client.payments.find(id)

  /**
   * Runs an engine operation in the server's process (the reviews and the balance, which the API
   * has no call for); the server's type names only its own services, though its runtime holds the
   * engine's too.
   */
  const engine = <A, E>(effect: Effect.Effect<A, E, Payments | Creditors>): Promise<A> =>
    server.runtime.runPromise(effect as unknown as Effect.Effect<A>)

  beforeAll(async () => {
    server = await start()
    client = localClient(server.boot.accessToken ?? "", server.url)
    organisation = OrganisationId(server.boot.organisation.id)
    creditor = server.boot.creditor ?? ""
    // The sandbox creditor starts verified with a GBP payout account; the verification scenarios
    // start from a creditor that needs action.
    await scenario("creditor_verification_status_action_required", creditor)
  }, 60_000)
  afterAll(async () => {
    await server.close()
  })

  describe("creditor verification", () => {
    it("creditor_verification_status_successful: reviewed and approved (updated), answering the scenario's id", async () => {
      expect((await client.creditors.find(creditor)).verification_status).toBe("action_required")
      const before = await actions("creditor", creditor, "creditors")
      const answer = await scenario("creditor_verification_status_successful", creditor)
      expect(answer.id).toBe("creditor_verification_status_successful")
      expect((await client.creditors.find(creditor)).verification_status).toBe("successful")
      expect(await actions("creditor", creditor, "creditors")).toEqual([...before, "updated"])
    })

    it("creditor_verification_status_action_required: a verified creditor goes back to review, then needs action", async () => {
      const before = await actions("creditor", creditor, "creditors")
      await scenario("creditor_verification_status_action_required", creditor)
      expect((await client.creditors.find(creditor)).verification_status).toBe("action_required")
      expect(await actions("creditor", creditor, "creditors")).toEqual([...before, "updated"])
    })

    it("creditor_verification_status_in_review, and 422 for a creditor already in the status", async () => {
      await scenario("creditor_verification_status_in_review", creditor)
      expect((await client.creditors.find(creditor)).verification_status).toBe("in_review")
      const refused = await refusal(scenario("creditor_verification_status_in_review", creditor))
      expect(refused).toMatchObject({ statusCode: 422, reason: "scenario_precondition_failed" })
      expect(refused.message).toContain("needs a creditor in action_required or successful")
      await scenario("creditor_verification_status_successful", creditor)
      expect((await client.creditors.find(creditor)).verification_status).toBe("successful")
    })
  })

  describe("mandates", () => {
    it("mandate_activated: submitted, then active", async () => {
      const mandate = await newMandate()
      await scenario("mandate_activated", mandate)
      expect((await client.mandates.find(mandate)).status).toBe("active")
      expect(await actions("mandate", mandate)).toEqual(["created", "submitted", "active"])
    })

    it("mandate_customer_approval_granted and _skipped: from pending_customer_approval to pending_submission", async () => {
      const granted = await newMandate({ dualSignature: true })
      expect((await client.mandates.find(granted)).status).toBe("pending_customer_approval")
      await scenario("mandate_customer_approval_granted", granted)
      expect((await client.mandates.find(granted)).status).toBe("pending_submission")
      expect(await actions("mandate", granted)).toEqual(["created", "customer_approval_granted"])
      const skipped = await newMandate({ dualSignature: true })
      await scenario("mandate_customer_approval_skipped", skipped)
      expect((await client.mandates.find(skipped)).status).toBe("pending_submission")
      expect(await actions("mandate", skipped)).toEqual(["created", "customer_approval_skipped"])
    })

    it("mandate_failed: submitted, then failed with the bank's reason", async () => {
      const mandate = await newMandate()
      await scenario("mandate_failed", mandate)
      expect((await client.mandates.find(mandate)).status).toBe("failed")
      expect(await actions("mandate", mandate)).toEqual(["created", "submitted", "failed"])
      const failed = (await client.events.list({ mandate, action: "failed" } as never)).events[0]
      expect(failed?.details).toMatchObject({ origin: "bank", cause: "invalid_bank_details", reason_code: "ADDACS-B" })
    })

    it("mandate_expired: set up, then expired", async () => {
      const mandate = await newMandate()
      await scenario("mandate_expired", mandate)
      expect((await client.mandates.find(mandate)).status).toBe("expired")
      expect(await actions("mandate", mandate)).toEqual(["created", "submitted", "active", "expired"])
    })

    it("mandate_transferred and mandate_transferred_with_resubmission: active again after the switch", async () => {
      const mandate = await newMandate()
      await scenario("mandate_transferred", mandate)
      expect((await client.mandates.find(mandate)).status).toBe("active")
      expect(await actions("mandate", mandate)).toEqual(["created", "submitted", "active", "transferred"])
      const resubmitted = await newMandate()
      await scenario("mandate_transferred_with_resubmission", resubmitted)
      expect((await client.mandates.find(resubmitted)).status).toBe("active")
      expect(await actions("mandate", resubmitted)).toEqual(["created", "submitted", "active", "transferred", "resubmission_requested", "submitted", "active"])
    })

    it("mandate_suspended_by_payer is for PayTo mandates only: a Bacs one is refused (422) and left as it was", async () => {
      const mandate = await activeMandate()
      const refused = await refusal(scenario("mandate_suspended_by_payer", mandate))
      expect(refused).toMatchObject({ statusCode: 422, reason: "scenario_scheme_not_supported" })
      expect((await client.mandates.find(mandate)).status).toBe("active")
    })

    it("422 when the mandate is not where the scenario starts, naming the statuses it accepts", async () => {
      const mandate = await activeMandate()
      const refused = await refusal(scenario("mandate_activated", mandate))
      expect(refused).toMatchObject({ statusCode: 422, reason: "scenario_precondition_failed" })
      expect(refused.message).toContain("needs a mandate in pending_submission or submitted")
      expect(await actions("mandate", mandate)).toEqual(["created", "submitted", "active"])
    })
  })

  describe("payments", () => {
    it("payment_submitted and payment_confirmed", async () => {
      const mandate = await activeMandate()
      const submitted = await newPayment(mandate)
      await scenario("payment_submitted", submitted)
      expect((await paymentOf(submitted)).status).toBe("submitted")
      expect(await actions("payment", submitted)).toEqual(["created", "submitted"])
      const confirmed = await newPayment(mandate)
      await scenario("payment_confirmed", confirmed)
      expect((await paymentOf(confirmed)).status).toBe("confirmed")
      expect(await actions("payment", confirmed)).toEqual(["created", "submitted", "confirmed"])
    })

    it("payment_paid_out: collected and paid out in a payout of its own", async () => {
      const payment = await newPayment(await activeMandate(), 2500)
      await scenario("payment_paid_out", payment)
      const paid = await paymentOf(payment)
      expect(paid.status).toBe("paid_out")
      expect(await actions("payment", payment)).toEqual(["created", "submitted", "confirmed", "paid_out"])
      const payout = await client.payouts.find(paid.links?.payout ?? "")
      expect(payout).toMatchObject({ status: "pending", currency: "GBP", links: { creditor } })
      expect(payout.amount).toBeLessThan(2500)
      expect(payout.amount).toBeGreaterThan(0)
    })

    it("payment_failed: submitted, then failed with the bank's reason", async () => {
      const payment = await newPayment(await activeMandate())
      await scenario("payment_failed", payment)
      expect((await paymentOf(payment)).status).toBe("failed")
      expect(await actions("payment", payment)).toEqual(["created", "submitted", "failed"])
    })

    it("payment_charged_back and payment_late_failure: paid out, then taken back", async () => {
      const mandate = await activeMandate()
      const chargedBack = await newPayment(mandate)
      await scenario("payment_charged_back", chargedBack)
      expect((await paymentOf(chargedBack)).status).toBe("charged_back")
      expect(await actions("payment", chargedBack)).toEqual(["created", "submitted", "confirmed", "paid_out", "charged_back"])
      const late = await newPayment(mandate)
      await scenario("payment_late_failure", late)
      expect((await paymentOf(late)).status).toBe("failed")
      expect(await actions("payment", late)).toEqual(["created", "submitted", "confirmed", "paid_out", "failed"])
    })

    it("payment_chargeback_settled and payment_late_failure_settled: the reversal is settled in a payout netted against other collections", async () => {
      const mandate = await activeMandate()
      // The creditor's unsettled balance must cover the reversal: a larger collection waits for payout.
      const cushion = await newPayment(mandate, 50_000)
      await scenario("payment_confirmed", cushion)
      const chargedBack = await newPayment(mandate)
      await scenario("payment_chargeback_settled", chargedBack)
      expect((await paymentOf(chargedBack)).status).toBe("charged_back")
      expect(await actions("payment", chargedBack)).toEqual(["created", "submitted", "confirmed", "paid_out", "charged_back", "chargeback_settled"])
      // The payout that settled it paid the waiting collection out too, as the daily assembly would.
      expect((await paymentOf(cushion)).status).toBe("paid_out")
      const second = await newPayment(mandate, 50_000)
      await scenario("payment_confirmed", second)
      const late = await newPayment(mandate)
      await scenario("payment_late_failure_settled", late)
      expect((await paymentOf(late)).status).toBe("failed")
      expect(await actions("payment", late)).toEqual(["created", "submitted", "confirmed", "paid_out", "failed", "late_failure_settled"])
    })

    it("422 with nothing moved when no payout can settle the reversal (the scenario is one unit of work)", async () => {
      const payment = await newPayment(await activeMandate())
      const refused = await refusal(scenario("payment_late_failure_settled", payment))
      expect(refused).toMatchObject({ statusCode: 422, reason: "scenario_payout_not_possible" })
      expect((await paymentOf(payment)).status).toBe("pending_submission")
      expect(await actions("payment", payment)).toEqual(["created"])
    })

    it("422 when the payment is not pending submission, or its mandate is not with the bank", async () => {
      const mandate = await activeMandate()
      const payment = await newPayment(mandate)
      await scenario("payment_confirmed", payment)
      const refused = await refusal(scenario("payment_confirmed", payment))
      expect(refused).toMatchObject({ statusCode: 422, reason: "scenario_precondition_failed" })
      expect(refused.message).toContain("needs a payment in pending_submission")
      const waiting = await newPayment(await newMandate())
      const noMandate = await refusal(scenario("payment_submitted", waiting))
      expect(noMandate).toMatchObject({ statusCode: 422, reason: "mandate_not_active" })
      expect(noMandate.message).toContain("run mandate_activated on it first")
    })
  })

  describe("refunds", () => {
    /** A refund of a confirmed payment, through the API. */
    const newRefund = async (): Promise<string> => {
      const payment = await newPayment(await activeMandate(), 3000)
      await scenario("payment_confirmed", payment)
      return (await client.refunds.create({ amount: 500, total_amount_confirmation: 500, links: { payment } } as never)).id ?? ""
    }
    const refundOf = (id: string) => client.refunds.find(id)

    it("refund_paid and refund_settled", async () => {
      const paid = await newRefund()
      await scenario("refund_paid", paid)
      expect((await refundOf(paid)).status).toBe("paid")
      expect(await actions("refund", paid)).toEqual(["created", "paid"])
      const settled = await newRefund()
      await scenario("refund_settled", settled)
      expect((await refundOf(settled)).status).toBe("paid")
      expect(await actions("refund", settled)).toEqual(["created", "paid", "refund_settled"])
    })

    it("refund_bounced and refund_returned: the refunded amount comes back to the creditor's balance", async () => {
      const balance = () => engine(Effect.gen(function*() {
        return yield* (yield* Payments).balance(organisation, creditor, "GBP")
      }))
      const bounced = await newRefund()
      const before = await balance()
      await scenario("refund_bounced", bounced)
      expect((await refundOf(bounced)).status).toBe("bounced")
      expect(await actions("refund", bounced)).toEqual(["created", "failed"])
      expect(await balance()).toBe(before + 500)
      const returned = await newRefund()
      const beforeReturn = await balance()
      await scenario("refund_returned", returned)
      expect((await refundOf(returned)).status).toBe("funds_returned")
      expect(await actions("refund", returned)).toEqual(["created", "paid", "funds_returned"])
      expect(await balance()).toBe(beforeReturn + 500)
    })

    it("422 for a refund past where the scenario starts", async () => {
      const refund = await newRefund()
      await scenario("refund_returned", refund)
      const refused = await refusal(scenario("refund_paid", refund))
      expect(refused).toMatchObject({ statusCode: 422, reason: "scenario_precondition_failed" })
      expect(refused.message).toContain("funds_returned")
    })
  })

  describe("payouts", () => {
    it("payout_create pays the creditor's confirmed collections out now; payout_bounced returns a payout", async () => {
      const payment = await newPayment(await activeMandate(), 4000)
      await scenario("payment_confirmed", payment)
      await scenario("payout_create", creditor)
      const paid = await paymentOf(payment)
      expect(paid.status).toBe("paid_out")
      const payout = paid.links?.payout ?? ""
      expect((await client.payouts.find(payout)).status).toBe("pending")
      await scenario("payout_bounced", payout)
      expect((await client.payouts.find(payout)).status).toBe("bounced")
      expect(await actions("payout", payout, "payouts")).toEqual(["bounced"])
    })

    it("422 when there is nothing to pay out, or the payout has already bounced", async () => {
      const nothing = await refusal(scenario("payout_create", creditor))
      expect(nothing).toMatchObject({ statusCode: 422, reason: "scenario_payout_not_possible" })
      const bounced = (await client.payouts.list({ status: "bounced" } as never)).payouts[0]?.id ?? ""
      const again = await refusal(scenario("payout_bounced", bounced))
      expect(again).toMatchObject({ statusCode: 422, reason: "scenario_precondition_failed" })
    })
  })

  describe("billing requests", () => {
    /** The payer picks their bank, which Pay by Bank needs before it can send them to authorise. */
    const selectInstitution = async (id: string) => {
      const institution = (await client.institutions.list({ country_code: "GB" } as never)).institutions[0]?.id ?? ""
      await client.billingRequests.selectInstitution(id, { institution, country_code: "GB" } as never)
    }
    /** A Pay by Bank request: a payment_request whose payer gave their details; only the bank authorisation is left. */
    const instantRequest = async (): Promise<string> => {
      const request = await client.billingRequests.create({ payment_request: { amount: "1500", currency: "GBP", description: "Scenario" } } as never)
      const id = request.id ?? ""
      await collectPayerDetails(client, id)
      await selectInstitution(id)
      return id
    }
    const paymentOfRequest = async (id: string) => (await client.billingRequests.find(id)).links?.payment_request_payment ?? ""

    it("billing_request_fulfilled: authorised at the bank and fulfilled", async () => {
      const id = await instantRequest()
      await scenario("billing_request_fulfilled", id)
      expect((await client.billingRequests.find(id)).status).toBe("fulfilled")
      expect(await actions("billing_request", id, "billing_requests")).toContain("fulfilled")
      expect((await paymentOf(await paymentOfRequest(id))).status).toBe("confirmed")
    })

    it("billing_request_fulfilled_and_payment_failed, _confirmed_to_failed and _paid_out", async () => {
      const failed = await instantRequest()
      await scenario("billing_request_fulfilled_and_payment_failed", failed)
      expect((await paymentOf(await paymentOfRequest(failed))).status).toBe("failed")
      const confirmedToFailed = await instantRequest()
      await scenario("billing_request_fulfilled_and_payment_confirmed_to_failed", confirmedToFailed)
      const p = await paymentOfRequest(confirmedToFailed)
      expect((await paymentOf(p)).status).toBe("failed")
      expect(await actions("payment", p)).toEqual(["created", "submitted", "confirmed", "failed"])
      const paidOut = await instantRequest()
      await scenario("billing_request_fulfilled_and_payment_paid_out", paidOut)
      expect((await paymentOf(await paymentOfRequest(paidOut))).status).toBe("paid_out")
    })

    it("a mandate request's payment: the mandate is set up with the bank, then the payment is paid out", async () => {
      const request = await client.billingRequests.create({
        mandate_request: { currency: "GBP", scheme: "bacs" }, payment_request: { amount: "2000", currency: "GBP", description: "First" }
      } as never)
      const id = request.id ?? ""
      await collectPayerDetails(client, id)
      await collectPayerAccount(client, id)
      await client.billingRequests.confirmPayerDetails(id, {})
      await selectInstitution(id)
      await scenario("billing_request_fulfilled_and_payment_paid_out", id)
      const fulfilled = await client.billingRequests.find(id)
      expect(fulfilled.status).toBe("fulfilled")
      const payment = await paymentOf(fulfilled.links?.payment_request_payment ?? "")
      expect(payment.status).toBe("paid_out")
      expect((await client.mandates.find(payment.links?.mandate ?? "")).status).toBe("active")
    })

    it("422 for a request without a payment_request, or with the payer's details still missing", async () => {
      const mandateOnly = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } } as never)
      const refused = await refusal(scenario("billing_request_fulfilled", mandateOnly.id ?? ""))
      expect(refused).toMatchObject({ statusCode: 422, reason: "scenario_precondition_failed" })
      expect(refused.message).toContain("payment_request")
      const bare = await client.billingRequests.create({ payment_request: { amount: "1500", currency: "GBP", description: "Bare" } } as never)
      const missing = await refusal(scenario("billing_request_fulfilled", bare.id ?? ""))
      expect(missing).toMatchObject({ statusCode: 422, reason: "scenario_precondition_failed" })
      expect((await client.billingRequests.find(bare.id ?? "")).status).toBe("pending")
    })
  })

  describe("the endpoint", () => {
    it("an unknown scenario is 404; a resource of another type, unknown, or of another organisation is a 422 on links.resource", async () => {
      const unknown = await refusal(scenario("payment_teleported", creditor))
      expect(unknown).toMatchObject({ statusCode: 404, reason: "resource_not_found" })
      const wrongType = await refusal(scenario("payment_confirmed", creditor))
      expect(wrongType).toMatchObject({ statusCode: 422, reason: "validation_failed" })
      const missing = await refusal(scenario("mandate_activated", "MD000000000000"))
      expect(missing).toMatchObject({ statusCode: 422, reason: "validation_failed" })
      // Another organisation of the same server cannot reach this one's mandate.
      const mandate = await newMandate()
      const other = "ORSCENAR100THE"
      await run(server, Effect.gen(function*() {
        yield* (yield* Organisations).insert({ id: other, name: "Other", environment: "sandbox", origin: "operator" })
      }))
      const otherToken = await run(server, issueAccessToken({ id: "AT_scenario_other", organisation: other, scope: "read_write" }))
      const foreign = await refusal(localClient(otherToken, server.url).scenarioSimulators.run("mandate_activated", { links: { resource: mandate } }))
      expect(foreign).toMatchObject({ statusCode: 422, reason: "validation_failed" })
      expect((await client.mandates.find(mandate)).status).toBe("pending_submission")
    })

    it("refuses a body without links.resource (422)", async () => {
      const response = await api(server.url, server.boot.accessToken, "/scenario_simulators/payment_confirmed/actions/run", { method: "POST", body: { data: { links: {} } } })
      expect(response.status).toBe(422)
      expect(JSON.stringify(await json(response))).toContain("links/resource")
    })
  })
})

describe("scenario simulators on a live server", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ mode: "live" })
  })
  afterAll(async () => {
    await server.close()
  })

  it("are refused with 403 sandbox_only", async () => {
    const token = await run(server, issueAccessToken({ id: "AT_scenario_live", organisation: server.boot.organisation.id, scope: "read_write" }))
    const refused = await refusal(localClient(token, server.url).scenarioSimulators.run("payment_confirmed", { links: { resource: "PM000000000000" } }))
    expect(refused).toMatchObject({ statusCode: 403, reason: "sandbox_only" })
  })
})
