import { Layer } from "effect"
import { defineRoom } from "../kernel/room.ts"
import { fromBackend } from "../kernel/repository-service.ts"
import { appAttributions, appFeeEntries } from "./domain/app-fees.ts"
import { negativeBalanceLimits } from "./domain/negative-balance-limits.ts"
import { ledgerEntries } from "./domain/settlement-entries.ts"
import { AppAttributionRepository, AppFeeLedgerRepository, LedgerRepository, NegativeBalanceLimitRepository } from "./repositories.ts"

/**
 * The ledger's room: the creditor's ledger entries, the partner apps' fees and attributions, and
 * the negative balance limits. Below both payments (which write it) and payouts (which settle it).
 */
export const ledgerRoom = defineRoom({
  resources: [negativeBalanceLimits, ledgerEntries, appAttributions, appFeeEntries],
  repositories: Layer.mergeAll(
    fromBackend(NegativeBalanceLimitRepository, negativeBalanceLimits),
    fromBackend(LedgerRepository, ledgerEntries),
    fromBackend(AppAttributionRepository, appAttributions),
    fromBackend(AppFeeLedgerRepository, appFeeEntries)
  )
})
