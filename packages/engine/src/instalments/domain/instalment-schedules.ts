import { Schema } from "effect"
import { Amount, Currency, ID_PREFIXES, IdOf, InputDate, Metadata, PositiveAmount } from "@paykit/core"
import { INSTALMENT_SCHEDULE_STATUSES } from "@paykit/machines"
import { INTERVAL_UNITS } from "@paykit/schedule"
import { Description, issue, NonBlankString, PositiveInteger, type RuleIssue, withRules } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, Minor, StoredMetadata } from "../../kernel/fields.ts"
import { idFilter, listFields } from "../../kernel/list-params.ts"
import { MetadataUpdateRequest } from "@paykit/core"

/** The API resource key of instalment schedules: the root of their requests' field errors. */
export const INSTALMENT_SCHEDULES_ROOT = "instalment_schedules"

/**
 * The most instalments one schedule may have. The real API documents no limit; paykit sets one
 * because every instalment is a payment made in the request's one unit of work.
 */
export const INSTALMENT_SCHEDULE_MAX_INSTALMENTS = 100

/** What a payment of the schedule was refused for, keyed by the instalment's index (the real API's `payment_errors`). */
export const PaymentError = Schema.Struct({ field: Schema.String, message: Schema.String })
export const PaymentErrors = Schema.Record(Schema.String, Schema.Array(PaymentError))
export type PaymentErrors = typeof PaymentErrors.Type

export const InstalmentSchedule = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  currency: Currency,
  name: Schema.String,
  total_amount: Minor,
  status: Schema.Literals(INSTALMENT_SCHEDULE_STATUSES),
  payment_errors: PaymentErrors,
  metadata: StoredMetadata,
  links: Schema.Struct({ customer: Schema.String, mandate: Schema.String, payments: Schema.Array(Schema.String) })
})
export type InstalmentSchedule = typeof InstalmentSchedule.Type

export const instalmentSchedules = defineResource({
  name: "instalment_schedules",
  idPrefix: ID_PREFIXES.instalment_schedule,
  schema: InstalmentSchedule,
  filters: {
    created_at: (r: InstalmentSchedule) => r.created_at,
    customer: (r: InstalmentSchedule) => r.links.customer,
    mandate: (r: InstalmentSchedule) => r.links.mandate,
    status: (r: InstalmentSchedule) => r.status
  }
})

const instalmentList = <S extends Schema.Top>(item: S) =>
  Schema.Array(item).check(Schema.makeFilter((items: ReadonlyArray<unknown>) => items.length >= 1 && items.length <= INSTALMENT_SCHEDULE_MAX_INSTALMENTS, {
    message: `must have between 1 and ${INSTALMENT_SCHEDULE_MAX_INSTALMENTS} instalments`
  }))

/** The fields both creations share (the real API's `InstalmentScheduleCreateWith*Request`). */
const CommonFields = {
  name: NonBlankString,
  currency: Currency,
  total_amount: PositiveAmount,
  app_fee: Schema.optionalKey(Amount),
  metadata: Schema.optionalKey(Metadata),
  payment_reference: Schema.optionalKey(Schema.String),
  retry_if_possible: Schema.optionalKey(Schema.Boolean),
  links: Schema.Struct({ mandate: IdOf("mandate") })
} as const

/** One instalment of `create_with_dates`: its amount and the date to charge it (null: as soon as possible). */
export const Instalment = Schema.Struct({
  amount: PositiveAmount,
  charge_date: Schema.NullOr(InputDate),
  description: Schema.optionalKey(Schema.NullOr(Description))
})
export type Instalment = typeof Instalment.Type

/**
 * The cross-field rule of both creations: the instalments add up to `total_amount`. (`app_fee` is
 * each payment's, checked as each is made.)
 */
export const instalmentTotalIssues = (amounts: ReadonlyArray<number>, total: number): ReadonlyArray<RuleIssue> => {
  const sum = amounts.reduce((a, b) => a + b, 0)
  return sum === total ? [] : [issue(["total_amount"], `must equal the sum of the instalments' amounts (${sum})`)]
}

/** `POST /instalment_schedules/create_with_dates`. */
export const InstalmentScheduleCreateWithDatesRequest = withRules(Schema.Struct({
  ...CommonFields,
  instalments: instalmentList(Instalment)
}), [(r) => instalmentTotalIssues(r.instalments.map((i) => i.amount), r.total_amount)])
export type InstalmentScheduleCreateWithDatesRequest = typeof InstalmentScheduleCreateWithDatesRequest.Type

/** `instalments` of `create_with_schedule`: the amounts, charged every `interval` `interval_unit`s from `start_date`. */
export const InstalmentRecurrenceRequest = Schema.Struct({
  amounts: instalmentList(PositiveAmount),
  interval: PositiveInteger,
  interval_unit: Schema.Literals(INTERVAL_UNITS),
  start_date: Schema.optionalKey(Schema.NullOr(InputDate))
})

/** `POST /instalment_schedules/create_with_schedule`. */
export const InstalmentScheduleCreateWithScheduleRequest = withRules(Schema.Struct({
  ...CommonFields,
  instalments: InstalmentRecurrenceRequest
}), [(r) => instalmentTotalIssues(r.instalments.amounts, r.total_amount)])
export type InstalmentScheduleCreateWithScheduleRequest = typeof InstalmentScheduleCreateWithScheduleRequest.Type

/**
 * `POST /instalment_schedules` (Versioning: still served beside `/with_dates` and
 * `/with_schedule`): either creation, told apart by its body.
 */
export const InstalmentScheduleCreateRequest = Schema.Union([InstalmentScheduleCreateWithDatesRequest, InstalmentScheduleCreateWithScheduleRequest])
export type InstalmentScheduleCreateRequest = typeof InstalmentScheduleCreateRequest.Type

/**
 * Which creation a `POST /instalment_schedules` body asks for: a list of `instalments` (each with
 * its own date) is `create_with_dates`; anything else is read as `create_with_schedule`, whose
 * Schema then names what is wrong (a missing `instalments` included).
 */
export const instalmentScheduleCreationOf = (body: unknown): "dates" | "schedule" =>
  typeof body === "object" && body !== null && Array.isArray((body as { readonly instalments?: unknown }).instalments) ? "dates" : "schedule"

/** `PUT /instalment_schedules/:id`: metadata only (the real API's update). */
export const InstalmentScheduleUpdateRequest = MetadataUpdateRequest
export type InstalmentScheduleUpdateRequest = typeof InstalmentScheduleUpdateRequest.Type

export const InstalmentScheduleListParams = Schema.Struct({
  ...listFields("instalment_schedule"),
  customer: idFilter("customer"),
  mandate: idFilter("mandate"),
  status: Schema.optionalKey(Schema.Array(Schema.Literals(INSTALMENT_SCHEDULE_STATUSES)))
})
export type InstalmentScheduleListParams = typeof InstalmentScheduleListParams.Type

