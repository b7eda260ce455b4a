import { Context, Effect, Layer } from "effect"
import { addMonths, decodeAtBoundary, fieldError, InvalidApiUsage, isIdOfResource, localDateOfMillis, type NotFound, PAGE_SIZE_DEFAULT, PAYOUT_ITEMS_GONE_REASON, timestampToMillis, today, type ValidationFailed, validationFailed, type StorageError, OrganisationId } from "@paykit/core"
import { itemsOfAppFeeEntry, itemsOfEntry, type PayoutItemDraft, renderPayoutItem, type TaxDestination } from "@paykit/money"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import { AppFeeLedgerRepository, LedgerRepository } from "../ledger/repositories.ts"
import { PayoutRepository } from "./repositories.ts"
import type { Payout } from "./domain/payouts.ts"
import { PAYOUT_ITEMS, PAYOUT_ITEMS_RETENTION_MONTHS, type PayoutItem, PayoutItemListParams } from "./domain/payout-items.ts"
import { payoutTaxDestination } from "./sandbox-fx.ts"

const decodeList = decodeAtBoundary(PayoutItemListParams, PAYOUT_ITEMS)

/**
 * `GET /payout_items?payout=`: the credits and debits that make up a payout's amount, rendered by
 * @paykit/money from the ledger rows the payout took (a merchant payout's settled movements,
 * `itemsOfEntry`; a partner payout's app fees, `itemsOfAppFeeEntry`): the very items its amount
 * was summed from, so they always add up to it.
 *
 * A row makes zero to four items, so a page is cut at an item, not a row: a cursor is the
 * position of an item, `<row id>.<index in the row>`, and a page reads rows from the payout's
 * `payout` filter index, `limit` at a time, until it holds more than `limit` items or none are left.
 */

/** A ledger row as the items see it: its id, the payout that took it, the items it makes. */
interface ItemRow {
  readonly id: string
  readonly payout: string | null
  readonly drafts: ReadonlyArray<PayoutItemDraft>
}

/** Where a payout's rows are read: newest first by the `payout` filter, or one by id. */
interface RowSource {
  readonly page: (organisation: string, payout: string, limit: number, cursor: { readonly after: string } | { readonly before: string } | undefined) => Effect.Effect<Page<ItemRow>, StorageError>
  readonly get: (organisation: string, id: string) => Effect.Effect<ItemRow | undefined, StorageError>
}

const sourceOf = <A extends { readonly id: string; readonly created_at: string; readonly payout: string | null }>(
  repository: {
    readonly list: (o: string, q: { readonly limit: number; readonly filters: { readonly payout: ReturnType<typeof eq> }; readonly after?: string; readonly before?: string }) => Effect.Effect<Page<A>, StorageError>
    readonly get: (o: string, id: string) => Effect.Effect<{ readonly resource: A }, NotFound | StorageError>
  },
  draftsOf: (row: A) => ReadonlyArray<PayoutItemDraft>
): RowSource => {
  const asRow = (r: A): ItemRow => ({ id: r.id, payout: r.payout, drafts: draftsOf(r) })
  return {
    page: (o, payout, limit, cursor) =>
      Effect.map(repository.list(o, { limit, filters: { payout: eq(payout) }, ...cursor }), (p) => ({ ...p, items: p.items.map(asRow) })),
    get: (o, id) => Effect.map(Effect.option(repository.get(o, id)), (found) => (found._tag === "Some" ? asRow(found.value.resource) : undefined))
  }
}

/** One rendered item and the cursor that names it. */
interface Positioned {
  readonly position: string
  readonly item: PayoutItem
}

interface Cursor {
  readonly row: string
  readonly index: number
}

const notACursor = (field: "after" | "before") => validationFailed([fieldError(PAYOUT_ITEMS, [field], "must be a cursor of this list")])

const cursorOf = (field: "after" | "before", value: string): Effect.Effect<Cursor, ValidationFailed | StorageError> => {
  const [row = "", index = "", ...rest] = value.split(".")
  return isIdOfResource("payout_item", row) && /^\d{1,3}$/.test(index) && rest.length === 0
    ? Effect.succeed({ row, index: Number(index) })
    : Effect.fail(notACursor(field))
}

/** The tax currency of the payout's items, with the sandbox's rate when it differs from the payout's. */
const destinationOf = (payout: Payout): TaxDestination | null => payoutTaxDestination(payout.currency, payout.tax_currency)

/** The items of rows (newest row first, each row's items in their fixed order), with their positions. */
const positioned = (rows: ReadonlyArray<ItemRow>, destination: TaxDestination | null): Array<Positioned> =>
  rows.flatMap((row) =>
    row.drafts.map((draft, index) => ({ position: `${row.id}.${index}`, item: renderPayoutItem(draft, destination) }))
  )

