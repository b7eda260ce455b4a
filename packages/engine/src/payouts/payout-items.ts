import { Context, Effect, Layer } from "effect"
import {
  addMonths,
  InvalidApiUsage,
  isIdOfResource,
  localDateOfMillis,
  type NotFound,
  PAGE_SIZE_DEFAULT,
  PAYOUT_ITEMS_GONE_REASON,
  today,
  timestampToMillis,
  type ValidationFailed,
  validationFailed,
  fieldError
} from "@paykit/core"
import { itemsOfEntry, renderPayoutItem, type TaxDestination } from "@paykit/money"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import { LedgerRepository, PayoutRepository } from "./repositories.ts"
import type { Payout } from "./domain/payouts.ts"
import type { LedgerEntry } from "./domain/settlement-entries.ts"
import {
  PAYOUT_ITEMS,
  PAYOUT_ITEMS_RETENTION_MONTHS,
  type PayoutItem,
  type PayoutItemListParams
} from "./domain/payout-items.ts"
import { sandboxRate } from "./sandbox-fx.ts"

/**
 * `GET /payout_items?payout=`: the credits and debits that make up a payout's amount, rendered by
 * @paykit/money from the ledger rows the payout took (`itemsOfEntry`, the very items its amount
 * was summed from), so the items always add up to the payout's amount.
 *
 * A ledger row makes one to four items, so a page is cut at an item, not a row: a cursor is the
 * position of an item, `<row id>.<index in the row>`, and a page reads at most `limit` rows from
 * the payout's `payout` filter index (each row makes at least one item).
 */

/** One rendered item and where it sits: the cursor that names it. */
interface Positioned {
  readonly position: string
  readonly item: PayoutItem
}

interface Cursor {
  readonly row: string
  readonly index: number
}

const positionOf = (row: string, index: number) => `${row}.${index}`

const cursorOf = (field: "after" | "before", value: string): Effect.Effect<Cursor, ValidationFailed> => {
  const [row = "", index = "", ...rest] = value.split(".")
  return isIdOfResource("payout_item", row) && /^\d{1,3}$/.test(index) && rest.length === 0
    ? Effect.succeed({ row, index: Number(index) })
    : Effect.fail(notACursor(field))
}

const notACursor = (field: "after" | "before") => validationFailed([fieldError(PAYOUT_ITEMS, [field], "must be a cursor of this list")])

/** The tax currency of the payout's items, with the sandbox's rate when it differs from the payout's. */
const destinationOf = (payout: Payout): TaxDestination | null => {
  if (payout.tax_currency === null) return null
  const rate = payout.tax_currency === payout.currency ? undefined : sandboxRate(payout.currency, payout.tax_currency)
  return rate === undefined ? { currency: payout.tax_currency } : { currency: payout.tax_currency, rate }
}

/** The items of ledger rows (newest row first, each row's items in their fixed order), with their positions. */
export const positionedItems = (rows: ReadonlyArray<LedgerEntry>, destination: TaxDestination | null): ReadonlyArray<Positioned> =>
  rows.flatMap((row) =>
    itemsOfEntry(row.entry, false).map((draft, index) => ({
      position: positionOf(row.id, index),
      item: renderPayoutItem(draft, destination) as PayoutItem
    }))
  )

/**
 * The real API's six-month rule: the items of a payout created before the same day six months ago
 * are gone (410).
 */
const stillAvailable = (payout: Payout) =>
  Effect.flatMap(today(), (day) => {
    const oldest = addMonths(day, -PAYOUT_ITEMS_RETENTION_MONTHS)
    return localDateOfMillis(timestampToMillis(payout.created_at)) >= oldest
      ? Effect.void
      : Effect.fail(new InvalidApiUsage({
        status: 410,
        reason: PAYOUT_ITEMS_GONE_REASON,
        message: `Payout items can only be retrieved for payouts created in the last ${PAYOUT_ITEMS_RETENTION_MONTHS} months; ${payout.id} was created on ${payout.created_at.slice(0, 10)}`
      }))
  })

type Ledger = LedgerRepository["Service"]

/** The page after a cursor (or the first page): the cursor row's later items, then older rows'. */
const pageAfter = (ledger: Ledger, organisation: string, payout: Payout, limit: number, cursor: Cursor | undefined) =>
  Effect.gen(function*() {
    const filters = { payout: eq(payout.id) }
    const destination = destinationOf(payout)
    const start = cursor === undefined ? [] : [yield* cursorRow(ledger, organisation, payout, cursor.row, "after")]
    const older = yield* ledger.list(organisation, { filters, limit, ...(cursor === undefined ? {} : { after: cursor.row }) })
    const candidates = positionedItems(start, destination).filter((_p, i) => cursor === undefined || i > cursor.index)
      .concat(positionedItems(older.items, destination))
    const taken = candidates.slice(0, limit)
    const more = candidates.length > limit || older.after !== null
    return {
      items: taken.map((p) => p.item),
      before: cursor === undefined ? null : taken[0]?.position ?? null,
      after: more ? taken[taken.length - 1]?.position ?? null : null
    }
  })

/** The page before a cursor: newer rows' items, then the cursor row's earlier items; the last `limit` of them. */
const pageBefore = (ledger: Ledger, organisation: string, payout: Payout, limit: number, cursor: Cursor) =>
  Effect.gen(function*() {
    const destination = destinationOf(payout)
    const row = yield* cursorRow(ledger, organisation, payout, cursor.row, "before")
    const newer = yield* ledger.list(organisation, { filters: { payout: eq(payout.id) }, limit, before: cursor.row })
    const candidates = positionedItems(newer.items, destination)
      .concat(positionedItems([row], destination).filter((_, i) => i < cursor.index))
    const taken = candidates.slice(Math.max(0, candidates.length - limit))
    const more = candidates.length > limit || newer.before !== null
    return {
      items: taken.map((p) => p.item),
      before: more ? taken[0]?.position ?? null : null,
      after: taken[taken.length - 1]?.position ?? null
    }
  })

/** The ledger row a cursor names; a row of another payout (or none) is not a cursor of this list. */
const cursorRow = (ledger: Ledger, organisation: string, payout: Payout, row: string, field: "after" | "before") =>
  Effect.flatMap(Effect.option(ledger.get(organisation, row)), (found) =>
    found._tag === "Some" && found.value.resource.payout === payout.id
      ? Effect.succeed(found.value.resource)
      : Effect.fail(notACursor(field)))

export class PayoutItems extends Context.Service<PayoutItems, {
  /** The items of a payout; 404 for an unknown payout, 410 for one older than six months. */
  readonly list: (organisation: string, params: PayoutItemListParams) => Effect.Effect<Page<PayoutItem>, ValidationFailed | NotFound | InvalidApiUsage>
}>()("@paykit/engine/PayoutItems") {
  static readonly layer: Layer.Layer<PayoutItems, never, PayoutRepository | LedgerRepository> = Layer.effect(
    PayoutItems,
    Effect.gen(function*() {
      const payouts = yield* PayoutRepository
      const ledger = yield* LedgerRepository
      return PayoutItems.of({
        list: (organisation, params) =>
          Effect.gen(function*() {
            const payout = (yield* payouts.get(organisation, params.payout)).resource
            yield* stillAvailable(payout)
            const limit = params.limit ?? PAGE_SIZE_DEFAULT
            if (params.before !== undefined) return yield* pageBefore(ledger, organisation, payout, limit, yield* cursorOf("before", params.before))
            const after = params.after === undefined ? undefined : yield* cursorOf("after", params.after)
            return yield* pageAfter(ledger, organisation, payout, limit, after)
          })
      })
    })
  )
}
