import { Effect } from "effect"
import type { DueWorkDeclaration } from "../due-work/jobs.ts"
import { InstalmentSchedules } from "./instalment-schedules.ts"

/**
 * The instalments' due work: after the payments have moved and been paid out (collections at 40,
 * payouts at 50), each schedule follows its payments.
 */
export const instalmentDueWork: DueWorkDeclaration<InstalmentSchedules> = Effect.gen(function*() {
  const schedules = yield* InstalmentSchedules
  return [{ name: "instalment schedules", order: 57, deadline: false, run: schedules.processDay }]
})
