import { Context, Effect, Layer } from "effect"
import type { IdGenerator, NotFound, OperationError, OrganisationId, StorageError, ValidationFailed } from "@paykit/core"
import { decodeAtBoundary } from "@paykit/core"
import { CreditorRepository } from "../creditors/repositories.ts"
import { InstalmentScheduleCheckRepository, PaymentRepository } from "../payments/repositories.ts"
import { MandateRepository } from "../mandates/repositories.ts"
import { Payments } from "../payments/payments.ts"
import { captureDailyItems } from "../due-work/daily-items.ts"
import { toListQuery } from "../kernel/list-params.ts"
import type { EventLog } from "../kernel/ports/event-log.ts"
import { eq, oneOf, type Page } from "../kernel/ports/list-query.ts"
import type { Transactor } from "../kernel/ports/repository.ts"
import { captureUnitOfWork } from "../kernel/support.ts"
import {
  type InstalmentSchedule,
  InstalmentScheduleCreateWithDatesRequest,
  InstalmentScheduleCreateWithScheduleRequest,
  InstalmentScheduleListParams,
  InstalmentScheduleUpdateRequest
} from "./domain/instalment-schedules.ts"
import { cancelSchedule, updateSchedule } from "./instalment-schedule-actions.ts"
import { createWithDates, createWithSchedule } from "./instalment-schedule-create.ts"
import { followPayments } from "./instalment-schedule-due.ts"
import type { InstalmentDeps } from "./instalment-schedule-rules.ts"
import { InstalmentScheduleRepository } from "./repositories.ts"


const decodeWithDates = decodeAtBoundary(InstalmentScheduleCreateWithDatesRequest, "instalment_schedules")
const decodeWithSchedule = decodeAtBoundary(InstalmentScheduleCreateWithScheduleRequest, "instalment_schedules")
const decodeUpdate = decodeAtBoundary(InstalmentScheduleUpdateRequest, "instalment_schedules")
const decodeList = decodeAtBoundary(InstalmentScheduleListParams, "instalment_schedules")
export class InstalmentSchedules extends Context.Service<InstalmentSchedules, {
  /** `POST /instalment_schedules/create_with_dates`: answers `active` with its payments, or `creation_failed` with `payment_errors`. */
  readonly createWithDates: (organisation: OrganisationId, command: typeof InstalmentScheduleCreateWithDatesRequest.Encoded) => Effect.Effect<InstalmentSchedule, OperationError>
  /** `POST /instalment_schedules/create_with_schedule`: the same, dated by an interval from a start date. */
  readonly createWithSchedule: (organisation: OrganisationId, command: typeof InstalmentScheduleCreateWithScheduleRequest.Encoded) => Effect.Effect<InstalmentSchedule, OperationError>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<InstalmentSchedule, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof InstalmentScheduleListParams.Encoded) => Effect.Effect<Page<InstalmentSchedule>, ValidationFailed | StorageError>
  readonly update: (organisation: OrganisationId, id: string, command: typeof InstalmentScheduleUpdateRequest.Encoded) => Effect.Effect<InstalmentSchedule, OperationError>
  /** Cancels the schedule and its payments not yet submitted. */
  readonly cancel: (organisation: OrganisationId, id: string) => Effect.Effect<InstalmentSchedule, OperationError>
  /** The daily run: schedules follow their payments (errored, resumed, completed). */
  readonly processDay: (organisation: OrganisationId) => Effect.Effect<void, StorageError>
}>()("@paykit/engine/InstalmentSchedules") {
  static readonly layer: Layer.Layer<
    InstalmentSchedules,
    never,
    InstalmentScheduleRepository | MandateRepository | CreditorRepository | PaymentRepository | InstalmentScheduleCheckRepository | Payments | IdGenerator | EventLog | Transactor
  > = Layer.effect(
    InstalmentSchedules,
    Effect.gen(function*() {
      const deps: InstalmentDeps = {
        schedules: yield* InstalmentScheduleRepository,
        mandates: yield* MandateRepository,
        creditors: yield* CreditorRepository,
        paymentRecords: yield* PaymentRepository,
        scheduleChecks: yield* InstalmentScheduleCheckRepository,
        payments: yield* Payments
      }
      const run = yield* captureUnitOfWork
      const eachItem = yield* captureDailyItems
      return InstalmentSchedules.of({
        createWithDates: (o, command) => Effect.flatMap(decodeWithDates(command), (c) => run(createWithDates(deps, o, c))),
        createWithSchedule: (o, command) => Effect.flatMap(decodeWithSchedule(command), (c) => run(createWithSchedule(deps, o, c))),
        get: (o, id) => Effect.map(deps.schedules.get(o, id), (v) => v.resource),
        list: (o, plain) =>
          Effect.flatMap(decodeList(plain), (params) =>
            deps.schedules.list(o, toListQuery(params, {
              customer: params.customer === undefined ? undefined : eq(params.customer),
              mandate: params.mandate === undefined ? undefined : eq(params.mandate),
              status: params.status === undefined ? undefined : oneOf(params.status)
            }))),
        update: (o, id, command) => Effect.flatMap(decodeUpdate(command), (c) => run(updateSchedule(deps, o, id, c))),
        cancel: (o, id) => run(cancelSchedule(deps, o, id)),
        processDay: (o) => followPayments({ ...deps, eachItem }, o)
      })
    })
  )
}
