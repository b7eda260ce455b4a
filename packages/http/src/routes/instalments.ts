import { Effect, type Schema } from "effect"
import { HttpApiEndpoint, HttpApiSchema } from "effect/http-api"
import type { PaykitError, OrganisationId } from "@paykit/core"
import { InstalmentSchedule, instalmentScheduleCreationOf, InstalmentScheduleListParams, InstalmentSchedules, REQUEST_BODIES } from "@paykit/engine"
import type { ApiHandler } from "../api-request.ts"
import { APP_FEE_PATHS, appFeeOnlyForApps } from "../app-fees.ts"
import { bodilessActionEndpoint, declare, type EndpointDeclaration, getEndpoint, Idempotent, listEndpoint, updateEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"
import { single } from "../wire.ts"
import { createHandler, unwrap } from "../write-handlers.ts"

/**
 * Instalment schedules, with the official client's paths, verbs and envelopes
 * (`gocardless-nodejs`'s services): two creations, each under two names, and the plain
 * `POST /instalment_schedules` that tells them apart by its body.
 */

const services = Effect.gen(function*() {
  return { instalmentSchedules: yield* InstalmentSchedules }
})
type Services = Effect.Success<typeof services>
type Declaration = EndpointDeclaration<Services>

const BODIES = REQUEST_BODIES
const IS = "instalment_schedules"
type ScheduleCreate<P extends Schema.Top> = (s: Services) => (organisation: OrganisationId, command: P["Type"]) => Effect.Effect<InstalmentSchedule, PaykitError>

/** A creation of a schedule: 201 with `Location`, app fees for apps only. */
const scheduleHandler = <P extends Schema.Top & Schema.Decoder<unknown>>(request: P, create: ScheduleCreate<P>) => (s: Services): ApiHandler =>
  createHandler(IS, request, create(s), { guard: appFeeOnlyForApps(IS, APP_FEE_PATHS.top) })

/** `POST /instalment_schedules/<path>`: one creation, the endpoint named as its path. */
const scheduleCreation = <P extends Schema.Top & Schema.Decoder<unknown>>(path: string, request: P, create: ScheduleCreate<P>): Declaration =>
  declare(
    IS,
    HttpApiEndpoint.post(path, `/${IS}/${path}`, {
      payload: single(IS, request),
      success: single(IS, InstalmentSchedule).pipe(HttpApiSchema.status(201))
    }).annotate(Idempotent, true),
    scheduleHandler(request, create)
  )

const withDates = scheduleHandler(BODIES.instalment_schedules.create_with_dates, (s) => s.instalmentSchedules.createWithDates)
const withSchedule = scheduleHandler(BODIES.instalment_schedules.create_with_schedule, (s) => s.instalmentSchedules.createWithSchedule)

/**
 * `POST /instalment_schedules`, which the real API still serves beside its two aliases
 * (Versioning): the body says which creation it is (`instalmentScheduleCreationOf`).
 */
const plainScheduleCreation: Declaration = declare(
  IS,
  HttpApiEndpoint.post("create", `/${IS}`, {
    payload: single(IS, BODIES.instalment_schedules.create),
    success: single(IS, InstalmentSchedule).pipe(HttpApiSchema.status(201))
  }).annotate(Idempotent, true),
  (s) => {
    const handlers = { dates: withDates(s), schedule: withSchedule(s) }
    return (request, caller) => Effect.flatMap(unwrap(request, IS), (body) => handlers[instalmentScheduleCreationOf(body)](request, caller))
  }
)

const declarations: ReadonlyArray<Declaration> = [
  scheduleCreation("create_with_dates", BODIES.instalment_schedules.create_with_dates, (s) => s.instalmentSchedules.createWithDates),
  scheduleCreation("create_with_schedule", BODIES.instalment_schedules.create_with_schedule, (s) => s.instalmentSchedules.createWithSchedule),
  // The aliases the real API gained (Versioning), each the creation it names.
  scheduleCreation("with_dates", BODIES.instalment_schedules.create_with_dates, (s) => s.instalmentSchedules.createWithDates),
  scheduleCreation("with_schedule", BODIES.instalment_schedules.create_with_schedule, (s) => s.instalmentSchedules.createWithSchedule),
  plainScheduleCreation,
  listEndpoint(IS, InstalmentSchedule, InstalmentScheduleListParams, (s) => s.instalmentSchedules.list),
  getEndpoint(IS, InstalmentSchedule, (s) => s.instalmentSchedules.get),
  updateEndpoint(IS, InstalmentSchedule, BODIES.instalment_schedules.update, (s) => s.instalmentSchedules.update),
  bodilessActionEndpoint("cancel", IS, InstalmentSchedule, (s) => s.instalmentSchedules.cancel)
]

export const instalmentsRoom = routeRoom([IS], services, declarations)
