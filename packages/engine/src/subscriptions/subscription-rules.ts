import { Effect } from "effect"
import { today } from "@paykit/core"
import { calendarFor, chargeDay, earliestChargeDateAfterResume, formatDayNumber, hasFurtherPayments, reportedEndDate, type SubscriptionSchedule, upcomingPayments } from "@paykit/schedule"
import type { AppAttributionRepository } from "../ledger/repositories.ts"
import type { CreditorRepository } from "../creditors/repositories.ts"
import type { Mandate } from "../mandates/domain/mandates.ts"
import type { Subscription } from "./domain/subscriptions.ts"
import { withNextPossibleChargeDate } from "../mandates/mandate-rules.ts"
import type { MandateRepository } from "../mandates/repositories.ts"
import type { SubscriptionRepository, SubscriptionScheduleRepository } from "./repositories.ts"

/** What the use cases of subscriptions read and write. */
export interface SubscriptionDeps {
  readonly subscriptions: SubscriptionRepository["Service"]
  readonly schedules: SubscriptionScheduleRepository["Service"]
  readonly attributions: AppAttributionRepository["Service"]
  readonly mandates: MandateRepository["Service"]
  readonly creditors: CreditorRepository["Service"]
}

/** The links of a subscription's events: with the mandate's customer and creditor where it was read. */
export const subscriptionLinks = (s: Pick<Subscription, "id" | "links">, mandate?: Mandate) => ({
  subscription: s.id,
  mandate: s.links.mandate,
  ...(mandate === undefined ? {} : { customer: mandate.links.customer, creditor: mandate.links.creditor })
})

/** The subscription machine's facts for an event other than a pause. */
export const factsOf = (schedule: SubscriptionSchedule, scheme: Mandate["scheme"]) =>
  ({ has_further_payments: hasFurtherPayments(schedule, calendarFor(scheme)), pause: null })

/** The facts of an amendment or cancellation, which no guard of the machine reads. */
export const UNGUARDED = { has_further_payments: true, pause: null } as const

// The reads every use case of subscriptions shares: the mandate as of today, and a subscription as served.

/** The mandate as it reads today, with its next possible charge date. */
export const mandateToday = (deps: SubscriptionDeps, organisation: string, id: string) =>
  Effect.gen(function*() {
    const mandate = yield* deps.mandates.get(organisation, id)
    const creditor = yield* Effect.orDie(deps.creditors.get(organisation, mandate.resource.links.creditor))
    return withNextPossibleChargeDate(mandate.resource, creditor.resource, yield* today())
  })

/** The fields that change with time, computed when read. */
export const present = (deps: SubscriptionDeps, organisation: string, subscription: Subscription) =>
  Effect.gen(function*() {
    const record = yield* Effect.orDie(deps.schedules.get(organisation, subscription.id))
    const mandate = yield* Effect.orDie(mandateToday(deps, organisation, subscription.links.mandate))
    const calendar = calendarFor(mandate.scheme)
    const schedule = record.resource.schedule
    const live = subscription.status === "active" || subscription.status === "paused"
    const from = mandate.next_possible_charge_date ?? (yield* today())
    const upcoming = () => {
      const nextCharge = formatDayNumber(chargeDay(schedule.recurrence, calendar, schedule.fromIndex))
      return upcomingPayments(schedule, calendar, nextCharge < from ? from : nextCharge, subscription.amount)
    }
    return {
      ...subscription,
      end_date: reportedEndDate(schedule, calendar),
      upcoming_payments: live ? upcoming() : [],
      earliest_charge_date_after_resume: subscription.status === "paused" ? earliestChargeDateAfterResume(schedule, calendar, from) : null
    }
  })

