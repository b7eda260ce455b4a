import type { Cause, InstalmentScheduleEvent } from "@paykit/machines"
import { instalmentScheduleMachine } from "@paykit/machines"
import type { CreditorRepository } from "../creditors/repositories.ts"
import type { InstalmentScheduleCheckRepository, PaymentRepository } from "../payments/repositories.ts"
import type { MandateRepository } from "../mandates/repositories.ts"
import type { Payments } from "../payments/payments.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { applyTransition } from "../kernel/support.ts"
import type { InstalmentSchedule } from "./domain/instalment-schedules.ts"
import type { InstalmentScheduleRepository } from "./repositories.ts"

/** What the instalment schedule use cases read and write, taken once when the service is built. */
export interface InstalmentDeps {
  readonly schedules: InstalmentScheduleRepository["Service"]
  readonly mandates: MandateRepository["Service"]
  readonly creditors: CreditorRepository["Service"]
  readonly paymentRecords: PaymentRepository["Service"]
  /** The schedules due to follow their payments (`payments/instalment-schedule-checks.ts`). */
  readonly scheduleChecks: InstalmentScheduleCheckRepository["Service"]
  readonly payments: Payments["Service"]
}

/** The links of a schedule's events. */
export const scheduleLinks = (s: Pick<InstalmentSchedule, "id" | "links">) => ({
  instalment_schedule: s.id,
  mandate: s.links.mandate,
  customer: s.links.customer
})

/** A schedule's status change through its machine. */
export const moveSchedule = (
  deps: InstalmentDeps,
  organisation: string,
  current: Versioned<InstalmentSchedule>,
  event: InstalmentScheduleEvent,
  cause: Cause
) =>
  applyTransition(deps.schedules, {
    organisation,
    machine: instalmentScheduleMachine,
    current,
    event,
    context: {},
    cause,
    links: scheduleLinks(current.resource)
  })
