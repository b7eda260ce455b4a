import { Effect } from "effect"
import {
  Balance,
  BalanceListParams,
  Balances,
  CurrencyExchangeRate,
  CurrencyExchangeRateListParams,
  CurrencyExchangeRates,
  PayoutItem,
  PayoutItemListParams,
  PayoutItems,
  REQUEST_BODIES,
  SchemeIdentifier,
  SchemeIdentifierListParams,
  SchemeIdentifiers
} from "@paykit/engine"
import type { EngineServices } from "./api.ts"
import { createEndpoint, type EndpointDeclaration, getEndpoint, listEndpoint } from "./endpoints.ts"

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
    schemeIdentifiers: yield* SchemeIdentifiers
  }
})

type Declaration = EndpointDeclaration<EngineServices>

export const MONEY_ROUTES: ReadonlyArray<Declaration> = [
  listEndpoint("payout_items", PayoutItem, PayoutItemListParams, (s) => s.money.payoutItems.list),
  listEndpoint("balances", Balance, BalanceListParams, (s) => s.money.balances.list),
  listEndpoint("currency_exchange_rates", CurrencyExchangeRate, CurrencyExchangeRateListParams, (s) => (_o, p) => s.money.exchangeRates.list(p)),
  createEndpoint("scheme_identifiers", SchemeIdentifier, REQUEST_BODIES.scheme_identifiers.create, (s) => s.money.schemeIdentifiers.create),
  listEndpoint("scheme_identifiers", SchemeIdentifier, SchemeIdentifierListParams, (s) => s.money.schemeIdentifiers.list),
  getEndpoint("scheme_identifiers", SchemeIdentifier, (s) => s.money.schemeIdentifiers.get)
]
