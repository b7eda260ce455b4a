import { Effect } from "effect"
import { type Timestamp, unsafeLocalDate } from "@paykit/core"
import { type Creditor, CreditorRepository, type Payout, PayoutRepository } from "@paykit/engine"

/** A creditor in its stored (and wire) shape; ids sort by creation, as the engine's ids do. */
export const creditor = (n: number): Creditor => ({
  id: `CR${String(n).padStart(12, "0")}`,
  created_at: `2026-11-${String(1 + (n % 20)).padStart(2, "0")}T10:00:00.000Z` as Timestamp,
  name: `Creditor ${n}`,
  address_line1: null,
  address_line2: null,
  address_line3: null,
  city: "London",
  region: null,
  postal_code: null,
  country_code: "GB",
  creditor_type: "company",
  bank_reference_prefix: "PAYKIT",
  can_create_refunds: false,
  logo_url: null,
  verification_status: "successful",
  fx_payout_currency: null,
  mandate_imports_enabled: false,
  custom_payment_pages_enabled: false,
  merchant_responsible_for_notifications: false,
  links: {
    default_aud_payout_account: null,
    default_cad_payout_account: null,
    default_dkk_payout_account: null,
    default_eur_payout_account: null,
    default_gbp_payout_account: null,
    default_nzd_payout_account: null,
    default_sek_payout_account: null,
    default_usd_payout_account: null
  },
  scheme_identifiers: []
})

export const seedCreditors = (organisation: string, count: number) =>
  Effect.gen(function*() {
    const repo = yield* CreditorRepository
    for (let n = 1; n <= count; n++) yield* Effect.orDie(repo.insert(organisation, creditor(n)))
  })

/** A paid GBP payout of a creditor, in its stored (and wire) shape; payouts come from the daily run otherwise. */
export const payout = (n: number, creditor: string, account: string): Payout => ({
  id: `PO${String(n).padStart(12, "0")}`,
  created_at: "2026-11-20T06:00:00.000Z" as Timestamp,
  amount: 12_345,
  deducted_fees: 120,
  currency: "GBP",
  reference: `PAYKIT-${n}`,
  status: "paid",
  payout_type: "merchant",
  arrival_date: unsafeLocalDate("2026-11-21"),
  fx: { fx_currency: null, fx_amount: null, exchange_rate: null, estimated_exchange_rate: null },
  tax_currency: null,
  metadata: {},
  links: { creditor, creditor_bank_account: account }
})

export const seedPayouts = (organisation: string, count: number, creditor = "CR000000000001", account = "BA000000000001") =>
  Effect.gen(function*() {
    const repo = yield* PayoutRepository
    for (let n = 1; n <= count; n++) yield* Effect.orDie(repo.insert(organisation, payout(n, creditor, account)))
  })

/** A payer's details as `collect_customer_details` takes them. */
export const ADA = {
  customer: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" },
  customer_billing_detail: { address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
}
/** A UK account that passes the modulus checks, as `collect_bank_account` takes it. */
export const UK_ACCOUNT = { account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB" }
/** A billing request for a Bacs mandate and a first payment by Faster Payments. */
export const DUAL = {
  mandate_request: { currency: "GBP", scheme: "bacs" },
  payment_request: { amount: 2500, currency: "GBP", scheme: "faster_payments", description: "First month" }
}
