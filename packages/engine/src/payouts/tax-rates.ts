import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, NotFound, PAGE_SIZE_DEFAULT, type ValidationFailed } from "@paykit/core"
import { TAX_RATES, type TaxRate, listTaxRates, taxRateById } from "@paykit/money"
import { type KeyedQuery, type Page, pageWindow } from "../kernel/ports/list-query.ts"
import { TAX_RATES_ROOT, TaxRateListParams } from "./domain/requests.ts"

const decodeList = decodeAtBoundary(TaxRateListParams, TAX_RATES_ROOT)

/**
 * A page of a list kept in ascending key order (tax rates are reference data listed as
 * @paykit/money orders them, `FR_VAT_1` before `GB_VAT_1`; exchange rates and balances by their
 * currencies).
 */
export const ascendingPageBy = <A>(sorted: ReadonlyArray<A>, keyOf: (a: A) => string, query: KeyedQuery): Page<A> =>
  pageWindow(sorted, keyOf, (a, b) => a < b, query)

/** `ascendingPageBy` of rows keyed by their ids. */
export const ascendingPage = <A extends { readonly id: string }>(sorted: ReadonlyArray<A>, query: KeyedQuery): Page<A> =>
  ascendingPageBy(sorted, (r) => r.id, query)

/** The keyed query of decoded pagination fields. */
export const keyedQueryOf = (params: { readonly before?: string; readonly after?: string; readonly limit?: number }): KeyedQuery => ({
  limit: params.limit ?? PAGE_SIZE_DEFAULT,
  ...(params.before === undefined ? {} : { before: params.before }),
  ...(params.after === undefined ? {} : { after: params.after })
})

/** `/tax_rates`: the rates of @paykit/money, the same for every organisation. */
export class TaxRates extends Context.Service<TaxRates, {
  readonly list: (params: typeof TaxRateListParams.Encoded) => Effect.Effect<Page<TaxRate>, ValidationFailed>
  readonly get: (id: string) => Effect.Effect<TaxRate, NotFound>
}>()("@paykit/engine/TaxRates") {
  static readonly layerWith = (rates: ReadonlyArray<TaxRate>): Layer.Layer<TaxRates> =>
    Layer.succeed(TaxRates, TaxRates.of({
      list: (plain) =>
        Effect.map(decodeList(plain), (params) =>
          ascendingPage(listTaxRates(params.jurisdiction === undefined ? {} : { jurisdiction: params.jurisdiction }, rates), keyedQueryOf(params))),
      get: (id) => {
        const rate = taxRateById(id, rates)
        return rate === undefined ? Effect.fail(new NotFound({ resource: TAX_RATES_ROOT, id })) : Effect.succeed(rate)
      }
    }))

  static readonly layer: Layer.Layer<TaxRates> = TaxRates.layerWith(TAX_RATES)
}
