import { Effect } from "effect"
import { INPUT_DATE_LAST, invalidField, isInputDate, type LocalDate, newId, now, today, type OrganisationId } from "@paykit/core"
import { instalmentScheduleMachine } from "@paykit/machines"
import { type BusinessCalendar, calendarFor, instalmentChargeDates } from "@paykit/schedule"
import { withNextPossibleChargeDate } from "../mandates/mandate-rules.ts"
import { mandateCurrencyRefusal } from "../payments/payment-rules.ts"
import { applyCreation, applyTransition } from "../kernel/support.ts"
import {
  INSTALMENT_SCHEDULES_ROOT,
  type Instalment,
  type InstalmentSchedule,
  type InstalmentScheduleCreateWithDatesRequest,
  type InstalmentScheduleCreateWithScheduleRequest,
  type PaymentErrors
} from "./domain/instalment-schedules.ts"
import { type InstalmentDeps, scheduleLinks } from "./instalment-schedule-rules.ts"

/** One instalment as planned: its amount, the date asked for (null: as soon as possible), its description. */
interface PlannedInstalment {
  readonly amount: Instalment["amount"]
  readonly charge_date: LocalDate | null
  readonly description: string | null
}

type CommonRequest = Omit<InstalmentScheduleCreateWithDatesRequest, "instalments">

/** The mandate the schedule collects on, with the earliest date it can be charged today (null when it cannot be). */
const scheduleMandate = Effect.fnUntraced(function*(deps: InstalmentDeps, organisation: OrganisationId, req: CommonRequest) {
  const mandate = yield* deps.mandates.get(organisation, req.links.mandate).pipe(
    Effect.mapError(() => invalidField(INSTALMENT_SCHEDULES_ROOT, ["links", "mandate"], "must be a mandate of this organisation"))
  )
  const refusal = mandateCurrencyRefusal(mandate.resource.scheme, req.currency)
  if (refusal !== undefined) return yield* invalidField(INSTALMENT_SCHEDULES_ROOT, ["currency"], refusal)
  const creditor = yield* Effect.orDie(deps.creditors.get(organisation, mandate.resource.links.creditor))
  const earliest = withNextPossibleChargeDate(mandate.resource, creditor.resource, yield* today()).next_possible_charge_date
  return { mandate: mandate.resource, earliest }
})

/**
 * The real API's `payment_errors`: each instalment whose date (rolled to a business day) is before
 * the mandate's next possible charge date, by its index.
 */
const dateErrors = (planned: ReadonlyArray<PlannedInstalment>, earliest: LocalDate | null, roll: (d: LocalDate) => LocalDate): PaymentErrors => {
  const errors: Record<string, ReadonlyArray<{ readonly field: string; readonly message: string }>> = {}
  if (earliest === null) return errors
  planned.forEach((instalment, index) => {
    if (instalment.charge_date !== null && roll(instalment.charge_date) < earliest) {
      errors[String(index)] = [{ field: "charge_date", message: `must be on or after the mandate's next_possible_charge_date (${earliest})` }]
    }
  })
  return errors
}

/** One payment per instalment, in order, each linked to the schedule: their ids. */
const makePayments = Effect.fnUntraced(function*(
  deps: InstalmentDeps,
  organisation: OrganisationId,
  req: CommonRequest,
  schedule: Pick<InstalmentSchedule, "id" | "links">,
  planned: ReadonlyArray<PlannedInstalment>
) {
  const payments: Array<string> = []
  for (const instalment of planned) {
    const payment = yield* deps.payments.create(organisation, {
      amount: instalment.amount,
      currency: req.currency,
      ...(instalment.charge_date === null ? {} : { charge_date: instalment.charge_date }),
      ...(instalment.description === null ? {} : { description: instalment.description }),
      ...(req.payment_reference === undefined ? {} : { reference: req.payment_reference }),
      ...(req.app_fee === undefined ? {} : { app_fee: req.app_fee }),
      ...(req.retry_if_possible === undefined ? {} : { retry_if_possible: req.retry_if_possible }),
      links: { mandate: schedule.links.mandate }
    }, { instalment_schedule: schedule.id })
    payments.push(payment.id)
  }
  return payments
})

