import { Context, Effect, Layer, Result, Schema } from "effect"
import {
  Amount,
  type IdGenerator,
  IdOf,
  InvalidState,
  type LocalDate,
  Metadata,
  type NotFound,
  SUBSCRIPTION_NAME_MAX_LENGTH,
  SUBSCRIPTION_STATUS_FILTER_MAX,
  type ValidationFailed,
  decodeInputEffect,
  invalidField,
  newId,
  now,
  today
} from "@paykit/core"
import { SUBSCRIPTION_STATUSES, type SubscriptionPauseFacts, subscriptionMachine } from "@paykit/machines"
import {
  type SubscriptionSchedule,
  calendarFor,
  chargeDay,
  earliestChargeDateAfterResume,
  formatDayNumber,
  hasFurtherPayments,
  pauseSubscription,
  planSubscription,
  reportedEndDate,
  resumeSubscription,
  upcomingPayments
} from "@paykit/schedule"
import { validateAppFee } from "@paykit/money"
import { PositiveAmount, stringUpTo } from "@paykit/validation"
import { EventLog } from "../kernel/ports/event-log.ts"
import { eq, oneOf, type Page } from "../kernel/ports/list-query.ts"
import { Transactor, type Versioned } from "../kernel/ports/repository.ts"
import { AppAttributionRepository } from "../payouts/repositories.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { MandateRepository, SubscriptionRepository, SubscriptionScheduleRepository } from "./repositories.ts"
import type { PartnerApp } from "../payouts/domain/app-fees.ts"
import type { Mandate } from "./domain/mandates.ts"
import type { Subscription } from "./domain/subscriptions.ts"
import { attributionOf, CallingApp, recordAttribution } from "../payouts/app-fees.ts"
import { idFilter, listFields, toListQuery } from "../kernel/list-params.ts"
import { CHARGEABLE_MANDATE_STATUSES, withNextPossibleChargeDate } from "./mandates.ts"
import { captureDailyItems, idOfVersioned } from "../kernel/daily-items.ts"
import { mandateCurrencyRefusal, Payments } from "./payments.ts"
import { API_CAUSE, applyCreation, applyTransition, insertNew, save, captureUnitOfWork } from "../kernel/support.ts"
import { MetadataUpdateRequest } from "../kernel/metadata-requests.ts"

const ROOT = "subscriptions"

export const SubscriptionListParams = Schema.Struct({
  ...listFields("subscription"),
  mandate: idFilter("mandate"),
  customer: idFilter("customer"),
  status: Schema.optionalKey(
    Schema.Union([Schema.Literals(SUBSCRIPTION_STATUSES), Schema.Array(Schema.Literals(SUBSCRIPTION_STATUSES))]).check(
      Schema.makeFilter((s: string | ReadonlyArray<string>) => typeof s === "string" || s.length <= SUBSCRIPTION_STATUS_FILTER_MAX, {
        message: `must name at most ${SUBSCRIPTION_STATUS_FILTER_MAX} statuses`
      })
    )
  )
})

/** The fields the real API lets a subscription's update change. */
export const SubscriptionUpdateRequest = Schema.Struct({
  name: Schema.optionalKey(stringUpTo(SUBSCRIPTION_NAME_MAX_LENGTH)),
  amount: Schema.optionalKey(PositiveAmount),
  payment_reference: Schema.optionalKey(Schema.String),
  metadata: Schema.optionalKey(Metadata),
  app_fee: Schema.optionalKey(Amount),
  retry_if_possible: Schema.optionalKey(Schema.Boolean)
})

const CreateLinks = Schema.Struct({ links: Schema.Struct({ mandate: IdOf("mandate") }) })

type Errors = ValidationFailed | InvalidState | NotFound

const subscriptionLinks = (s: Pick<Subscription, "id" | "links">, mandate?: Mandate) => ({
  subscription: s.id,
  mandate: s.links.mandate,
  ...(mandate === undefined ? {} : { customer: mandate.links.customer, creditor: mandate.links.creditor })
})

/** The subscription machine's facts for an event other than a pause. */
const factsOf = (schedule: SubscriptionSchedule, scheme: Mandate["scheme"]) =>
  ({ has_further_payments: hasFurtherPayments(schedule, calendarFor(scheme)), pause: null })

/** The facts of an amendment or cancellation, which no guard of the machine reads. */
const UNGUARDED = { has_further_payments: true, pause: null } as const