/**
 * The real API's six-month rule: the items of a payout created before the same day six months ago
 * are gone (410).
 */
const stillAvailable = (payout: Payout) =>
  Effect.flatMap(today(), (day) =>
    localDateOfMillis(timestampToMillis(payout.created_at)) >= addMonths(day, -PAYOUT_ITEMS_RETENTION_MONTHS)
      ? Effect.void
      : Effect.fail(new InvalidApiUsage({
        status: 410,
        reason: PAYOUT_ITEMS_GONE_REASON,
        message: `Payout items can only be retrieved for payouts created in the last ${PAYOUT_ITEMS_RETENTION_MONTHS} months; ${payout.id} was created on ${payout.created_at.slice(0, 10)}`
      })))

/** The row a cursor names; a row of another payout (or none) is not a cursor of this list. */
const cursorRow = (source: RowSource, organisation: string, payout: Payout, cursor: Cursor, field: "after" | "before") =>
  Effect.flatMap(source.get(organisation, cursor.row), (row) =>
    row !== undefined && row.payout === payout.id ? Effect.succeed(row) : Effect.fail(notACursor(field)))

/** The page after a cursor (or the first page): the cursor row's later items, then older rows'. */
const pageAfter = (source: RowSource, organisation: string, payout: Payout, limit: number, cursor: Cursor | undefined) =>
  Effect.gen(function*() {
    const destination = destinationOf(payout)
    const start = cursor === undefined ? [] : [yield* cursorRow(source, organisation, payout, cursor, "after")]
    const candidates = positioned(start, destination).filter((_p, i) => cursor === undefined || i > cursor.index)
    let next: string | null | undefined = cursor?.row
    while (candidates.length <= limit && next !== null) {
      const rows: Page<ItemRow> = yield* source.page(organisation, payout.id, limit, next === undefined ? undefined : { after: next })
      candidates.push(...positioned(rows.items, destination))
      next = rows.after
    }
    const taken = candidates.slice(0, limit)
    return {
      items: taken.map((p) => p.item),
      before: cursor === undefined ? null : taken[0]?.position ?? null,
      after: candidates.length > limit || next !== null ? taken[taken.length - 1]?.position ?? null : null
    }
  })

/** The page before a cursor: newer rows' items, then the cursor row's earlier items; the last `limit` of them. */
const pageBefore = (source: RowSource, organisation: string, payout: Payout, limit: number, cursor: Cursor) =>
  Effect.gen(function*() {
    const destination = destinationOf(payout)
    const row = yield* cursorRow(source, organisation, payout, cursor, "before")
    const candidates = positioned([row], destination).filter((_, i) => i < cursor.index)
    let next: string | null = cursor.row
    while (candidates.length <= limit && next !== null) {
      const rows: Page<ItemRow> = yield* source.page(organisation, payout.id, limit, { before: next })
      candidates.unshift(...positioned(rows.items, destination))
      next = rows.before
    }
    const taken = candidates.slice(Math.max(0, candidates.length - limit))
    return {
      items: taken.map((p) => p.item),
      before: candidates.length > limit || next !== null ? taken[0]?.position ?? null : null,
      after: taken[taken.length - 1]?.position ?? null
    }
  })

export class PayoutItems extends Context.Service<PayoutItems, {
  /** The items of a payout; 404 for an unknown payout, 410 for one older than six months. */
  readonly list: (organisation: OrganisationId, params: typeof PayoutItemListParams.Encoded) => Effect.Effect<Page<PayoutItem>, ValidationFailed | NotFound | InvalidApiUsage | StorageError>
}>()("@paykit/engine/PayoutItems") {
  static readonly layer: Layer.Layer<PayoutItems, never, PayoutRepository | LedgerRepository | AppFeeLedgerRepository> = Layer.effect(
    PayoutItems,
    Effect.gen(function*() {
      const payouts = yield* PayoutRepository
      const merchant = sourceOf(yield* LedgerRepository, (row) => itemsOfEntry(row.entry, false))
      const partner = sourceOf(yield* AppFeeLedgerRepository, (row) => itemsOfAppFeeEntry(row.entry))
      return PayoutItems.of({
        list: (organisation, plain) =>
          Effect.gen(function*() {
            const params = yield* decodeList(plain)
            const payout = (yield* payouts.get(organisation, params.payout)).resource
            yield* stillAvailable(payout)
            const source = payout.payout_type === "partner" ? partner : merchant
            const limit = params.limit ?? PAGE_SIZE_DEFAULT
            if (params.before !== undefined) return yield* pageBefore(source, organisation, payout, limit, yield* cursorOf("before", params.before))
            const after = params.after === undefined ? undefined : yield* cursorOf("after", params.after)
            return yield* pageAfter(source, organisation, payout, limit, after)
          })
      })
    })
  )
}
