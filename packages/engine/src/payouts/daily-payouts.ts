import { Effect } from "effect"
import type { Currency } from "@paykit/core"
import { today } from "@paykit/core"
import type { DailyItems } from "../due-work/daily-items.ts"
import { idOfVersioned } from "../due-work/daily-items.ts"
import { eq } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { assembleMerchantPayout, assemblePartnerPayout } from "./payout-assembly.ts"
import { sendPayout, type SendingPorts } from "./payout-sending.ts"
import type { PayoutStores } from "./repositories.ts"

/** Groups unsettled rows by creditor and currency: one payout each, the group's key its id. */
export const groupRows = <R extends { readonly creditor: string; readonly currency: Currency }>(rows: ReadonlyArray<Versioned<R>>) => {
  const groups = new Map<string, Array<Versioned<R>>>()
  for (const row of rows) {
    const key = `${row.resource.creditor} ${row.resource.currency}`
    groups.set(key, [...(groups.get(key) ?? []), row])
  }
  return [...groups.entries()]
}

/**
 * The payouts feature's due work on the daily run, in this order: pending payouts made earlier
 * are sent and come back paid or bounced; then each verified creditor's settled movements from
 * earlier days are assembled into one payout per currency. Each payout sent, and each creditor's
 * payout in a currency, is its own unit of work.
 */
export const processPayoutDay = (stores: PayoutStores, ports: SendingPorts, eachItem: DailyItems, organisation: string) =>
  Effect.gen(function*() {
    const pending = yield* stores.payouts.scan(organisation, { status: eq("pending") })
    yield* eachItem("payouts: sending", organisation, pending, idOfVersioned, (payout) => sendPayout(stores, ports, organisation, payout))
    const startOfDay = `${yield* today()}T00:00:00.000Z`
    const due = yield* stores.ledger.scan(organisation, { payout: eq("none"), created_at: { op: "range", lt: startOfDay } })
    yield* eachItem("payouts: assembly", organisation, groupRows(due), ([key]) => key, ([, rows]) => assembleMerchantPayout(stores, organisation, rows))
  })

/**
 * The partner payouts of the day, for an organisation that is a partner app: its app fees of
 * earlier days are assembled into one payout per partner creditor and currency, dated today, and
 * sent by the next day's `processPayoutDay`. Each is its own unit of work.
 */
export const processPartnerPayoutDay = (stores: PayoutStores, eachItem: DailyItems, organisation: string) =>
  Effect.gen(function*() {
    const day = yield* today()
    const due = yield* stores.appFees.scan(organisation, { payout: eq("none"), created_at: { op: "range", lt: `${day}T00:00:00.000Z` } })
    yield* eachItem("partner payouts", organisation, groupRows(due), ([key]) => key, ([, rows]) => assemblePartnerPayout(stores, organisation, rows, day))
  })
