import { Schema } from "effect"
import { ID_PREFIXES } from "@paykit/core"
import { EmbeddedBillingDetail } from "./billing-requests.ts"
import { defineResource } from "../../kernel/definition.ts"

/**
 * A customer's billing detail (`CBD...`): the address and identity numbers a billing request
 * collects, one per billing request. Not listed by the API on its own; billing requests embed it.
 */
export const CustomerBillingDetail = Schema.Struct({
  ...EmbeddedBillingDetail.fields,
  links: Schema.Struct({ customer: Schema.String })
})
export type CustomerBillingDetail = typeof CustomerBillingDetail.Type

export const customerBillingDetails = defineResource({
  name: "customer_billing_details",
  idPrefix: ID_PREFIXES.customer_billing_detail,
  schema: CustomerBillingDetail,
  filters: {
    created_at: (r: CustomerBillingDetail) => r.created_at,
    customer: (r: CustomerBillingDetail) => r.links.customer
  }
})

/** A removed customer's billing detail: the address, identity numbers and IP address erased; the id and schemes kept. */
export const erasedBillingDetail = (d: CustomerBillingDetail): CustomerBillingDetail => ({
  ...d,
  address_line1: null, address_line2: null, address_line3: null, city: null, region: null, postal_code: null, country_code: null,
  swedish_identity_number: null, danish_identity_number: null, ip_address: null
})
