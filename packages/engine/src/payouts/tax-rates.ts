import { Context, Effect, Layer } from "effect"
import { NotFound, PAGE_SIZE_DEFAULT } from "@paykit/core"
import { TAX_RATES, type TaxRate, listTaxRates, taxRateById } from "@paykit/money"
import type { Page } from "../kernel/ports/list-query.ts"
import { TAX_RATES_ROOT, type TaxRateListParams } from "./domain/requests.ts"

/** The pagination of a list of reference data or computed rows: cursors are the rows' keys. */
export interface KeyedQuery {
  readonly before?: string
  readonly after?: string
  readonly limit: number
}

/**
 * A page of a list kept in ascending key order (tax rates are reference data listed as
 * @paykit/money orders them, `FR_VAT_1` before `GB_VAT_1`; exchange rates and balances by their
 * currencies): `after` asks for the keys after the cursor, `before` for the keys just before it;
 * each cursor is null when nothing lies beyond.
 */
export const ascendingPageBy = <A>(sorted: ReadonlyArray<A>, keyOf: (a: A) => string, query: KeyedQuery): Page<A> => {
  const window = sorted.filter((r) => (query.after === undefined || keyOf(r) > query.after) && (query.before === undefined || keyOf(r) < query.before))
  const items = query.before !== undefined && query.after === undefined
    ? window.slice(Math.max(0, window.length - query.limit))
    : window.slice(0, query.limit)
  const first = items[0]
  const last = items[items.length - 1]
  if (first === undefined || last === undefined) return { items, before: null, after: null }
  return {
    items,
    before: sorted.some((r) => keyOf(r) < keyOf(first)) ? keyOf(first) : null,
    after: sorted.some((r) => keyOf(r) > keyOf(last)) ? keyOf(last) : null
  }
}

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
  readonly list: (params: TaxRateListParams) => Effect.Effect<Page<TaxRate>>
  readonly get: (id: string) => Effect.Effect<TaxRate, NotFound>
}>()("@paykit/engine/TaxRates") {
  static readonly layerWith = (rates: ReadonlyArray<TaxRate>): Layer.Layer<TaxRates> =>
    Layer.succeed(TaxRates, TaxRates.of({
      list: (params) =>
        Effect.succeed(ascendingPage(listTaxRates(params.jurisdiction === undefined ? {} : { jurisdiction: params.jurisdiction }, rates), keyedQueryOf(params))),
      get: (id) => {
        const rate = taxRateById(id, rates)
        return rate === undefined ? Effect.fail(new NotFound({ resource: TAX_RATES_ROOT, id })) : Effect.succeed(rate)
      }
    }))

  static readonly layer: Layer.Layer<TaxRates> = TaxRates.layerWith(TAX_RATES)
}
