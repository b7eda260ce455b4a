import { Context, Effect, Layer } from "effect"
import { CURRENCIES, type Currency, decodeAtBoundary, isCurrency, type NotFound, now, type OrganisationId, type StorageError, type Timestamp, type ValidationFailed } from "@paykit/core"
import { itemsOfEntry, sumBig } from "@paykit/money"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import type { AggregateGroup } from "../kernel/ports/repository.ts"
import { PaymentRepository } from "../payments/repositories.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import type { Creditor } from "../creditors/domain/creditors.ts"
import { LedgerRepository } from "../ledger/repositories.ts"
import { PayoutRepository } from "./repositories.ts"
import { type Balance, BalanceListParams, BALANCE_TYPES, type BalanceType } from "./domain/balances.ts"
import { ascendingPageBy, keyedQueryOf } from "./tax-rates.ts"

const decodeList = decodeAtBoundary(BalanceListParams, "balances")

/**
 * `GET /balances?creditor=`: what a creditor's money is doing now, per currency, computed from the
 * records that hold it (nothing is stored twice):
 * - `pending_payments_submitted`: payments submitted to the banks and not yet confirmed;
 * - `confirmed_funds`: settled movements no payout has taken yet, net of their fees (the items the
 *   next payout will hold, by @paykit/money's `itemsOfEntry`; negative when reversals outweigh);
 * - `pending_payouts`: payouts created and not yet sent (`pending`).
 * Every currency the creditor collects in (its active scheme identifiers' currencies) or has money
 * in appears with its three types, zero included; the reads use the `creditor`, `status` and
 * `payout` filter indexes.
 */

type Totals = Map<Currency, Record<BalanceType, bigint>>

const add = (totals: Totals, currency: Currency, type: BalanceType, amount: bigint) => {
  const row = totals.get(currency) ?? { pending_payments_submitted: 0n, confirmed_funds: 0n, pending_payouts: 0n }
  totals.set(currency, { ...row, [type]: row[type] + amount })
}

/** The balances of totals, by currency then type (the list's order and its cursor keys). */
export const balancesOf = (creditor: string, totals: Totals, at: Timestamp): ReadonlyArray<Balance> =>
  CURRENCIES.flatMap((currency) => {
    const row = totals.get(currency)
    return row === undefined ? [] : BALANCE_TYPES.map((balance_type) => ({
      amount: Number(row[balance_type]),
      balance_type,
      currency,
      last_updated_at: at,
      links: { creditor }
    }))
  })

/** Adds an aggregate grouped by currency to one balance type. */
const addGroups = (totals: Totals, type: BalanceType, groups: Effect.Effect<ReadonlyArray<AggregateGroup>, StorageError>) =>
  Effect.map(groups, (rows) => {
    for (const row of rows) if (row.key !== null && isCurrency(row.key)) add(totals, row.key, type, row.sum)
  })

export const balanceKey = (b: Balance) => `${b.currency}.${BALANCE_TYPES.indexOf(b.balance_type)}`

export class Balances extends Context.Service<Balances, {
  readonly list: (organisation: OrganisationId, params: typeof BalanceListParams.Encoded) => Effect.Effect<Page<Balance>, ValidationFailed | NotFound | StorageError>
}>()("@paykit/engine/Balances") {
  static readonly layer: Layer.Layer<Balances, never, CreditorRepository | PaymentRepository | LedgerRepository | PayoutRepository> = Layer.effect(
    Balances,
    Effect.gen(function*() {
      const creditors = yield* CreditorRepository
      const payments = yield* PaymentRepository
      const ledger = yield* LedgerRepository
      const payouts = yield* PayoutRepository
      const totalsOf = (organisation: string, creditor: Creditor) =>
        Effect.gen(function*() {
          const totals: Totals = new Map()
          for (const identifier of creditor.scheme_identifiers) {
            if (identifier.status === "active") add(totals, identifier.currency, "confirmed_funds", 0n)
          }
          // Submitted payments and pending payouts are counted in the store, grouped by currency.
          yield* addGroups(totals, "pending_payments_submitted", payments.aggregate(organisation, { creditor: eq(creditor.id), status: eq("submitted") }, "currency", "amount"))
          for (const { resource: row } of yield* ledger.scan(organisation, { creditor: eq(creditor.id), payout: eq("none") })) {
            add(totals, row.currency, "confirmed_funds", sumBig(itemsOfEntry(row.entry, false).map((i) => i.amount)))
          }
          yield* addGroups(totals, "pending_payouts", payouts.aggregate(organisation, { creditor: eq(creditor.id), status: eq("pending") }, "currency", "amount"))
          return totals
        })
      return Balances.of({
        list: (organisation, plain) =>
          Effect.gen(function*() {
            const params = yield* decodeList(plain)
            const creditor = (yield* creditors.get(organisation, params.creditor)).resource
            const balances = balancesOf(creditor.id, yield* totalsOf(organisation, creditor), yield* now)
            return ascendingPageBy(balances, balanceKey, keyedQueryOf(params))
          })
      })
    })
  )
}
