import { Effect } from "effect"
import { type LocalDate, unsafeAmount } from "@paykit/core"
import { subscriptionMachine } from "@paykit/machines"
import { calendarFor, chargeDay, formatDayNumber, hasFurtherPayments, type SubscriptionSchedule } from "@paykit/schedule"
import { oneOf } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { type DailyItems, idOfVersioned } from "../kernel/daily-items.ts"
import { applyTransition, save } from "../kernel/support.ts"
import { attributionOf } from "../payouts/app-fees.ts"
import type { Mandate } from "./domain/mandates.ts"
import type { PaymentCreateRequest } from "./domain/payments.ts"
import type { Subscription, SubscriptionScheduleRecord } from "./domain/subscriptions.ts"
import type { Payments } from "./payments.ts"
import { factsOf, mandateToday, type SubscriptionDeps, subscriptionLinks } from "./subscription-rules.ts"

/** What the daily work of subscriptions reads and writes: it creates payments through their service. */
export interface SubscriptionDueDeps extends SubscriptionDeps {
  readonly payments: Payments["Service"]
  readonly eachItem: DailyItems
}

/** The payment command of a subscription's occurrence charged on `chargeDate`. */
const paymentOf = (s: Subscription, chargeDate: LocalDate): PaymentCreateRequest => ({
  amount: unsafeAmount(s.amount),
  currency: s.currency,
  charge_date: chargeDate,
  ...(s.name === null ? {} : { description: s.name }),
  ...(s.payment_reference === null ? {} : { reference: s.payment_reference }),
  ...(s.app_fee === null ? {} : { app_fee: unsafeAmount(s.app_fee) }),
  retry_if_possible: s.retry_if_possible,
  links: { mandate: s.links.mandate }
})


/** A status change the daily run makes by itself: the schedule is spent, or a pause for cycles ended. */
const moveByItself = (deps: SubscriptionDueDeps, organisation: string, current: Versioned<Subscription>, mandate: Mandate, schedule: SubscriptionSchedule, event: "finish" | "resume") =>
  applyTransition(deps.subscriptions, {
    organisation,
    machine: subscriptionMachine,
    current,
    event,
    context: factsOf(schedule, mandate.scheme),
    cause: event === "finish"
      ? { origin: "gocardless", cause: "subscription_finished", description: "Every payment of the subscription has been created." }
      : { origin: "gocardless", cause: "subscription_resumed", description: "The subscription's pause for a number of cycles has ended." },
    links: subscriptionLinks(current.resource, mandate)
  })

/** One occurrence charged: its payment created, the schedule advanced, the machine told (its guard checks there was one). */
const chargeOccurrence = (deps: SubscriptionDueDeps, organisation: string, current: Versioned<Subscription>, record: Versioned<SubscriptionScheduleRecord>, mandate: Mandate, chargeDate: LocalDate) =>
  Effect.gen(function*() {
    const s = current.resource
    const schedule = record.resource.schedule
    const payment = yield* deps.payments.create(organisation, paymentOf(s, chargeDate), { subscription: s.id, app: yield* attributionOf(deps.attributions, organisation, s.id) })
    yield* applyTransition(deps.subscriptions, {
      organisation,
      machine: subscriptionMachine,
      current,
      event: "create_payment",
      context: factsOf(schedule, mandate.scheme),
      cause: { origin: "gocardless", cause: "payment_created", description: "Payment created by a subscription." },
      links: { ...subscriptionLinks(s, mandate), payment: payment.id }
    })
    return yield* save(deps.schedules, organisation, record, { ...record.resource, schedule: { ...schedule, fromIndex: schedule.fromIndex + 1, pause: { kind: "active" } } })
  })

/** One subscription's work of the day: its due payments, a pause ending, its finish. */
const processOne = (deps: SubscriptionDueDeps, organisation: string, initial: Versioned<Subscription>) =>
  Effect.gen(function*() {
    let current = initial
    const mandate = yield* mandateToday(deps, organisation, current.resource.links.mandate)
    const calendar = calendarFor(mandate.scheme)
    let record = yield* deps.schedules.get(organisation, current.resource.id)
    while (true) {
      const schedule = record.resource.schedule
      if (!hasFurtherPayments(schedule, calendar)) {
        yield* moveByItself(deps, organisation, current, mandate, schedule, "finish")
        break
      }
      const npcd = mandate.next_possible_charge_date
      if (npcd === null || schedule.pause.kind === "paused_indefinitely") break
      const due: LocalDate = formatDayNumber(chargeDay(schedule.recurrence, calendar, schedule.fromIndex))
      if (due > npcd) break
      // A pause for cycles ends by itself once the first occurrence after it falls due.
      if (current.resource.status === "paused") {
        yield* moveByItself(deps, organisation, current, mandate, schedule, "resume")
        current = yield* deps.subscriptions.get(organisation, current.resource.id)
      }
      // An occurrence whose notice has already passed is charged as soon as the scheme allows.
      record = yield* chargeOccurrence(deps, organisation, current, record, mandate, due < npcd ? npcd : due)
      current = yield* deps.subscriptions.get(organisation, current.resource.id)
    }
  })

/**
 * The subscriptions' day (the simulator's `subscriptions` job): creates the payments that fall
 * due, through the Payments service (whose machine creates each payment and emits its
 * `created`). An occurrence is charged once its charge date is the mandate's next possible charge
 * date (the last day its advance notice allows), so the payment is created as late as the scheme
 * permits. Pauses for cycles end by themselves; subscriptions whose schedule is spent finish.
 */
export const processSubscriptionsDay = (deps: SubscriptionDueDeps, organisation: string) =>
  Effect.flatMap(deps.subscriptions.scan(organisation, { status: oneOf(["active", "paused"]) }), (due) =>
    deps.eachItem("subscriptions", organisation, due, idOfVersioned, (s) => processOne(deps, organisation, s)))