/**
 * Stores the schedule `pending`, then makes one payment per instalment (`Payments.create`, linked
 * to the schedule) and moves it `active`; when an instalment's date cannot be charged, no payment
 * is made and the schedule is stored `creation_failed` with its `payment_errors`. One unit of
 * work: a payment refused outright (an inactive mandate) leaves nothing behind.
 */
const createSchedule = Effect.fnUntraced(function*(
  deps: InstalmentDeps,
  organisation: OrganisationId,
  req: CommonRequest,
  plan: (earliest: LocalDate | null, calendar: BusinessCalendar) => ReadonlyArray<PlannedInstalment>
) {
  const { mandate, earliest } = yield* scheduleMandate(deps, organisation, req)
  const calendar = calendarFor(mandate.scheme)
  const roll = (d: LocalDate) => calendar.rollForward(d)
  const planned = plan(earliest, calendar)
  // A schedule's dates are computed (`create_with_schedule`): the last may fall past the dates a
  // request may name, where the dates computed from it would leave the calendars.
  const late = planned.findIndex((p) => p.charge_date !== null && !isInputDate(p.charge_date))
  if (late !== -1) {
    return yield* invalidField(INSTALMENT_SCHEDULES_ROOT, ["instalments"], `must all fall on or before ${INPUT_DATE_LAST}: instalment ${late} would not`)
  }
  const payment_errors = dateErrors(planned, earliest, roll)
  const fields: Omit<InstalmentSchedule, "status"> = {
    id: yield* newId("instalment_schedule"),
    created_at: yield* now,
    currency: req.currency,
    name: req.name,
    total_amount: req.total_amount,
    payment_errors,
    metadata: req.metadata ?? {},
    links: { customer: mandate.links.customer, mandate: mandate.id, payments: [] }
  }
  const links = scheduleLinks(fields)
  const cause = { origin: "api", cause: "instalment_schedule_created", description: "Instalment schedule created via the API." } as const
  if (Object.keys(payment_errors).length > 0) {
    const failed = yield* applyCreation(deps.schedules, {
      organisation, machine: instalmentScheduleMachine, state: "pending", resource: fields, cause, links,
      then: [{ event: "creation_failed", context: {}, links, cause: { origin: "gocardless", cause: "instalment_schedule_creation_failed", description: "Some of the instalments' payments could not be created." } }]
    })
    return failed.resource
  }
  const pending = yield* applyCreation(deps.schedules, { organisation, machine: instalmentScheduleMachine, state: "pending", resource: fields, cause, links })
  const payments = yield* makePayments(deps, organisation, req, fields, planned)
  return yield* applyTransition(deps.schedules, {
    organisation, machine: instalmentScheduleMachine, current: pending, event: "payments_created", context: {}, links,
    cause: { origin: "gocardless", cause: "instalment_schedule_payments_created", description: "The instalments' payments were created." },
    patch: (s) => ({ ...s, links: { ...s.links, payments } })
  })
})

/** `create_with_dates`: each instalment on its own date. */
export const createWithDates = (deps: InstalmentDeps, organisation: OrganisationId, req: InstalmentScheduleCreateWithDatesRequest) =>
  createSchedule(deps, organisation, req, () =>
    req.instalments.map((i) => ({ amount: i.amount, charge_date: i.charge_date, description: i.description ?? null })))

/**
 * `create_with_schedule`: the amounts every `interval` `interval_unit`s from `start_date` (by
 * default the mandate's next possible charge date), dated by @paykit/schedule.
 */
export const createWithSchedule = (deps: InstalmentDeps, organisation: OrganisationId, req: InstalmentScheduleCreateWithScheduleRequest) =>
  createSchedule(deps, organisation, req, (earliest, calendar) => {
    const { amounts, interval, interval_unit, start_date } = req.instalments
    const start = start_date ?? earliest
    // A mandate that cannot be charged has no date to start from: its payments are refused.
    if (start === null) return amounts.map((amount) => ({ amount, charge_date: null, description: null }))
    const dates = instalmentChargeDates({ start, interval, interval_unit, count: amounts.length }, calendar)
    return amounts.map((amount, i) => ({ amount, charge_date: dates[i] ?? null, description: null }))
  })
