import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import type { Timestamp } from "@paykit/core"
import {
  BankAccountHolderVerifications,
  BillingRequests,
  constantTimeEquals,
  type CustomerNotification,
  CustomerNotificationRepository,
  CustomerNotifications,
  decodeCommand,
  RedirectFlows,
  REQUEST_BODIES
} from "@paykit/engine"
import { ADA, ORG, runBilling, setUpCreditor, START, UK_ACCOUNT } from "./billing-fixtures.ts"

/** Issue 18's review of the flows: session tokens, redirect flow expiry, notifications handled twice, verification references. */

const reasonOf = <A, E extends { readonly _tag: string; readonly reason?: string }>(effect: Effect.Effect<A, E>) =>
  Effect.match(effect, { onFailure: (e) => e.reason ?? e._tag, onSuccess: () => "succeeded" })

const MINUTE = 60 * 1000

/** A redirect flow whose payer has given details, account and confirmation: ready to complete. */
const readyFlow = Effect.gen(function*() {
  yield* setUpCreditor
  const flows = yield* RedirectFlows
  const requests = yield* BillingRequests
  const create = yield* decodeCommand(REQUEST_BODIES.redirect_flows.create, "redirect_flows")({
    session_token: "SESS_abc", success_redirect_url: "https://acme.example/done", scheme: "bacs"
  })
  const flow = yield* flows.create(ORG, create)
  const br = flow.links.billing_request
  yield* requests.collectCustomerDetails(ORG, br, yield* decodeCommand(REQUEST_BODIES.billing_requests.collect_customer_details, "billing_requests")(ADA))
  yield* requests.collectBankAccount(ORG, br, yield* decodeCommand(REQUEST_BODIES.billing_requests.collect_bank_account, "billing_requests")(UK_ACCOUNT))
  yield* requests.confirmPayerDetails(ORG, br, {})
  return flow
})

describe("session tokens", () => {
  it("are equal only when identical, whatever the lengths (no throw on a shorter or longer one)", () => {
    expect(constantTimeEquals("SESS_abc", "SESS_abc")).toBe(true)
    expect(constantTimeEquals("SESS_abc", "SESS_abd")).toBe(false)
    expect(constantTimeEquals("SESS_abc", "SESS_ab")).toBe(false)
    expect(constantTimeEquals("SESS_abc", "SESS_abcdefgh")).toBe(false)
    expect(constantTimeEquals("", "")).toBe(true)
    expect(constantTimeEquals("é", "e")).toBe(false)
  })

  it("another session's token of any length is bad_request, the flow's own completes", async () => {
    const outcomes = await runBilling(Effect.gen(function*() {
      const flow = yield* readyFlow
      const flows = yield* RedirectFlows
      const complete = (token: string) => reasonOf(flows.complete(ORG, flow.id, { session_token: token }))
      return [yield* complete("SESS_ab"), yield* complete("SESS_abcd"), yield* complete("SESS_abc")]
    }))
    expect(outcomes).toEqual(["bad_request", "bad_request", "succeeded"])
  })
})

describe("redirect flow expiry", () => {
  it("completes up to 30 minutes after creation; from then on it is redirect_flow_expired", async () => {
    const outcomes = await runBilling(Effect.gen(function*() {
      const flows = yield* RedirectFlows
      const early = yield* readyFlow
      const late = yield* flows.create(ORG, yield* decodeCommand(REQUEST_BODIES.redirect_flows.create, "redirect_flows")({
        session_token: "SESS_late", success_redirect_url: "https://acme.example/done"
      }))
      yield* TestClock.setTime(START + 30 * MINUTE - 1)
      const inTime = yield* reasonOf(flows.complete(ORG, early.id, { session_token: "SESS_abc" }))
      yield* TestClock.setTime(START + 30 * MINUTE)
      const expired = yield* reasonOf(flows.complete(ORG, late.id, { session_token: "SESS_late" }))
      // Completed in time, it stays completed: asking again is still "already completed".
      const again = yield* reasonOf(flows.complete(ORG, early.id, { session_token: "SESS_abc" }))
      return [inTime, expired, again]
    }))
    expect(outcomes).toEqual(["succeeded", "redirect_flow_expired", "redirect_flow_already_completed"])
  })
})

const notification = (id: string, deadline?: string): CustomerNotification => ({
  id,
  created_at: new Date(START).toISOString() as Timestamp,
  type: "payment_created",
  action_taken: null,
  action_taken_at: null,
  action_taken_by: null,
  ...(deadline === undefined ? {} : { deadline: deadline as Timestamp }),
  links: { customer: "CU000000000001", event: "EV000000000001", payment: "PM000000000001" }
})

describe("customer notifications", () => {
  it("handled once; again, or after its deadline, already_actioned; an unknown one is not found", async () => {
    const outcomes = await runBilling(Effect.gen(function*() {
      const repo = yield* CustomerNotificationRepository
      const notifications = yield* CustomerNotifications
      const deadline = new Date(START + 60 * MINUTE).toISOString()
      yield* Effect.orDie(repo.insert(ORG, notification("PCN000000000001", deadline)))
      yield* Effect.orDie(repo.insert(ORG, notification("PCN000000000002", deadline)))
      const first = yield* reasonOf(notifications.handle(ORG, "PCN000000000001"))
      const twice = yield* reasonOf(notifications.handle(ORG, "PCN000000000001"))
      yield* TestClock.setTime(START + 60 * MINUTE)
      const late = yield* reasonOf(notifications.handle(ORG, "PCN000000000002"))
      const unknown = yield* reasonOf(notifications.handle(ORG, "PCN000000000009"))
      return [first, twice, late, unknown]
    }))
    expect(outcomes).toEqual(["succeeded", "already_actioned", "already_actioned", "NotFound"])
  })
})

describe("bank account holder verification reference", () => {
  it("is kept and answered, on create and on get; absent when not given", async () => {
    const [created, found, plain] = await runBilling(Effect.gen(function*() {
      const flow = yield* readyFlow
      const completed = yield* (yield* RedirectFlows).complete(ORG, flow.id, { session_token: "SESS_abc" })
      const verifications = yield* BankAccountHolderVerifications
      const bank_account = completed.links.customer_bank_account ?? ""
      const decode = decodeCommand(REQUEST_BODIES.bank_account_holder_verifications.create, "bank_account_holder_verifications")
      const created = yield* verifications.create(ORG, yield* decode({ type: "confirmation_of_payee", reference: "INV-42", links: { bank_account } }))
      const plain = yield* verifications.create(ORG, yield* decode({ type: "confirmation_of_payee", links: { bank_account } }))
      return [created, yield* verifications.get(ORG, created.id), plain] as const
    }))
    expect(created.reference).toBe("INV-42")
    expect(found.reference).toBe("INV-42")
    expect(plain.reference).toBeNull()
  })
})
