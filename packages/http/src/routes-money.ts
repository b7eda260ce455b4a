import { Effect, Schema } from "effect"
import { HttpApiEndpoint, HttpApiSchema } from "effect/http-api"
import {
  Balance,
  BalanceListParams,
  Balances,
  CurrencyExchangeRate,
  CurrencyExchangeRateListParams,
  CurrencyExchangeRates,
  Export,
  ExportListParams,
  Exports,
  FundsAvailabilities,
  FUNDS_AVAILABILITY,
  FundsAvailability,
  FundsAvailabilityParams,
  outboundPaymentImports,
  OutboundPaymentStatistics,
  OutboundPaymentStats,
  PAYMENT_ACCOUNT_TRANSACTIONS,
  PaymentAccountTransaction,
  PaymentAccountTransactionListParams,
  PaymentAccountTransactions,
  PayoutItem,
  PayoutItemListParams,
  PayoutItems,
  REQUEST_BODIES,
  SchemeIdentifier,
  SchemeIdentifierListParams,
  SchemeIdentifiers
} from "@paykit/engine"
import type { Declaration, EngineServices } from "./api.ts"
import { ok } from "./api-response.ts"
import { bodilessActionEndpoint, createEndpoint, declare, getEndpoint, IdParams, listEndpoint, RateLimit } from "./endpoints.ts"
import { queryDeclaration, queryShapeOf } from "./query-params.ts"
import { OUTBOUND_PAYMENT_OTHER } from "./rate-limit.ts"
import { listHandler, type ListParamsSchema, nestedListHandler, queryReadHandler } from "./read-handlers.ts"
import type { ApiHandler } from "./api-request.ts"
import { ErrorBody, page, single } from "./wire.ts"

/**
 * The routes of issue 18's money part: payout items, balances, exchange rates, scheme identifiers,
 * payment account transactions, funds availability, exports and the outbound extras
 * (docs/money-reads.md).
 */

/** The engine's services these routes call, under `EngineServices.money`. */
export const moneyServices = Effect.gen(function*() {
  return {
    payoutItems: yield* PayoutItems,
    balances: yield* Balances,
    exchangeRates: yield* CurrencyExchangeRates,
    schemeIdentifiers: yield* SchemeIdentifiers,
    transactions: yield* PaymentAccountTransactions,
    funds: yield* FundsAvailabilities,
    exports: yield* Exports,
    outboundStats: yield* OutboundPaymentStatistics
  }
})


/** A `GET` of a path with an id and query parameters, answered by the handler `bind` makes. */
const readUnderId = (
  group: string,
  name: string,
  path: `/${string}`,
  params: ListParamsSchema,
  success: Schema.Top,
  bind: (s: EngineServices) => ApiHandler
): Declaration =>
  declare(group, HttpApiEndpoint.get(name, path, { params: IdParams, query: queryDeclaration(queryShapeOf(params)), success }), bind)

const SI = "scheme_identifiers"
const PAT = PAYMENT_ACCOUNT_TRANSACTIONS

export const MONEY_ROUTES: ReadonlyArray<Declaration> = [
  // Its own error besides the gateway's: 410 for a payout older than six months.
  declare(
    "payout_items",
    HttpApiEndpoint.get("list", "/payout_items", {
      query: queryDeclaration(queryShapeOf(PayoutItemListParams)),
      success: page("payout_items", PayoutItem),
      error: ErrorBody.pipe(HttpApiSchema.status(410))
    }),
    (s) => listHandler("payout_items", PayoutItemListParams, s.money.payoutItems.list)
  ),
  listEndpoint("balances", Balance, BalanceListParams, (s) => s.money.balances.list),
  listEndpoint("currency_exchange_rates", CurrencyExchangeRate, CurrencyExchangeRateListParams, (s) => (_o, p) => s.money.exchangeRates.list(p)),
  createEndpoint(SI, SchemeIdentifier, REQUEST_BODIES.scheme_identifiers.create, (s) => s.money.schemeIdentifiers.create),
  listEndpoint(SI, SchemeIdentifier, SchemeIdentifierListParams, (s) => s.money.schemeIdentifiers.list),
  getEndpoint(SI, SchemeIdentifier, (s) => s.money.schemeIdentifiers.get),
  getEndpoint(PAT, PaymentAccountTransaction, (s) => s.money.transactions.get),
  readUnderId(PAT, "list", "/payment_accounts/:id/transactions", PaymentAccountTransactionListParams, page(PAT, PaymentAccountTransaction), (s) =>
    nestedListHandler(PAT, PaymentAccountTransactionListParams, s.money.transactions.list)),
  readUnderId(FUNDS_AVAILABILITY, "check", "/funds_availability/:id", FundsAvailabilityParams, single(FUNDS_AVAILABILITY, FundsAvailability), (s) =>
    queryReadHandler(FUNDS_AVAILABILITY, FundsAvailabilityParams, s.money.funds.check)),
  listEndpoint("exports", Export, ExportListParams, (s) => s.money.exports.list),
  getEndpoint("exports", Export, (s) => s.money.exports.get),
  // An outbound payment read: it counts against the spec's limit of outbound payment calls.
  declare(
    "outbound_payments",
    HttpApiEndpoint.get("stats", "/outbound_payments/stats", { success: Schema.Struct({ outbound_payments: OutboundPaymentStats }) })
      .annotate(RateLimit, OUTBOUND_PAYMENT_OTHER),
    (s) => (_request, caller) => Effect.map(s.money.outboundStats.stats(caller.organisation), (stats) => ok({ outbound_payments: stats }))
  ),
  bodilessActionEndpoint("cancel", "outbound_payment_imports", outboundPaymentImports.schema, (s) => s.imports.cancel)
]
