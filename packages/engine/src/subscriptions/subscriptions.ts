import { Context, Effect, Layer } from "effect"
import type { IdGenerator, NotFound, OperationError, OrganisationId, StorageError, ValidationFailed } from "@paykit/core"
import { decodeAtBoundary, decodeOptionalAtBoundary } from "@paykit/core"
import { EventLog } from "../kernel/ports/event-log.ts"
import { eq, oneOf, type Page } from "../kernel/ports/list-query.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { AppAttributionRepository } from "../ledger/repositories.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { CustomerRepository } from "../customers/repositories.ts"
import { MandateDormancyRepository, MandateRepository } from "../mandates/repositories.ts"
import { SubscriptionRepository, SubscriptionScheduleRepository } from "./repositories.ts"
import { isRemoved } from "../customers/domain/customers.ts"
import {
  type Subscription,
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

const decodeCreate = decodeAtBoundary(SubscriptionCreateRequest, "subscriptions")
const decodeUpdate = decodeAtBoundary(SubscriptionUpdateRequest, "subscriptions")
const decodeList = decodeAtBoundary(SubscriptionListParams, "subscriptions")
const decodePause = decodeOptionalAtBoundary(SubscriptionPauseRequest, "subscriptions")
const decodeResume = decodeOptionalAtBoundary(SubscriptionResumeRequest, "subscriptions")
const decodeCancel = decodeOptionalAtBoundary(SubscriptionCancelRequest, "subscriptions")

export class Subscriptions extends Context.Service<Subscriptions, {
  readonly create: (organisation: OrganisationId, command: typeof SubscriptionCreateRequest.Encoded, origin?: SubscriptionOrigin) => Effect.Effect<Subscription, Errors>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<Subscription, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof SubscriptionListParams.Encoded) => Effect.Effect<Page<Subscription>, ValidationFailed | StorageError>
  readonly update: (organisation: OrganisationId, id: string, command: typeof SubscriptionUpdateRequest.Encoded) => Effect.Effect<Subscription, Errors>
  readonly pause: (organisation: OrganisationId, id: string, command?: typeof SubscriptionPauseRequest.Encoded) => Effect.Effect<Subscription, Errors>
  /** The body's metadata is accepted and, as in the real API, not kept. */
  readonly resume: (organisation: OrganisationId, id: string, command?: typeof SubscriptionResumeRequest.Encoded) => Effect.Effect<Subscription, Errors>
  readonly cancel: (organisation: OrganisationId, id: string, command?: typeof SubscriptionCancelRequest.Encoded) => Effect.Effect<Subscription, Errors>
  /** Creates the payments that fall due, ends pauses, finishes spent subscriptions (`subscription-due.ts`). */
  readonly processDay: (organisation: OrganisationId) => Effect.Effect<void, StorageError>
  /** Gives schedule records made before `due_on` was kept a day to be read on (`side-records.ts`). */
  readonly keepMissingSideRecords: (organisation: OrganisationId) => Effect.Effect<void, StorageError>
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
        create: (o, command, origin) => Effect.flatMap(decodeCreate(command), (c) => run(createSubscription(deps, o, c, origin))),
        get: (o, id) => Effect.flatMap(deps.subscriptions.get(o, id), (v) => present(deps, o, v.resource)),
        list: (o, params) => Effect.flatMap(decodeList(params), (p) => list(o, p)),
        update: (o, id, command) => Effect.flatMap(decodeUpdate(command), (c) => run(updateSubscription(deps, o, id, c))),
        pause: (o, id, command) => Effect.flatMap(decodePause(command), (c) => run(pauseOrResume(deps, o, id, c ?? {}))),
        resume: (o, id, command) => Effect.flatMap(decodeResume(command), () => run(pauseOrResume(deps, o, id, undefined))),
        cancel: (o, id, command) => Effect.flatMap(decodeCancel(command), (c) => run(cancelSubscription(deps, o, id, c))),
        processDay: (o) => processSubscriptionsDay(due, o),
        keepMissingSideRecords: (o) => keepScheduleDueDates(due, o)
      })
    })
  )
}
