import assert from "node:assert/strict"
import fc from "fast-check"
import { Schema } from "effect"
import { Amount, formatMinorUnits } from "@paykit/core"
import { amountArb, currencyArb, schemeWithCurrencyArb } from "@paykit/core/testing"
import { calendarFor } from "@paykit/schedule"

// The API takes an amount as an integer or as its decimal text: both decode to the same amount.
const decodeAmount = Schema.decodeUnknownSync(Amount)
fc.assert(fc.property(amountArb(), (amount) => decodeAmount(String(amount)) === amount && decodeAmount(amount) === amount))

// Minor units shown with two decimals read back as the same number of minor units.
fc.assert(fc.property(amountArb({ min: 0, max: 10 ** 12 }), currencyArb, (amount, currency) =>
  Math.round(Number(formatMinorUnits(amount, currency)) * 100) === amount))

// Every debit scheme has a calendar, and a currency it collects in.
fc.assert(fc.property(schemeWithCurrencyArb, ({ scheme, currency }) => {
  assert.ok(calendarFor(scheme).isBusinessDay !== undefined, scheme)
  return currency.length === 3
}))

console.log("amount properties held")
