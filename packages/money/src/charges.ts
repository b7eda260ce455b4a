import { type Currency, InvalidState, type LocalDate, type ValidationFailed } from "@paykit/core"
import { Result } from "effect"
import { validateAppFee } from "./app-fee.ts"
import {
  type FeeSchedule,
  type PaymentScheme,
  type SurchargeEvent,
  feeRuleFor,
  serviceFee,
  surchargeFor
} from "./fee-schedule.ts"
import { TAX_RATES, type TaxJurisdiction, type TaxRate, taxOnFee, taxRateInForce } from "./tax-rates.ts"

/**
 * What a payment costs the merchant, fixed on the day it is charged: the service fee with its
 * tax, and the app fee. Computing this once, at collection, and carrying it to the payout keeps
 * a later rate change from rewriting fees already charged.
 */

export interface FeeTax {
  /** Minor units of the fee's currency. */
  readonly amount: number
  readonly tax_rate_id: string
}

/** A fee charged by the service, with the tax on it when the merchant's jurisdiction taxes fees. */
export interface TaxedFee {
  /** The fee before tax, minor units. */
  readonly fee: number
  readonly tax: FeeTax | null
}

/** The fee plus its tax: what leaves the merchant's proceeds. */
export const taxedFeeTotal = (f: TaxedFee): number => f.fee + (f.tax?.amount ?? 0)

/**
 * Adds tax to a fee at the rate of `jurisdiction` in force on `date`. No jurisdiction (a merchant
 * outside GB and FR) or no rate in force on that date (before the first known rate) means no tax.
 */
export const taxFee = (
  fee: number,
  jurisdiction: TaxJurisdiction | null,
  date: LocalDate,
  rates: ReadonlyArray<TaxRate> = TAX_RATES
): TaxedFee => {
  const rate = jurisdiction === null ? undefined : taxRateInForce(jurisdiction, date, rates)
  return rate === undefined ? { fee, tax: null } : { fee, tax: { amount: taxOnFee(fee, rate), tax_rate_id: rate.id } }
}

export interface CollectionChargesInput {
  readonly schedule: FeeSchedule
  readonly scheme: PaymentScheme
  readonly currency: Currency
  readonly amount: number
  readonly app_fee: number
  readonly tax_jurisdiction: TaxJurisdiction | null
  /** The day the payment is collected; it picks the tax rate. */
  readonly date: LocalDate
  /** Resource key of the request body, for the `app_fee` error's pointer. */
  readonly root: string
  readonly rates?: ReadonlyArray<TaxRate>
}

export interface CollectionCharges {
  readonly gocardless_fee: TaxedFee
  readonly app_fee: number
}

/** The reason when the fee schedule prices no such scheme and currency. */
export const NO_FEE_RULE = "fee_schedule_has_no_rule"

export const collectionCharges = (
  input: CollectionChargesInput
): Result.Result<CollectionCharges, ValidationFailed | InvalidState> => {
  const rule = feeRuleFor(input.schedule, input.scheme, input.currency)
  if (rule === undefined) {
    return Result.fail(new InvalidState({
      reason: NO_FEE_RULE,
      message: `the fee schedule has no rule for ${input.scheme} payments in ${input.currency}`
    }))
  }
  return Result.map(validateAppFee(input.root, input.amount, input.app_fee), (appFee) => ({
    gocardless_fee: taxFee(serviceFee(rule, input.amount), input.tax_jurisdiction, input.date, input.rates),
    app_fee: appFee
  }))
}

/** The surcharge of a late failure or chargeback, with its tax. */
export const surchargeCharge = (
  schedule: FeeSchedule,
  event: SurchargeEvent,
  currency: Currency,
  jurisdiction: TaxJurisdiction | null,
  date: LocalDate,
  rates: ReadonlyArray<TaxRate> = TAX_RATES
): TaxedFee => taxFee(surchargeFor(schedule, event, currency), jurisdiction, date, rates)
