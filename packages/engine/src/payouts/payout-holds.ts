import { Effect } from "effect"
import { CURRENCIES, type Currency, type NotFound, type StorageError } from "@paykit/core"
import { itemsOfAppFeeEntry, itemsOfEntry, sumBig } from "@paykit/money"
import { eq } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { type Creditor, payoutLinkKey } from "../creditors/domain/creditors.ts"
import { PAYOUT_HOLD_REASONS, type PayoutHold, type PayoutHoldReason } from "./domain/payout-holds.ts"
import type { PayoutStores } from "./repositories.ts"

/** The message of the daily run's warning while a creditor's payouts are held. docs/money.md, "Held payouts". */
export const PAYOUTS_HELD = "payouts held: the creditor's collected money waits until it can be paid out"

/**
 * The one rule of who can be paid (GoCardless's): the creditor is verified (spec: successful = can
 * receive payouts) and its default payout account in `currency` is verified. Answers that account,
 * or the reason the creditor's money in `currency` is held. Both the daily assembly and
 * `Payouts.holds` judge by it.
 */
export const payoutHoldOf = (stores: PayoutStores, organisation: string, creditor: Creditor, currency: Currency) =>
  Effect.gen(function*() {
    if (creditor.verification_status !== "successful") return { held: "creditor_not_verified" } as const
    const account = creditor.links[payoutLinkKey(currency)]
    if (account === null) return { held: "no_payout_account" } as const
    const bankAccount = yield* Effect.orDie(stores.accounts.get(organisation, account))
    return bankAccount.resource.verification_status === "successful" ? { account } : { held: "payout_account_not_verified" } as const
  })

export const logHeld = (organisation: string, creditor: string, currency: Currency, reason: PayoutHoldReason) =>
  Effect.logWarning(PAYOUTS_HELD).pipe(
    Effect.annotateLogs({ organisation, creditor, currency, reason, description: PAYOUT_HOLD_REASONS[reason] })
  )

type Waiting = Map<string, Map<Currency, bigint>>

const addWaiting = (waiting: Waiting, creditor: string, currency: Currency, amount: bigint) => {
  const byCurrency = waiting.get(creditor) ?? new Map<Currency, bigint>()
  byCurrency.set(currency, (byCurrency.get(currency) ?? 0n) + amount)
  waiting.set(creditor, byCurrency)
}

/** The net amount no payout has taken yet, per creditor and currency: merchant movements and partner app fees. */
const waitingMoney = (stores: PayoutStores, organisation: string, creditor: string | undefined) =>
  Effect.gen(function*() {
    const query = { payout: eq("none"), ...(creditor === undefined ? {} : { creditor: eq(creditor) }) }
    const waiting: Waiting = new Map()
    const rows: ReadonlyArray<Versioned<{ readonly creditor: string; readonly currency: Currency }> & { readonly amount: bigint }> = [
      ...(yield* stores.ledger.scan(organisation, query)).map((row) => ({ ...row, amount: sumBig(itemsOfEntry(row.resource.entry, false).map((i) => i.amount)) })),
      ...(yield* stores.appFees.scan(organisation, query)).map((row) => ({ ...row, amount: sumBig(itemsOfAppFeeEntry(row.resource.entry).map((i) => i.amount)) }))
    ]
    for (const row of rows) addWaiting(waiting, row.resource.creditor, row.resource.currency, row.amount)
    return waiting
  })

/**
 * What is held now, for one creditor (NotFound if it is not the organisation's) or for every
 * creditor with money waiting: per creditor and currency with unsettled money, the reason the
 * daily run would hold it, by creditor then currency. Empty when nothing is held.
 */
export const payoutHolds = (stores: PayoutStores, organisation: string, creditorId?: string): Effect.Effect<ReadonlyArray<PayoutHold>, NotFound | StorageError> =>
  Effect.gen(function*() {
    if (creditorId !== undefined) yield* stores.creditors.get(organisation, creditorId)
    const waiting = yield* waitingMoney(stores, organisation, creditorId)
    const holds: Array<PayoutHold> = []
    for (const id of [...waiting.keys()].sort()) {
      const creditor = (yield* Effect.orDie(stores.creditors.get(organisation, id))).resource
      const amounts = waiting.get(id) ?? new Map<Currency, bigint>()
      for (const currency of CURRENCIES.filter((c) => amounts.has(c))) {
        const hold = yield* payoutHoldOf(stores, organisation, creditor, currency)
        if (!("held" in hold)) continue
        const amount = Number(amounts.get(currency) ?? 0n)
        holds.push({ currency, reason: hold.held, description: PAYOUT_HOLD_REASONS[hold.held], amount, links: { creditor: id } })
      }
    }
    return holds
  })
