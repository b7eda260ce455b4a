import { Effect } from "effect"
import { type LocalDate, unsafeLocalDate } from "@paykit/core"
import { eq } from "../kernel/ports/list-query.ts"
import { save } from "../kernel/support.ts"
import type { MandateDormancy } from "../mandates/domain/mandate-dormancy.ts"
import type { Mandate } from "../mandates/domain/mandates.ts"
import type { Payment } from "./domain/payments.ts"
import { DORMANCY_SCHEMES } from "../mandates/mandate-dormancy.ts"
import type { InstalmentScheduleCheckRepository, PaymentRepository } from "./repositories.ts"
import type { MandateDormancyRepository } from "../mandates/repositories.ts"

/**
 * A lapsing mandate's last use, kept as its payments are made and moved (`domain/mandate-dormancy.ts`):
 * a payment's charge date later than the kept one raises it; cancelling the payment that held the
 * latest one searches the mandate's payments once, so the kept day is always what a search of
 * them would answer.
 */

export interface LastUseDeps {
  readonly payments: PaymentRepository["Service"]
  readonly dormancy: MandateDormancyRepository["Service"]
  /** Instalment schedules to follow, marked as their payments move (`instalment-schedule-checks.ts`). */
  readonly scheduleChecks: InstalmentScheduleCheckRepository["Service"]
}

/** The last day the mandate was used, by search: its latest payment's charge date not cancelled, else its creation. */
const searchLastUse = (deps: LastUseDeps, organisation: string, record: MandateDormancy) =>
  Effect.map(deps.payments.scan(organisation, { mandate: eq(record.id) }), (rows) =>
    rows.reduce<LocalDate>(
      (latest, row) => row.resource.status !== "cancelled" && row.resource.charge_date !== null && row.resource.charge_date > latest ? row.resource.charge_date : latest,
      unsafeLocalDate(record.created_at.slice(0, 10))
    ))

/**
 * A lapsing mandate that has no record (made before the records were kept) is watched from its
 * last use, found by one search of its payments.
 */
export const watchFromLastUse = (deps: LastUseDeps, organisation: string, mandate: Mandate) =>
  Effect.gen(function*() {
    if (!DORMANCY_SCHEMES.includes(mandate.scheme)) return
    if ((yield* Effect.option(deps.dormancy.get(organisation, mandate.id)))._tag === "Some") return
    const fresh: MandateDormancy = { id: mandate.id, created_at: mandate.created_at, last_use: unsafeLocalDate(mandate.created_at.slice(0, 10)), watching: true }
    yield* Effect.orDie(deps.dormancy.insert(organisation, { ...fresh, last_use: yield* searchLastUse(deps, organisation, fresh) }))
  })

/** After a payment on a mandate was made or moved: its mandate's last use follows. */
export const keepLastUse = (deps: LastUseDeps, organisation: string, payment: Payment) =>
  Effect.gen(function*() {
    const mandateId = payment.links.mandate
    const chargeDate = payment.charge_date
    if (mandateId === undefined || chargeDate === null) return
    // One of many, so a mandate of a scheme that does not lapse (no record) costs no `NotFound`.
    const [record] = yield* deps.dormancy.getMany(organisation, [mandateId])
    if (record === undefined) return
    const lastUse = payment.status !== "cancelled"
      ? (chargeDate > record.resource.last_use ? chargeDate : record.resource.last_use)
      : chargeDate === record.resource.last_use ? yield* searchLastUse(deps, organisation, record.resource) : record.resource.last_use
    if (lastUse !== record.resource.last_use) yield* save(deps.dormancy, organisation, record, { ...record.resource, last_use: lastUse })
  })
