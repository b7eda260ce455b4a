import { Effect } from "effect"
import { HttpApiEndpoint, HttpApiSchema } from "effect/http-api"
import {
  Balance,
  BalanceListParams,
  Balances,
  CurrencyExchangeRate,
  CurrencyExchangeRateListParams,
  CurrencyExchangeRates,
  FUNDS_AVAILABILITY,
  FundsAvailabilities,
  FundsAvailability,
  FundsAvailabilityParams,
  NegativeBalanceLimitListParams,
  NegativeBalanceLimits,
  negativeBalanceLimits,
  PayoutItem,
  PayoutItemListParams,
  PayoutItems,
  PayoutListParams,
  Payouts,
  payouts,
  REQUEST_BODIES,
  TaxRateListParams,
  TaxRates
} from "@paykit/engine"
import { TaxRate } from "@paykit/money"
import { declare, type EndpointDeclaration, getEndpoint, listEndpoint, readUnderId, updateEndpoint } from "../endpoints.ts"
import { queryDeclaration, queryShapeOf } from "../query-params.ts"
import { listHandler, queryReadHandler } from "../read-handlers.ts"
import { routeRoom } from "../routes.ts"
import { ErrorBody, page, single } from "../wire.ts"

/**
 * Payouts and the money around them: a payout's items, the creditor's balances and negative
 * balance limits, whether funds are available for a mandate's payment, exchange rates and tax
 * rates (docs/money-reads.md).
 */

const services = Effect.gen(function*() {
  return {
    payouts: yield* Payouts,
    payoutItems: yield* PayoutItems,
    balances: yield* Balances,
    negativeBalanceLimits: yield* NegativeBalanceLimits,
    funds: yield* FundsAvailabilities,
    exchangeRates: yield* CurrencyExchangeRates,
    taxRates: yield* TaxRates
  }
})

const PAYOUTS = "payouts"
const ITEMS = "payout_items"
const BALANCES = "balances"
const LIMITS = "negative_balance_limits"
const RATES = "currency_exchange_rates"
const TAX_RATES = "tax_rates"

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  listEndpoint(PAYOUTS, payouts.schema, PayoutListParams, (s) => s.payouts.list),
  getEndpoint(PAYOUTS, payouts.schema, (s) => s.payouts.get),
  updateEndpoint(PAYOUTS, payouts.schema, REQUEST_BODIES.payouts.update, (s) => s.payouts.update),
  // Its own error besides the gateway's: 410 for a payout older than six months.
  declare(
    ITEMS,
    HttpApiEndpoint.get("list", `/${ITEMS}`, {
      query: queryDeclaration(queryShapeOf(PayoutItemListParams)),
      success: page(ITEMS, PayoutItem),
      error: ErrorBody.pipe(HttpApiSchema.status(410))
    }),
    (s) => listHandler(ITEMS, PayoutItemListParams, s.payoutItems.list)
  ),
  listEndpoint(BALANCES, Balance, BalanceListParams, (s) => s.balances.list),
  listEndpoint(LIMITS, negativeBalanceLimits.schema, NegativeBalanceLimitListParams, (s) => s.negativeBalanceLimits.list),
  readUnderId(FUNDS_AVAILABILITY, "check", `/${FUNDS_AVAILABILITY}/:id`, FundsAvailabilityParams, single(FUNDS_AVAILABILITY, FundsAvailability), (s) =>
    queryReadHandler(FUNDS_AVAILABILITY, FundsAvailabilityParams, s.funds.check)),
  listEndpoint(RATES, CurrencyExchangeRate, CurrencyExchangeRateListParams, (s) => (_o, p) => s.exchangeRates.list(p)),
  listEndpoint(TAX_RATES, TaxRate, TaxRateListParams, (s) => (_o, p) => s.taxRates.list(p)),
  getEndpoint(TAX_RATES, TaxRate, (s) => (_o, id) => s.taxRates.get(id))
]

export const payoutsRoom = routeRoom([PAYOUTS, ITEMS, BALANCES, LIMITS, FUNDS_AVAILABILITY, RATES, TAX_RATES], services, declarations)
