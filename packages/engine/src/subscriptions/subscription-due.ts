import { Effect } from "effect"
import { addDays, fromDayNumber, type LocalDate, toDayNumber, today, unsafeAmount, type OrganisationId } from "@paykit/core"
import { subscriptionMachine } from "@paykit/machines"
import { calendarFor, chargeDay, formatDayNumber, hasFurtherPayments, type SubscriptionSchedule } from "@paykit/schedule"
import type { Versioned } from "../kernel/ports/repository.ts"
import { type DailyItems, eachInChunks, idOfVersioned } from "../due-work/daily-items.ts"
import { applyTransition, save } from "../kernel/support.ts"
import { attributionOf } from "../ledger/app-fees.ts"
import type { Mandate } from "../mandates/domain/mandates.ts"
import type { PaymentCreateRequest } from "../payments/domain/payments.ts"
import type { Subscription, SubscriptionScheduleRecord } from "./domain/subscriptions.ts"
import type { Payments } from "../payments/payments.ts"
import type { MandateDormancyRepository } from "../mandates/repositories.ts"
import { factsOf, mandateToday, type SubscriptionDeps, subscriptionLinks } from "./subscription-rules.ts"
import { nextPossibleChargeDateOn } from "../mandates/mandate-rules.ts"

/** What the daily work of subscriptions reads and writes: it creates payments through their service. */
export interface SubscriptionDueDeps extends SubscriptionDeps {
  readonly payments: Payments["Service"]
  readonly eachItem: DailyItems
  /** Read ahead only: creating a payment keeps its mandate's last use in this record (`payments/mandate-last-use.ts`). */
  readonly dormancies: MandateDormancyRepository["Service"]
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
const moveByItself = (deps: SubscriptionDueDeps, organisation: OrganisationId, current: Versioned<Subscription>, mandate: Mandate, schedule: SubscriptionSchedule, event: "finish" | "resume") =>
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

/**
 * One occurrence charged: its payment created, the machine told (its guard checks there was one),
 * and the schedule record advanced in memory: the day's one save of the record (`processDue`)
 * writes it with the record's next due day, so the record is encoded once a day, not once more
 * per occurrence.
 */
const chargeOccurrence = (deps: SubscriptionDueDeps, organisation: OrganisationId, current: Versioned<Subscription>, record: Versioned<SubscriptionScheduleRecord>, mandate: Mandate, charge: Charge) =>
  Effect.gen(function*() {
    const s = current.resource
    const schedule = record.resource.schedule
    const app = yield* attributionOf(deps.attributions, organisation, s.id)
    const payment = yield* deps.payments.create(organisation, paymentOf(s, charge.date), { subscription: s.id, app, ...(charge.noticeFrom === undefined ? {} : { noticeFrom: charge.noticeFrom }) })
    yield* applyTransition(deps.subscriptions, {
      organisation,
      machine: subscriptionMachine,
      current,
      event: "create_payment",
      context: factsOf(schedule, mandate.scheme),
      cause: { origin: "gocardless", cause: "payment_created", description: "Payment created by a subscription." },
      links: { ...subscriptionLinks(s, mandate), payment: payment.id }
    })
    const advanced: Versioned<SubscriptionScheduleRecord> = { ...record, resource: { ...record.resource, schedule: { ...schedule, fromIndex: schedule.fromIndex + 1, pause: { kind: "active" } } } }
    return advanced
  })

/** The date an occurrence is charged on, and the day its notice counts from when not today. */
interface Charge {
  readonly date: LocalDate
  readonly noticeFrom?: LocalDate
}

/**
 * When the run charges an occurrence due on `due`. A subscription's record is due on the day its
 * next occurrence's notice starts, and the date was announced counted from that day; when that
 * day's run did not make it (the subscription was made, or resumed, after the day's 06:00 run),
 * the date holds while its notice, counted from the record's day, allows it and its
 * payment can still be submitted before it (one working day ahead: `payments/payment-due.ts`).
 * Counted from the run's day alone, a subscription made after the day's run was first charged a
 * working day later than it announced. Otherwise an occurrence whose notice has passed is charged
 * as soon as the scheme allows.
 */
const chargeFor = (deps: SubscriptionDueDeps, organisation: OrganisationId, mandate: Mandate, dueOn: LocalDate | undefined, day: LocalDate, due: LocalDate, npcd: LocalDate) =>
  Effect.gen(function*() {
    if (due >= npcd) return { date: due } satisfies Charge
    const calendar = calendarFor(mandate.scheme)
    if (dueOn === undefined || dueOn >= day || calendar.previousBusinessDay(due) <= day) return { date: npcd } satisfies Charge
    const creditor = (yield* Effect.orDie(deps.creditors.get(organisation, mandate.links.creditor))).resource
    const announced = nextPossibleChargeDateOn(mandate, creditor, dueOn)
    return announced !== null && due >= announced ? { date: due, noticeFrom: dueOn } satisfies Charge : { date: npcd } satisfies Charge
  })

/** Where a subscription's day ended: what it waits for next. */
type Waiting =
  | { readonly _tag: "Nothing" }
  | { readonly _tag: "Mandate" }
  | { readonly _tag: "Notice"; readonly due: LocalDate }

/**
 * One subscription's work of the day, from its schedule record as the day's scan read it: its due
 * payments, a pause ending, its finish; then what it waits for, and the record as the day left it,
 * at the version it was read and not yet saved. (A request that changed the record since is caught
 * by the version test of the record's save, which fails the item.)
 */
const processOne = (deps: SubscriptionDueDeps, organisation: OrganisationId, initial: Versioned<Subscription>, found: Versioned<SubscriptionScheduleRecord>, mandate: Mandate, day: LocalDate) =>
  Effect.gen(function*() {
    let current = initial
    const calendar = calendarFor(mandate.scheme)
    let record = found
    while (true) {
      const schedule = record.resource.schedule
      if (!hasFurtherPayments(schedule, calendar)) {
        yield* moveByItself(deps, organisation, current, mandate, schedule, "finish")
        return { record, waiting: { _tag: "Nothing" } as Waiting }
      }
      const npcd = mandate.next_possible_charge_date
      if (schedule.pause.kind === "paused_indefinitely") return { record, waiting: { _tag: "Nothing" } as Waiting }
      if (npcd === null) return { record, waiting: { _tag: "Mandate" } as Waiting }
      const due: LocalDate = formatDayNumber(chargeDay(schedule.recurrence, calendar, schedule.fromIndex))
      if (due > npcd) return { record, waiting: { _tag: "Notice", due } as Waiting }
      // A pause for cycles ends by itself once the first occurrence after it falls due.
      if (current.resource.status === "paused") {
        yield* moveByItself(deps, organisation, current, mandate, schedule, "resume")
        current = yield* deps.subscriptions.get(organisation, current.resource.id)
      }
      record = yield* chargeOccurrence(deps, organisation, current, record, mandate, yield* chargeFor(deps, organisation, mandate, found.resource.due_on ?? undefined, day, due, npcd))
      current = yield* deps.subscriptions.get(organisation, current.resource.id)
    }
  })

/**
 * The first day after `day` on which `reaches` holds, and `due` if none before it does. `reaches`
 * must be monotonic (false, then true from some day on): a mandate's next possible charge date
 * never moves back as the days go on, so a search by halves finds the day in a handful of steps
 * where a walk day by day took a step (and a calendar computation) per day of notice.
 */
export const firstDayReaching = (day: LocalDate, due: LocalDate, reaches: (day: LocalDate) => boolean): LocalDate => {
  let low = toDayNumber(day) + 1
  let high = toDayNumber(due)
  while (low < high) {
    const middle = Math.floor((low + high) / 2)
    if (reaches(fromDayNumber(middle))) high = middle
    else low = middle + 1
  }
  return fromDayNumber(low)
}

/** The first day after `day` whose next possible charge date reaches `due`: when its notice starts. */
const noticeStarts = (deps: SubscriptionDueDeps, organisation: OrganisationId, mandateId: string, day: LocalDate, due: LocalDate) =>
  Effect.gen(function*() {
    const mandate = (yield* deps.mandates.get(organisation, mandateId)).resource
    const creditor = (yield* Effect.orDie(deps.creditors.get(organisation, mandate.links.creditor))).resource
    // A mandate that cannot be charged has no such date: its notice starts on the day itself.
    return firstDayReaching(day, due, (next) => (nextPossibleChargeDateOn(mandate, creditor, next) ?? next) >= due)
  })

/**
 * One subscription whose day came: its work, then the day it next has something to do. An
 * ended one, or one paused until resumed, has none (an API action sets it again); one whose
 * mandate cannot be charged yet is looked at again tomorrow.
 */
const processDue = (deps: SubscriptionDueDeps, organisation: OrganisationId, found: Versioned<SubscriptionScheduleRecord>, day: LocalDate) =>
  Effect.gen(function*() {
    const current = yield* Effect.orDie(deps.subscriptions.get(organisation, found.resource.id))
    if (!LIVE_SUBSCRIPTION_STATUSES.some((s) => s === current.resource.status)) {
      return yield* save(deps.schedules, organisation, found, { ...found.resource, due_on: null })
    }
    const mandate = yield* mandateToday(deps, organisation, current.resource.links.mandate)
    const { record, waiting } = yield* processOne(deps, organisation, current, found, mandate, day)
    const dueOn = waiting._tag === "Nothing"
      ? null
      : waiting._tag === "Mandate"
      ? addDays(day, 1)
      : yield* noticeStarts(deps, organisation, current.resource.links.mandate, day, waiting.due)
    return yield* save(deps.schedules, organisation, record, { ...record.resource, due_on: dueOn })
  })

/**
 * What a batch of due records' charges read by id, read for the batch in a statement each: the
 * subscriptions and their app attributions (usually none), then their mandates, the mandates'
 * creditors and last-use records. A day's subscriptions are on as many mandates as payers.
 */
const readAhead = (deps: SubscriptionDueDeps, organisation: OrganisationId) => (batch: ReadonlyArray<Versioned<SubscriptionScheduleRecord>>) =>
  Effect.gen(function*() {
    const ids = batch.map(idOfVersioned)
    const [subscriptions] = yield* Effect.all([deps.subscriptions.getMany(organisation, ids), deps.attributions.getMany(organisation, ids)])
    const mandateIds = [...new Set(subscriptions.map((s) => s.resource.links.mandate))]
    const [mandates] = yield* Effect.all([deps.mandates.getMany(organisation, mandateIds), deps.dormancies.getMany(organisation, mandateIds)])
    yield* deps.creditors.getMany(organisation, [...new Set(mandates.map((m) => m.resource.links.creditor))])
  })

/** The statuses of a subscription that can still charge. */
const LIVE_SUBSCRIPTION_STATUSES = ["active", "paused"] as const

/**
 * The subscriptions' day (the simulator's `subscriptions` job): creates the payments that fall
 * due, through the Payments service (whose machine creates each payment and emits its
 * `created`). An occurrence is charged once its charge date is the mandate's next possible charge
 * date (the last day its advance notice allows), so the payment is created as late as the scheme
 * permits. Pauses for cycles end by themselves; subscriptions whose schedule is spent finish.
 * It reads only the subscriptions whose day came (`due_on` of their schedule record, kept as the
 * day their next occurrence's notice starts), not every active one: the day's work follows what is due, not what is stored.
 */
export const processSubscriptionsDay = (deps: SubscriptionDueDeps, organisation: OrganisationId) =>
  Effect.gen(function*() {
    const day = yield* today()
    yield* eachInChunks(deps.schedules, organisation, { due_on: { op: "range", lte: day } }, (due) =>
      deps.eachItem("subscriptions", organisation, due, idOfVersioned, (record) => processDue(deps, organisation, record, day), readAhead(deps, organisation)))
  })

/**
 * A schedule record made before `due_on` was kept (a database written before schedule records carried it) is read by no
 * daily run: it is given today, so the next run reads it and keeps its day from then on.
 */
export const keepScheduleDueDates = (deps: SubscriptionDueDeps, organisation: OrganisationId) =>
  Effect.gen(function*() {
    const day = yield* today()
    yield* eachInChunks(deps.schedules, organisation, undefined, (chunk) =>
      deps.eachItem("side records: subscription schedules", organisation, chunk.filter((r) => r.resource.due_on === undefined), idOfVersioned, (record) =>
        save(deps.schedules, organisation, record, { ...record.resource, due_on: day })))
  })
