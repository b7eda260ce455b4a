import { Result } from "effect"
import { unsafeLocalDate } from "@paykit/core"
import {
  firstPeriodLimit,
  lookupBankDetails,
  validateBankDetailsLookup,
  validateBillingRequestCreate,
  validateMandatePdfCreate,
  validateOutboundPaymentCreate
} from "@paykit/validation"

const show = (label: string, r: Result.Result<unknown, { readonly errors: ReadonlyArray<unknown> }>) =>
  console.log(label, Result.isSuccess(r) ? "ok" : JSON.stringify(r.failure.errors))

// A VRP mandate request: every problem comes back at once, each with its pointer.
show(
  "billing request:",
  validateBillingRequestCreate({
    mandate_request: { currency: "GBP", scheme: "faster_payments", constraints: { periodic_limits: [] } },
    payment_request: { currency: "GBP", amount: 1000, app_fee: 600 }
  })
)

// The first calendar month of a 100.00 monthly limit starting on 21 November: 10 of 30 days.
console.log("first period limit:", firstPeriodLimit(10000, "month", "calendar", unsafeLocalDate("2026-11-21"))) // 3333

// Mandate PDF rule 3.
show("mandate pdf:", validateMandatePdfCreate({ links: { mandate: "MD123" }, iban: "GB33BUKB20201555555555" }))

// Bank details: Vocalink modulus check, then what the account can be debited on.
show("lookup 55779912:", validateBankDetailsLookup({ country_code: "GB", branch_code: "20-00-00", account_number: "55779912" }))
console.log("lookup 55779911:", lookupBankDetails({ country_code: "GB", branch_code: "200000", account_number: "55779911" }))

// Outbound payments: execution dates are checked against the `today` you pass.
show("outbound payment:", validateOutboundPaymentCreate(
  { amount: 1500, scheme: "faster_payments", reference: "INV 42", execution_date: "2026-11-20", links: { recipient_bank_account: "BA1" } },
  unsafeLocalDate("2026-11-21")
))