export class Subscriptions extends Context.Service<Subscriptions, {
  /** `origin.app`: the partner app the subscription's app fees go to; defaults to the `CallingApp` of the call. */
  readonly create: (organisation: string, input: unknown, origin?: { readonly app?: PartnerApp | null }) => Effect.Effect<Subscription, Errors>
  readonly get: (organisation: string, id: string) => Effect.Effect<Subscription, NotFound>
  readonly list: (organisation: string, params: unknown) => Effect.Effect<Page<Subscription>, ValidationFailed>
  readonly update: (organisation: string, id: string, input: unknown) => Effect.Effect<Subscription, Errors>
  readonly pause: (organisation: string, id: string, input?: unknown) => Effect.Effect<Subscription, Errors>
  readonly resume: (organisation: string, id: string, input?: unknown) => Effect.Effect<Subscription, Errors>
  readonly cancel: (organisation: string, id: string, input?: unknown) => Effect.Effect<Subscription, Errors>
  /**
   * Creates the payments that fall due: an occurrence is charged once its charge date is the
   * mandate's next possible charge date (the last day its advance notice allows), so the payment
   * is created as late as the scheme permits. Finishes subscriptions whose schedule is spent.
   */
  readonly processDay: (organisation: string) => Effect.Effect<void>
}>()("@paykit/engine/Subscriptions") {
  static readonly layer: Layer.Layer<
    Subscriptions,
    never,
    | SubscriptionRepository
    | SubscriptionScheduleRepository
    | AppAttributionRepository
    | MandateRepository
    | CreditorRepository
    | Payments
    | IdGenerator
    | EventLog
    | Transactor
  > = Layer.effect(
    Subscriptions,
    Effect.gen(function*() {
      const subscriptions = yield* SubscriptionRepository
      const schedules = yield* SubscriptionScheduleRepository
      const attributions = yield* AppAttributionRepository
      const mandates = yield* MandateRepository
      const creditors = yield* CreditorRepository
      const payments = yield* Payments
      const run = yield* captureUnitOfWork
      const eachItem = yield* captureDailyItems

      const decodeLinks = decodeInputEffect(CreateLinks, ROOT)
      const decodeList = decodeInputEffect(SubscriptionListParams, ROOT)
      const decodeUpdate = decodeInputEffect(SubscriptionUpdateRequest, ROOT)
      const decodeCancel = decodeInputEffect(MetadataUpdateRequest, ROOT)

      /** The mandate as it reads today, with its next possible charge date. */
      const mandateToday = (organisation: string, id: string) =>
        Effect.gen(function*() {
          const mandate = yield* mandates.get(organisation, id)
          const creditor = yield* Effect.orDie(creditors.get(organisation, mandate.resource.links.creditor))
          return withNextPossibleChargeDate(mandate.resource, creditor.resource, yield* today())
        })

      /** The fields that change with time, computed when read. */
      const present = (organisation: string, subscription: Subscription) =>
        Effect.gen(function*() {
          const record = yield* Effect.orDie(schedules.get(organisation, subscription.id))
          const mandate = yield* Effect.orDie(mandateToday(organisation, subscription.links.mandate))
          const calendar = calendarFor(mandate.scheme)
          const schedule = record.resource.schedule
          const live = subscription.status === "active" || subscription.status === "paused"
          const from = mandate.next_possible_charge_date ?? (yield* today())
          return {
            ...subscription,
            end_date: reportedEndDate(schedule, calendar),
            upcoming_payments: live ? upcomingPayments(schedule, calendar, formatDayNumber(chargeDay(schedule.recurrence, calendar, schedule.fromIndex)) < from ? from : formatDayNumber(chargeDay(schedule.recurrence, calendar, schedule.fromIndex)), subscription.amount) : [],
            earliest_charge_date_after_resume: subscription.status === "paused" ? earliestChargeDateAfterResume(schedule, calendar, from) : null
          }
        })

      const create = (organisation: string, input: unknown, origin: { readonly app?: PartnerApp | null } = {}) =>
        Effect.gen(function*() {
          const { links } = yield* decodeLinks(input)
          const mandate = yield* mandateToday(organisation, links.mandate).pipe(
            Effect.mapError(() => invalidField(ROOT, ["links", "mandate"], "must be a mandate of this organisation"))
          )
          if (!CHARGEABLE_MANDATE_STATUSES.includes(mandate.status) || mandate.next_possible_charge_date === null) {
            return yield* new InvalidState({ reason: "mandate_is_inactive", message: `The mandate is ${mandate.status}`, links: { mandate: mandate.id } })
          }
          const plan = yield* Effect.fromResult(planSubscription(input, {
            calendar: calendarFor(mandate.scheme),
            today: yield* today(),
            next_possible_charge_date: mandate.next_possible_charge_date
          }))
          const r = plan.request
          // The daily run creates each payment in the mandate's currency: a subscription in another could never charge.
          const currencyRefusal = mandateCurrencyRefusal(mandate.scheme, r.currency)
          if (currencyRefusal !== undefined) return yield* invalidField(ROOT, ["currency"], currencyRefusal)
          if (r.app_fee !== undefined && r.app_fee !== null) yield* Effect.fromResult(validateAppFee(ROOT, r.amount, r.app_fee))
          const created_at = yield* now
          const fields: Omit<Subscription, "status"> = {
            id: yield* newId("subscription"),
            created_at,
            amount: r.amount,
            currency: r.currency,
            name: r.name ?? null,
            start_date: plan.start_date,
            end_date: plan.end_date,
            count: r.count ?? null,
            interval: plan.interval,
            interval_unit: r.interval_unit,
            day_of_month: r.day_of_month ?? null,
            month: r.month ?? null,
            payment_reference: r.payment_reference ?? null,
            app_fee: r.app_fee ?? null,
            retry_if_possible: r.retry_if_possible ?? false,
            metadata: r.metadata ?? {},
            upcoming_payments: plan.upcoming_payments,
            earliest_charge_date_after_resume: null,
            links: { mandate: mandate.id }
          }
          const { resource: subscription } = yield* applyCreation(subscriptions, {
            organisation,
            machine: subscriptionMachine,
            state: "active",
            resource: fields,
            cause: API_CAUSE("subscription_created"),
            links: subscriptionLinks(fields, mandate)
          })
          yield* insertNew(schedules, organisation, { id: subscription.id, created_at, schedule: plan.schedule })
          // Recorded even without an app fee yet: one can be set later by an update.
          const app = origin.app === undefined ? yield* CallingApp : origin.app
          if (app !== null) yield* recordAttribution({ attributions, creditors }, organisation, subscription.id, app)
          return yield* present(organisation, subscription)
        })

      const update = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeUpdate(input)
          const current = yield* subscriptions.get(organisation, id)
          const amount = req.amount ?? current.resource.amount
          const appFee = req.app_fee ?? current.resource.app_fee
          if (appFee !== null) yield* Effect.fromResult(validateAppFee(ROOT, amount, appFee))
          const next = yield* applyTransition(subscriptions, {
            organisation,
            machine: subscriptionMachine,
            current,
            event: "amend",
            context: UNGUARDED,
            cause: API_CAUSE("subscription_amended", "The subscription was amended at your request."),
            links: subscriptionLinks(current.resource),
            patch: (s) => ({ ...s, ...req })
          })
          return yield* present(organisation, next)
        })

      /**
       * Pause and resume: the subscription machine decides (its pause guards judge the facts
       * @paykit/schedule finds in the schedule) and moves the status; the schedule moves with it.
       */
      const pauseOrResume = (organisation: string, id: string, input: unknown, event: "pause" | "resume") =>
        Effect.gen(function*() {
          const current = yield* subscriptions.get(organisation, id)
          const record = yield* Effect.orDie(schedules.get(organisation, id))
          const mandate = yield* Effect.orDie(mandateToday(organisation, current.resource.links.mandate))
          const context = {
            calendar: calendarFor(mandate.scheme),
            next_possible_charge_date: mandate.next_possible_charge_date ?? (yield* today()),
            at: yield* now
          }
          const sub = { status: current.resource.status, schedule: record.resource.schedule }
          const result: Result.Result<{ readonly schedule: SubscriptionSchedule; readonly facts: SubscriptionPauseFacts | null }, Errors> =
            event === "pause"
              ? pauseSubscription(sub, input ?? {}, context)
              : Result.map(resumeSubscription(sub, input ?? {}, context), (m) => ({ ...m, facts: null }))
          const moved = yield* Effect.fromResult(result)
          const next = yield* applyTransition(subscriptions, {
            organisation,
            machine: subscriptionMachine,
            current,
            event,
            context: { ...factsOf(record.resource.schedule, mandate.scheme), pause: moved.facts },
            cause: API_CAUSE(event === "pause" ? "subscription_paused" : "subscription_resumed"),
            links: subscriptionLinks(current.resource, mandate)
          })
          yield* save(schedules, organisation, record, { ...record.resource, schedule: moved.schedule })
          return yield* present(organisation, next)
        })

      const cancel = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeCancel(input ?? {})
          const current = yield* subscriptions.get(organisation, id)
          const next = yield* applyTransition(subscriptions, {
            organisation,
            machine: subscriptionMachine,
            current,
            event: "cancel",
            context: UNGUARDED,
            cause: API_CAUSE("subscription_cancelled", "The subscription was cancelled at your request."),
            links: subscriptionLinks(current.resource),
            patch: (s) => ({ ...s, metadata: req.metadata ?? s.metadata })
          })
          return yield* present(organisation, next)
        })

      /** A status change the daily run makes by itself: the schedule is spent, or a pause for cycles ended. */
      const moveByItself = (
        organisation: string,
        current: Versioned<Subscription>,
        mandate: Mandate,
        schedule: SubscriptionSchedule,
        event: "finish" | "resume"
      ) =>
        applyTransition(subscriptions, {
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

      /** One subscription's work of the day: its due payments, a pause ending, its finish. */
      const processOne = (organisation: string, initial: Versioned<Subscription>) =>
        Effect.gen(function*() {
          let current = initial
          const mandate = yield* mandateToday(organisation, current.resource.links.mandate)
          const calendar = calendarFor(mandate.scheme)
          let record = yield* schedules.get(organisation, current.resource.id)
          while (true) {
            const schedule = record.resource.schedule
            if (!hasFurtherPayments(schedule, calendar)) {
              yield* moveByItself(organisation, current, mandate, schedule, "finish")
              break
            }
            const npcd = mandate.next_possible_charge_date
            if (npcd === null || schedule.pause.kind === "paused_indefinitely") break
            const due: LocalDate = formatDayNumber(chargeDay(schedule.recurrence, calendar, schedule.fromIndex))
            if (due > npcd) break
            // A pause for cycles ends by itself once the first occurrence after it falls due.
            if (current.resource.status === "paused") {
              yield* moveByItself(organisation, current, mandate, schedule, "resume")
              current = yield* subscriptions.get(organisation, current.resource.id)
            }
            const s = current.resource
            const payment = yield* payments.create(organisation, {
              amount: s.amount,
              currency: s.currency,
              // An occurrence whose notice has already passed is charged as soon as the scheme allows.
              charge_date: due < npcd ? npcd : due,
              ...(s.name === null ? {} : { description: s.name }),
              ...(s.payment_reference === null ? {} : { reference: s.payment_reference }),
              ...(s.app_fee === null ? {} : { app_fee: s.app_fee }),
              retry_if_possible: s.retry_if_possible,
              links: { mandate: s.links.mandate }
            }, { subscription: s.id, app: yield* attributionOf(attributions, organisation, s.id) })
            const advanced = { ...schedule, fromIndex: schedule.fromIndex + 1, pause: { kind: "active" as const } }
            // The machine's guard checks the schedule had this payment to create.
            yield* applyTransition(subscriptions, {
              organisation,
              machine: subscriptionMachine,
              current,
              event: "create_payment",
              context: factsOf(schedule, mandate.scheme),
              cause: { origin: "gocardless", cause: "payment_created", description: "Payment created by a subscription." },
              links: { ...subscriptionLinks(s, mandate), payment: payment.id }
            })
            record = yield* save(schedules, organisation, record, { ...record.resource, schedule: advanced })
            current = yield* subscriptions.get(organisation, s.id)
          }
        })

      const processDay = (organisation: string) =>
        Effect.flatMap(subscriptions.scan(organisation, { status: oneOf(["active", "paused"]) }), (due) =>
          eachItem("subscriptions", organisation, due, idOfVersioned, (s) => processOne(organisation, s)))

      return Subscriptions.of({
        create: (o, i, origin) => run(create(o, i, origin)),
        get: (o, id) => Effect.flatMap(subscriptions.get(o, id), (v) => present(o, v.resource)),
        list: (o, p) =>
          Effect.gen(function*() {
            const params = yield* decodeList(p)
            const ofCustomer = params.customer === undefined
              ? undefined
              : (yield* mandates.scan(o, { customer: eq(params.customer) })).map((m) => m.resource.id)
            const statuses = params.status === undefined ? undefined : typeof params.status === "string" ? [params.status] : params.status
            const mandateFilter = params.mandate !== undefined
              ? oneOf(ofCustomer === undefined || ofCustomer.includes(params.mandate) ? [params.mandate] : [])
              : ofCustomer === undefined ? undefined : oneOf(ofCustomer)
            const page = yield* subscriptions.list(o, toListQuery(params, {
              mandate: mandateFilter,
              status: statuses === undefined ? undefined : oneOf(statuses)
            }))
            return { ...page, items: yield* Effect.forEach(page.items, (s) => present(o, s)) }
          }),
        update: (o, id, i) => run(update(o, id, i)),
        pause: (o, id, i) => run(pauseOrResume(o, id, i, "pause")),
        resume: (o, id, i) => run(pauseOrResume(o, id, i, "resume")),
        cancel: (o, id, i) => run(cancel(o, id, i)),
        processDay
      })
    })
  )
}
