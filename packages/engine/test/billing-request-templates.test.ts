import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { BillingRequests, BillingRequestTemplates, decodeCommand, Events, HostedPagesKey, pageKeyOf, REQUEST_BODIES } from "@paykit/engine"
import { ORG, runBilling, setUpCreditor } from "./billing-fixtures.ts"

/** What a template's link does (the page comes with the hosted pages): a billing request of its own for each payer. */
describe("starting a billing request from a template", () => {
  it("each start makes a new billing request of the template's requests, and its flow back to the template's redirect_uri", async () => {
    await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const templates = yield* BillingRequestTemplates
      const requests = yield* BillingRequests
      const body = yield* decodeCommand(REQUEST_BODIES.billing_request_templates.create, "billing_request_templates")({
        name: "Gym", mandate_request_currency: "GBP", mandate_request_scheme: "bacs", mandate_request_description: "Membership",
        payment_request_amount: "2500", payment_request_currency: "GBP", payment_request_scheme: "faster_payments",
        redirect_uri: "https://acme.example/welcome"
      })
      const template = yield* templates.create(ORG, body)
      const first = yield* templates.start(ORG, template.id)
      const second = yield* templates.start(ORG, template.id)
      expect(first.links.billing_request).not.toBe(second.links.billing_request)
      expect(first.redirect_uri).toBe("https://acme.example/welcome")
      const br = yield* requests.get(ORG, first.links.billing_request)
      expect(br.status).toBe("pending")
      expect(br.links.creditor).toBe(template.links.creditor)
      expect(br.mandate_request).toMatchObject({ currency: "GBP", scheme: "bacs", description: "Membership" })
      expect(br.payment_request).toMatchObject({ amount: 2500, currency: "GBP", scheme: "faster_payments" })
      const events = yield* (yield* Events).list(ORG, { billing_request: first.links.billing_request })
      expect(events.items.map((e) => e.action).sort()).toEqual(["created", "flow_created"])
      const missing = yield* Effect.flip(templates.start(ORG, "BRT000000000000"))
      expect(missing._tag).toBe("NotFound")
    }))
  })

  it("a mandate-only template starts a mandate-only request with no redirect_uri of its own", async () => {
    await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const templates = yield* BillingRequestTemplates
      const body = yield* decodeCommand(REQUEST_BODIES.billing_request_templates.create, "billing_request_templates")({ mandate_request_currency: "GBP" })
      const flow = yield* templates.start(ORG, (yield* templates.create(ORG, body)).id)
      const br = yield* (yield* BillingRequests).get(ORG, flow.links.billing_request)
      expect(br.payment_request).toBeNull()
      expect(br.mandate_request).toMatchObject({ currency: "GBP", scheme: null })
      expect(flow.redirect_uri).toBeNull()
    }))
  })
})

describe("a template's link", () => {
  it("carries the template's page key; an update gives the link under the server's current key (a template of before page keys gets a working link)", async () => {
    await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const templates = yield* BillingRequestTemplates
      const body = yield* decodeCommand(REQUEST_BODIES.billing_request_templates.create, "billing_request_templates")({ name: "Gym", mandate_request_currency: "GBP" })
      const oldKey = new Uint8Array(32).fill(1)
      const newKey = new Uint8Array(32).fill(2)
      const template = yield* Effect.provideService(templates.create(ORG, body), HostedPagesKey, oldKey)
      expect(template.authorisation_url).toBe(`/pages/${ORG}/billing_request_templates/${template.id}/${pageKeyOf(oldKey, "billing_request_templates", ORG, template.id)}`)
      const updated = yield* Effect.provideService(templates.update(ORG, template.id, { name: "Gym" }), HostedPagesKey, newKey)
      expect(updated.authorisation_url).toBe(`/pages/${ORG}/billing_request_templates/${template.id}/${pageKeyOf(newKey, "billing_request_templates", ORG, template.id)}`)
      expect((yield* templates.get(ORG, template.id)).authorisation_url).toBe(updated.authorisation_url)
    }))
  })
})
