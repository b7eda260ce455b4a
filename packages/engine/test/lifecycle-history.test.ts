import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import {
  BankAccountHolderVerifications, BillingRequests, Creditors, decodeCommand, EventLog, Events, RedirectFlows, REQUEST_BODIES, SchemeIdentifiers
} from "@paykit/engine"
import { ADA, runBilling, setUpCreditor, UK_ACCOUNT } from "./billing-fixtures.ts"
import { ORG, runEngine } from "./fixtures.ts"

/** The moves of a resource's history: `from -> to` by `event`. */
const movesOf = (type: string, id: string) =>
  Effect.map(EventLog.use((log) => log.history(ORG, type, id)), (rows) => rows.map((r) => `${r.from ?? "*"} -${r.event}-> ${r.to}`))

describe("lifecycles kept by the engine's machines record their history, and emit nothing", () => {
  it("a creditor's scheme identifiers, a requested one, and a bank account through its review", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const creditors = yield* Creditors
      const creditor = yield* creditors.create(ORG, { name: "Acme", country_code: "GB", creditor_type: "company" })
      const requested = yield* (yield* SchemeIdentifiers).create(ORG, { name: "Acme", scheme: "sepa", links: { creditor: creditor.id } })
      const account = yield* creditors.createBankAccount(ORG, {
        account_holder_name: "Acme Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP",
        links: { creditor: creditor.id }
      })
      const beforeReview = yield* movesOf("creditor_bank_accounts", account.id)
      yield* creditors.completeReviews(ORG)
      return {
        identifiers: yield* Effect.forEach(creditor.scheme_identifiers, (s) => movesOf("scheme_identifiers", s.id)),
        requested: [requested.status, yield* movesOf("scheme_identifiers", requested.id)] as const,
        account: [account.verification_status, beforeReview, yield* movesOf("creditor_bank_accounts", account.id)] as const,
        reviewed: (yield* creditors.getBankAccount(ORG, account.id)).verification_status,
        accountEvents: (yield* (yield* Events).list(ORG, { resource_type: "creditor_bank_accounts" })).items
      }
    }))
    expect(r.identifiers).toEqual([["* -create-> active"], ["* -create-> active"]])
    expect(r.requested).toEqual(["pending", ["* -create-> pending"]])
    expect(r.account).toEqual(["in_review", ["* -create-> in_review"], ["* -create-> in_review", "in_review -approve-> successful"]])
    expect(r.reviewed).toBe("successful")
    expect(r.accountEvents).toEqual([])
  })

  it("a bank account holder verification is created pending and completed in one write", async () => {
    const moves = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const requests = yield* BillingRequests
      const flow = yield* (yield* RedirectFlows).create(ORG, yield* decodeCommand(REQUEST_BODIES.redirect_flows.create, "redirect_flows")({
        session_token: "SESS_abc", success_redirect_url: "https://acme.example/done", scheme: "bacs"
      }))
      const br = flow.links.billing_request
      yield* requests.collectCustomerDetails(ORG, br, yield* decodeCommand(REQUEST_BODIES.billing_requests.collect_customer_details, "billing_requests")(ADA))
      yield* requests.collectBankAccount(ORG, br, yield* decodeCommand(REQUEST_BODIES.billing_requests.collect_bank_account, "billing_requests")(UK_ACCOUNT))
      yield* requests.confirmPayerDetails(ORG, br, {})
      const completed = yield* (yield* RedirectFlows).complete(ORG, flow.id, { session_token: "SESS_abc" })
      const decode = decodeCommand(REQUEST_BODIES.bank_account_holder_verifications.create, "bank_account_holder_verifications")
      const created = yield* (yield* BankAccountHolderVerifications).create(ORG, yield* decode({
        type: "confirmation_of_payee", links: { bank_account: completed.links.customer_bank_account ?? "" }
      }))
      return [created.status, yield* movesOf("bank_account_holder_verifications", created.id)] as const
    }))
    expect(moves).toEqual(["completed", ["* -create-> pending", "pending -complete-> completed"]])
  })
})
