import { type Currency, Currency as CurrencySchema, type InvalidState, type ValidationFailed, invalidField } from "@paykit/core"
import { Result, Schema } from "effect"
import { convertMinorUnits, exchangeRateOf, ExchangeRateString, renderExchangeRate } from "./exchange-rate.ts"

/**
 * The payout `fx` object. A payout in the collection currency is exchanged into the creditor's
 * `fx_payout_currency` when it has one. Before the payout is paid only an estimated rate is known
 * (it follows the market); once the rate is confirmed (`fx_rate_confirmed`) the payout is paid and
 * carries the confirmed `exchange_rate` and the exchanged `fx_amount`.
 */

export const PayoutFxState = Schema.Union([
  /** Not exchanged: paid out in its own currency. */
  Schema.Struct({ kind: Schema.Literal("not_exchanged") }),
  /** Exchanged, before payout: an estimate only. */
  Schema.Struct({
    kind: Schema.Literal("estimated"),
    fx_currency: CurrencySchema,
    estimated_exchange_rate: ExchangeRateString
  }),
  /** Exchanged, rate confirmed and payout made. */
  Schema.Struct({
    kind: Schema.Literal("confirmed"),
    fx_currency: CurrencySchema,
    exchange_rate: ExchangeRateString
  })
]).annotate({ identifier: "PayoutFxState" })
export type PayoutFxState = typeof PayoutFxState.Type

/** The wire form (`PayoutFx`): every field null where the spec says it is absent. */
export interface PayoutFx {
  readonly fx_currency: Currency | null
  readonly fx_amount: number | null
  readonly exchange_rate: string | null
  readonly estimated_exchange_rate: string | null
}

export const NOT_EXCHANGED: PayoutFx = { fx_currency: null, fx_amount: null, exchange_rate: null, estimated_exchange_rate: null }

/**
 * Renders `fx` for a payout of `amount` in `currency`. The exchanged amount is
 * `amount x exchange_rate` rounded half to even. Exchanging into the payout's own currency is a
 * validation error on `fx.fx_currency`.
 */
export const renderPayoutFx = (
  currency: Currency,
  amount: number,
  state: PayoutFxState
): Result.Result<PayoutFx, ValidationFailed | InvalidState> => {
  switch (state.kind) {
    case "not_exchanged":
      return Result.succeed(NOT_EXCHANGED)
    case "estimated":
    case "confirmed": {
      if (state.fx_currency === currency) {
        return Result.fail(invalidField("payouts", ["fx", "fx_currency"], "must differ from the payout currency"))
      }
      if (state.kind === "estimated") {
        return Result.succeed({
          fx_currency: state.fx_currency,
          fx_amount: null,
          exchange_rate: null,
          estimated_exchange_rate: renderExchangeRate(exchangeRateOf(state.estimated_exchange_rate))
        })
      }
      const rate = exchangeRateOf(state.exchange_rate)
      return Result.map(convertMinorUnits(amount, rate), (fxAmount) => ({
        fx_currency: state.fx_currency,
        fx_amount: fxAmount,
        exchange_rate: renderExchangeRate(rate),
        estimated_exchange_rate: null
      }))
    }
  }
}
