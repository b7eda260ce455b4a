import type { OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import { SANDBOX_BANK_FAILURES } from "../memory/sandbox-bank.ts"
import { eq } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { groupRows } from "../payouts/daily-payouts.ts"
import type { LedgerEntry } from "../ledger/domain/settlement-entries.ts"
import { assembleMerchantPayout } from "../payouts/payout-assembly.ts"
import { bouncePayout } from "../payouts/payout-sending.ts"
import { PAYOUT_BOUNCE_PATHS } from "./catalogue.ts"
import type { ScenarioDeps } from "./deps.ts"
import { payoutNotPossible, resourceOf, type Scenario, stepsFrom } from "./domain.ts"

/**
 * Payouts of the ledger rows given, as the daily assembly makes them: one per creditor and
 * currency, for a verified creditor with a verified payout account and a balance above zero; a
 * group that cannot be paid is left for later, as on the daily run.
 */
export const assembleFrom = (deps: ScenarioDeps, organisation: OrganisationId, rows: ReadonlyArray<Versioned<LedgerEntry>>) =>
  Effect.forEach(groupRows(rows), ([, group]) => assembleMerchantPayout(deps.payouts, organisation, group), { discard: true })

/** `payout_create`: the creditor's unsettled movements are paid out now rather than on the next daily run. */
const createPayouts: Scenario<ScenarioDeps> = {
  run: (deps, organisation, id, scenario) =>
    Effect.flatMap(resourceOf(deps.payouts.creditors.get(organisation, id), "creditor"), () =>
      deps.unitOfWork(Effect.gen(function*() {
        const before = (yield* deps.payouts.payouts.scan(organisation, { creditor: eq(id) })).length
        yield* assembleFrom(deps, organisation, yield* deps.payouts.ledger.scan(organisation, { creditor: eq(id), payout: eq("none") }))
        const after = (yield* deps.payouts.payouts.scan(organisation, { creditor: eq(id) })).length
        if (after === before) return yield* payoutNotPossible(scenario, "be made from this creditor's unsettled payments")
      })))
}

/** `payout_bounced`: the creditor's bank returns the payout, paid or still pending, as the sandbox bank does. */
const bouncePaid: Scenario<ScenarioDeps> = {
  run: (deps, organisation, id, scenario) =>
    Effect.flatMap(resourceOf(deps.payouts.payouts.get(organisation, id), "payout"), (current) =>
      deps.unitOfWork(Effect.gen(function*() {
        yield* stepsFrom(scenario, "payout", current.resource, PAYOUT_BOUNCE_PATHS)
        const confirmed = yield* deps.payment.log.scan(organisation, { payout: eq(id), action: eq("fx_rate_confirmed") })
        yield* bouncePayout(deps.payouts, organisation, current, SANDBOX_BANK_FAILURES.payoutBounce, confirmed.length > 0)
      })))
}

export const PAYOUT_SCENARIOS = {
  payout_bounced: bouncePaid,
  payout_create: createPayouts
} as const satisfies Record<string, Scenario<ScenarioDeps>>
