import { Currency, SCHEME_CURRENCY } from "@paykit/core"
import { Schema } from "effect"
import { divRoundHalfEven } from "./rounding.ts"

/**
 * Fee schedules as data. A service fee is `fixed + amount x basis_points / 10000` (the
 * percentage part rounded half to even), raised to `minimum`, lowered to `cap`, and never more
 * than the amount it is charged on. Surcharges are fixed fees charged when a payment fails late
 * or is charged back (payout item `surcharge_fee`).
 */

/** Schemes a payment (and so a fee) can be on, each with the one currency it collects in. */
export const PAYMENT_SCHEME_CURRENCIES = SCHEME_CURRENCY
export type PaymentScheme = keyof typeof PAYMENT_SCHEME_CURRENCIES
export const PAYMENT_SCHEMES = Object.keys(PAYMENT_SCHEME_CURRENCIES) as ReadonlyArray<PaymentScheme>
export const PaymentScheme = Schema.Literals(PAYMENT_SCHEMES).annotate({
  identifier: "PaymentScheme"
})

/** 100% in basis points. */
export const BASIS_POINTS_PER_UNIT = 10_000

const MinorUnits = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(Number.MAX_SAFE_INTEGER))

export const FeeRule = Schema.Struct({
  scheme: PaymentScheme,
  currency: Currency,
  /** Fixed part, minor units. */
  fixed: MinorUnits,
  /** Percentage part in basis points (100 = 1%). */
  basis_points: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: BASIS_POINTS_PER_UNIT })),
  /** The least fee charged, minor units (0 for none). */
  minimum: MinorUnits,
  /** The most fee charged, minor units; null for no cap. */
  cap: Schema.NullOr(MinorUnits)
}).check(
  Schema.makeFilter((r) => r.cap === null || r.minimum <= r.cap, { message: "minimum must not exceed cap" })
).annotate({ identifier: "FeeRule" })
export type FeeRule = typeof FeeRule.Type

/** Settlement actions that carry a surcharge (the two that also refund the fees). */
export const SURCHARGE_EVENTS = ["late_failure_settled", "chargeback_settled"] as const
export const SurchargeEvent = Schema.Literals(SURCHARGE_EVENTS)
export type SurchargeEvent = typeof SurchargeEvent.Type

export const SurchargeRule = Schema.Struct({
  event: SurchargeEvent,
  currency: Currency,
  /** Fixed surcharge, minor units. */
  amount: MinorUnits
}).annotate({ identifier: "SurchargeRule" })
export type SurchargeRule = typeof SurchargeRule.Type

export const FeeSchedule = Schema.Struct({
  fees: Schema.Array(FeeRule),
  surcharges: Schema.Array(SurchargeRule)
}).annotate({ identifier: "FeeSchedule" })
export type FeeSchedule = typeof FeeSchedule.Type

const fee = (scheme: PaymentScheme, fixed: number, basis_points: number, cap: number | null): FeeRule => ({
  scheme,
  currency: PAYMENT_SCHEME_CURRENCIES[scheme],
  fixed,
  basis_points,
  minimum: 0,
  cap
})

/**
 * This implementation's sandbox pricing: NOT GoCardless's price list. It is modelled on the shape
 * of GoCardless's published standard pricing (for example Bacs in GBP at 1% + 20p capped at £4)
 * so that payouts look realistic; each scheme's fixed part and cap are chosen in its own currency.
 * Instant SEPA credit transfers carry 10 cents more than other SEPA payments (the spec: they "may
 * carry an extra fee").
 */
export const DEFAULT_FEE_SCHEDULE: FeeSchedule = {
  fees: [
    fee("bacs", 20, 100, 400),
    fee("faster_payments", 20, 100, 400),
    fee("sepa_core", 20, 100, 400),
    fee("sepa_credit_transfer", 20, 100, 400),
    fee("sepa_instant_credit_transfer", 30, 100, 410),
    fee("ach", 25, 100, 500),
    fee("pad", 25, 100, 500),
    fee("becs", 30, 100, 500),
    fee("pay_to", 30, 100, 500),
    fee("becs_nz", 30, 100, 500),
    fee("autogiro", 200, 100, 4000),
    fee("betalingsservice", 200, 100, 4000)
  ],
  surcharges: (["AUD", "CAD", "EUR", "GBP", "NZD", "USD", "DKK", "SEK"] as const).flatMap((currency) => {
    // Sandbox values: 1.00 for a late failure, 5.00 for a chargeback (10x in the krone/krona).
    const unit = currency === "DKK" || currency === "SEK" ? 1000 : 100
    return [
      { event: "late_failure_settled" as const, currency, amount: unit },
      { event: "chargeback_settled" as const, currency, amount: 5 * unit }
    ]
  })
}

export const feeRuleFor = (schedule: FeeSchedule, scheme: PaymentScheme, currency: Currency): FeeRule | undefined =>
  schedule.fees.find((r) => r.scheme === scheme && r.currency === currency)

export const surchargeFor = (schedule: FeeSchedule, event: SurchargeEvent, currency: Currency): number =>
  schedule.surcharges.find((s) => s.event === event && s.currency === currency)?.amount ?? 0

/** The percentage part alone: `amount x basis_points / 10000`, rounded half to even. */
export const percentageFee = (amount: number, basisPoints: number): number =>
  Number(divRoundHalfEven(BigInt(amount) * BigInt(basisPoints), BigInt(BASIS_POINTS_PER_UNIT)))

/**
 * The service fee on a payment of `amount` (minor units, non-negative). Never more than
 * `amount`: a payment smaller than the fixed part costs its own amount and pays out nothing.
 */
export const serviceFee = (rule: FeeRule, amount: number): number => {
  // In bigint: fixed + percentage of an amount near 2^53 - 1 can pass it before the caps apply.
  const raw = BigInt(rule.fixed) + BigInt(percentageFee(amount, rule.basis_points))
  const floored = raw > BigInt(rule.minimum) ? raw : BigInt(rule.minimum)
  const capped = rule.cap !== null && floored > BigInt(rule.cap) ? BigInt(rule.cap) : floored
  return capped < BigInt(amount) ? Number(capped) : amount
}
