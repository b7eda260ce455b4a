import { Context, Effect, Layer } from "effect"
import type { IdGenerator, NotFound, OperationError } from "@paykit/core"
import { EventLog } from "../kernel/ports/event-log.ts"
import { eq, oneOf, type Page } from "../kernel/ports/list-query.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { AppAttributionRepository } from "../ledger/repositories.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { CustomerRepository } from "../customers/repositories.ts"
import { MandateDormancyRepository, MandateRepository } from "../mandates/repositories.ts"
import { SubscriptionRepository, SubscriptionScheduleRepository } from "./repositories.ts"
import { isRemoved } from "../customers/domain/customers.ts"
import type {
  Subscription,
  SubscriptionCancelRequest,
  SubscriptionCreateRequest,
  SubscriptionListParams,
  SubscriptionPauseRequest,
  SubscriptionResumeRequest,
  SubscriptionUpdateRequest
} from "./domain/subscriptions.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { captureDailyItems } from "../due-work/daily-items.ts"
import { captureUnitOfWork } from "../kernel/support.ts"
import { Payments } from "../payments/payments.ts"
import { createSubscription, type SubscriptionOrigin } from "./subscription-create.ts"
import { cancelSubscription, pauseOrResume, updateSubscription } from "./subscription-actions.ts"
import { keepScheduleDueDates, processSubscriptionsDay, type SubscriptionDueDeps } from "./subscription-due.ts"
import { present, type SubscriptionDeps } from "./subscription-rules.ts"

type Errors = OperationError

export class Subscriptions extends Context.Service<Subscriptions, {
  readonly create: (organisation: string, command: SubscriptionCreateRequest, origin?: SubscriptionOrigin) => Effect.Effect<Subscription, Errors>
  readonly get: (organisation: string, id: string) => Effect.Effect<Subscription, NotFound>
  readonly list: (organisation: string, params: SubscriptionListParams) => Effect.Effect<Page<Subscription>>
  readonly update: (organisation: string, id: string, command: SubscriptionUpdateRequest) => Effect.Effect<Subscription, Errors>
  readonly pause: (organisation: string, id: string, command?: SubscriptionPauseRequest) => Effect.Effect<Subscription, Errors>
  /** The body's metadata is accepted and, as in the real API, not kept. */
  readonly resume: (organisation: string, id: string, command?: SubscriptionResumeRequest) => Effect.Effect<Subscription, Errors>
  readonly cancel: (organisation: string, id: string, command?: SubscriptionCancelRequest) => Effect.Effect<Subscription, Errors>
  /** Creates the payments that fall due, ends pauses, finishes spent subscriptions (`subscription-due.ts`). */
  readonly processDay: (organisation: string) => Effect.Effect<void>
  /** Gives schedule records made before `due_on` was kept a day to be read on (`side-records.ts`). */
  readonly keepMissingSideRecords: (organisation: string) => Effect.Effect<void>
}>()("@paykit/engine/Subscriptions") {
  static readonly layer: Layer.Layer<
    Subscriptions,
    never,
    | SubscriptionRepository
    | SubscriptionScheduleRepository
    | AppAttributionRepository
    | MandateRepository
    | MandateDormancyRepository
    | CustomerRepository
    | CreditorRepository
    | Payments
    | IdGenerator
    | EventLog
    | Transactor
  > = Layer.effect(
    Subscriptions,
    Effect.gen(function*() {
      const deps: SubscriptionDeps = {
        subscriptions: yield* SubscriptionRepository,
        schedules: yield* SubscriptionScheduleRepository,
        attributions: yield* AppAttributionRepository,
        mandates: yield* MandateRepository,
        creditors: yield* CreditorRepository
      }
      const customers = yield* CustomerRepository
      const run = yield* captureUnitOfWork
      const due: SubscriptionDueDeps = { ...deps, payments: yield* Payments, eachItem: yield* captureDailyItems, dormancies: yield* MandateDormancyRepository }

      /**
       * The spec: "subscriptions of removed customers are omitted". Their removal is not a mark on
       * the subscription, so the page is narrowed after it is read (its cursors kept, so a page may
       * come out short while later ones still follow).
       */
      const payerRemoved = (organisation: string, mandate: string) =>
        Effect.gen(function*() {
          const found = yield* Effect.orDie(deps.mandates.get(organisation, mandate))
          const customer = yield* Effect.orDie(customers.get(organisation, found.resource.links.customer))
          return isRemoved(customer.resource)
        })

      /** `customer` is not stored on a subscription: it narrows to the customer's mandates. */
      const list = (organisation: string, params: SubscriptionListParams) =>
        Effect.gen(function*() {
          const ofCustomer = params.customer === undefined
            ? undefined
            : (yield* deps.mandates.scan(organisation, { customer: eq(params.customer) })).map((m) => m.resource.id)
          const statuses = params.status === undefined ? undefined : typeof params.status === "string" ? [params.status] : params.status
          const mandateFilter = params.mandate !== undefined
            ? oneOf(ofCustomer === undefined || ofCustomer.includes(params.mandate) ? [params.mandate] : [])
            : ofCustomer === undefined ? undefined : oneOf(ofCustomer)
          const page = yield* deps.subscriptions.list(organisation, toListQuery(params, {
            mandate: mandateFilter,
            status: statuses === undefined ? undefined : oneOf(statuses)
          }))
          const shown = yield* Effect.filter(page.items, (s) => Effect.map(payerRemoved(organisation, s.links.mandate), (removed) => !removed))
          return { ...page, items: yield* Effect.forEach(shown, (s) => present(deps, organisation, s)) }
        })

      return Subscriptions.of({
        create: (o, command, origin) => run(createSubscription(deps, o, command, origin)),
        get: (o, id) => Effect.flatMap(deps.subscriptions.get(o, id), (v) => present(deps, o, v.resource)),
        list,
        update: (o, id, command) => run(updateSubscription(deps, o, id, command)),
        pause: (o, id, command) => run(pauseOrResume(deps, o, id, command ?? {})),
        resume: (o, id) => run(pauseOrResume(deps, o, id, undefined)),
        cancel: (o, id, command) => run(cancelSubscription(deps, o, id, command)),
        processDay: (o) => processSubscriptionsDay(due, o),
        keepMissingSideRecords: (o) => keepScheduleDueDates(due, o)
      })
    })
  )
}
