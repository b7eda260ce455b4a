/**
 * @paykit/money: the arithmetic behind payouts, exact to the minor unit. Integers and bigints
 * only, never a float; one rounding rule (half to even, see `rounding.ts` and docs/money.md).
 */
export * from "./app-fee.ts"
export * from "./charges.ts"
export * from "./exchange-rate.ts"
export * from "./fee-schedule.ts"
export * from "./negative-balance.ts"
export * from "./partner-payout.ts"
export * from "./payout-assembly.ts"
export * from "./payout-fx.ts"
export * from "./payout-items.ts"
export * from "./reference.ts"
export { divRoundHalfEven, sumBig } from "./rounding.ts"
export * from "./settlement.ts"
export * from "./tax-rates.ts"
