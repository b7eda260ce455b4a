import { defineRoom, store } from "../registry/room.ts"
import { appAttributions, appFeeEntries } from "./domain/app-fees.ts"
import { negativeBalanceLimits } from "./domain/negative-balance-limits.ts"
import { ledgerEntries } from "./domain/settlement-entries.ts"
import { AppAttributionRepository, AppFeeLedgerRepository, LedgerRepository, NegativeBalanceLimitRepository } from "./repositories.ts"
import { NegativeBalanceLimits } from "./negative-balance-limits.ts"

/**
 * The ledger's room: the creditor's ledger entries, the partner apps' fees and attributions, and
 * the negative balance limits. Below both payments (which write it) and payouts (which settle it).
 */
export const ledgerRoom = defineRoom({
  stores: [
    store(NegativeBalanceLimitRepository, negativeBalanceLimits),
    store(LedgerRepository, ledgerEntries),
    store(AppAttributionRepository, appAttributions),
    store(AppFeeLedgerRepository, appFeeEntries)
  ],
  services: NegativeBalanceLimits.layer
})
