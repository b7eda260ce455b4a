import { Effect } from "effect"
import type { DueWorkDeclaration } from "../due-work/jobs.ts"
import { Payouts } from "./payouts.ts"

/**
 * The payouts' due work, after the collections: pending payouts are sent, then new ones are
 * assembled; then partner payouts, from the app fees credited to partner apps on earlier days.
 */
export const payoutDueWork: DueWorkDeclaration<Payouts> = Effect.map(Payouts, (payouts: Payouts["Service"]) => [
  { name: "payouts", order: 50, deadline: false, run: payouts.processDay },
  { name: "partner payouts", order: 55, deadline: false, run: payouts.processPartnerDay }
])
