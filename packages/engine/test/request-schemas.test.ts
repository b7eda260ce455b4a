import { Effect, Result, type Schema } from "effect"
import { describe, expect, it } from "vitest"
import { decodeInput } from "@paykit/core"
import {
  Creditors,
  Customers,
  decodeCommand,
  OutboundPaymentCreateRequest,
  OutboundPaymentImportCreateRequest,
  OutboundPaymentWithdrawalRequest,
  REQUEST_BODIES
} from "@paykit/engine"
import { edge, ORG, runEngine } from "./fixtures.ts"
import {
  ORG as OUTBOUND_ORG,
  createImport,
  createOutbound,
  runOutbound,
  setUpCreditor,
  setUpRecipient,
  withdrawOutbound
} from "./outbound-fixtures.ts"
import { billingRequestsAtEdge } from "./billing-fixtures.ts"

/** The fields a Schema refuses in `body`, as `decodeInput` names them under `root`. */
const refusedBySchema = (schema: Schema.Decoder<unknown>, root: string, body: unknown) => {
  const decoded = decodeInput(schema, root)(body)
  return Result.isFailure(decoded) ? decoded.failure.errors.map((e) => e.request_pointer).sort() : []
}

/** The fields a service refuses in `body`: the ValidationFailed it answers with. */
const refusedByService = <A, E, R>(call: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(call), (e) =>
    typeof e === "object" && e !== null && "errors" in e && Array.isArray(e.errors)
      ? e.errors.map((x: { readonly request_pointer: string }) => x.request_pointer).sort()
      : [`not a validation failure: ${String(e)}`])

describe("REQUEST_BODIES: the Schemas the services decode with", () => {
  it("refuse exactly the fields the services refuse", async () => {
    const cases = await runEngine(Effect.gen(function*() {
      const billing = yield* billingRequestsAtEdge
      const creditors = yield* Creditors
      const customers = yield* Customers
      const bodies = {
        outbound: { amount: -5, scheme: "bacs", links: {} },
        withdrawal: { amount: "x", scheme: "faster_payments" },
        imports: { entries: [{ amount: 0 }] },
        billing: { payment_request: { amount: "ten" }, mandate_request: { scheme: "nope" } },
        creditor: { name: 7, country_code: "XX" },
        customer: { email: 5, given_name: [] }
      }
      return [
        // The outbound use cases take typed commands: what refuses a body is their edge's decoding.
        [refusedBySchema(REQUEST_BODIES.outbound_payments.create, "outbound_payments", bodies.outbound), yield* refusedByService(createOutbound(ORG, bodies.outbound))],
        [refusedBySchema(REQUEST_BODIES.outbound_payments.withdrawal, "outbound_payments", bodies.withdrawal), yield* refusedByService(withdrawOutbound(ORG, bodies.withdrawal))],
        [refusedBySchema(REQUEST_BODIES.outbound_payment_imports.create, "outbound_payment_imports", bodies.imports), yield* refusedByService(createImport(ORG, bodies.imports))],
        [refusedBySchema(REQUEST_BODIES.billing_requests.create, "billing_requests", bodies.billing), yield* refusedByService(billing.create(ORG, bodies.billing))],
        [refusedBySchema(REQUEST_BODIES.creditors.create, "creditors", bodies.creditor), yield* refusedByService(
          // Creditors take typed commands: the edge decodes the body, with the Schema listed.
          Effect.flatMap(decodeCommand(REQUEST_BODIES.creditors.create, "creditors")(bodies.creditor), (command) => creditors.create(ORG, command))
        )],
        [refusedBySchema(REQUEST_BODIES.customers.create, "customers", bodies.customer), yield* refusedByService(Effect.flatMap(edge.customer(bodies.customer), (c) => customers.create(ORG, c)))]
      ]
    }))
    for (const [schema, service] of cases) {
      expect(schema?.length).toBeGreaterThan(0)
      expect(schema).toEqual(service)
    }
  })

  it("accept a valid outbound payment, subscription and billing request body", () => {
    const accepted = [
      decodeInput(REQUEST_BODIES.outbound_payments.create, "outbound_payments")({
        amount: 100, scheme: "faster_payments", reference: "PAYROLL", links: { recipient_bank_account: "BA000000000001" }
      }),
      decodeInput(REQUEST_BODIES.subscriptions.create, "subscriptions")({
        amount: 1500, currency: "GBP", interval_unit: "monthly", day_of_month: 1, links: { mandate: "MD0000000000AA" }
      }),
      decodeInput(REQUEST_BODIES.billing_requests.create, "billing_requests")({
        mandate_request: { scheme: "bacs", currency: "GBP" }
      })
    ]
    expect(accepted.map((r) => r._tag)).toEqual(["Success", "Success", "Success"])
  })

  it("list the outbound bodies the edge decodes with", () => {
    expect(REQUEST_BODIES.outbound_payments.create).toBe(OutboundPaymentCreateRequest)
    expect(REQUEST_BODIES.outbound_payments.withdrawal).toBe(OutboundPaymentWithdrawalRequest)
    expect(REQUEST_BODIES.outbound_payment_imports.create).toBe(OutboundPaymentImportCreateRequest)
  })

  it("leave the execution date's not-before-today rule to the outbound use cases, which need the clock", async () => {
    const past = { amount: 100, scheme: "faster_payments", execution_date: "2026-11-22" }
    const r = await runOutbound(Effect.gen(function*() {
      const creditor = yield* setUpCreditor(OUTBOUND_ORG, { verified: true })
      const recipient = yield* setUpRecipient(OUTBOUND_ORG)
      const body = { ...past, links: { creditor: creditor.id, recipient_bank_account: recipient.id } }
      return {
        schema: refusedBySchema(REQUEST_BODIES.outbound_payments.create, "outbound_payments", body),
        create: yield* refusedByService(createOutbound(OUTBOUND_ORG, body)),
        withdrawal: yield* refusedByService(withdrawOutbound(OUTBOUND_ORG, { ...past, links: { creditor: creditor.id } }))
      }
    }))
    expect(r).toEqual({ schema: [], create: ["/outbound_payments/execution_date"], withdrawal: ["/outbound_payments/execution_date"] })
  })
})
