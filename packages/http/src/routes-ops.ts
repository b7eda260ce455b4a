import { Effect, Schema } from "effect"
import { HttpApiEndpoint, HttpApiSchema } from "effect/http-api"
import { decodeInputEffect, type PaykitError } from "@paykit/core"
import {
  Block,
  BlockListParams,
  InstalmentSchedule,
  instalmentScheduleCreationOf,
  InstalmentScheduleListParams,
  MandateImport,
  MandateImportEntry,
  MandateImportEntryListParams,
  REQUEST_BODIES
} from "@paykit/engine"
import type { ApiHandler } from "./api-request.ts"
import { jsonResponse } from "./api-response.ts"
import type { Declaration, EngineServices } from "./api.ts"
import { APP_FEE_PATHS, appFeeOnlyForApps } from "./app-fees.ts"
import {
  bodilessActionEndpoint,
  createEndpoint,
  declare,
  getEndpoint,
  Idempotent,
  listEndpoint,
  updateEndpoint
} from "./endpoints.ts"
import { page, single } from "./wire.ts"
import { createdWithoutLocation, createHandler, unwrap } from "./write-handlers.ts"

/**
 * The routes of instalment schedules, blocks, and mandate imports with their entries (issue 18,
 * part "ops"): the official client's paths, verbs and envelopes (`gocardless-nodejs`'s services).
 */

const BODIES = REQUEST_BODIES

const IS = "instalment_schedules"
type ScheduleCreate<P extends Schema.Top> = (s: EngineServices) => (organisation: string, command: P["Type"]) => Effect.Effect<InstalmentSchedule, PaykitError>

/** A creation of a schedule: 201 with `Location`, app fees for apps only. */
const scheduleHandler = <P extends Schema.Top & Schema.Decoder<unknown>>(request: P, create: ScheduleCreate<P>) => (s: EngineServices): ApiHandler =>
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

const instalmentScheduleRoutes: ReadonlyArray<Declaration> = [
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

const BLOCKS = "blocks"
const decodeBlockByRef = decodeInputEffect(BODIES.blocks.block_by_ref, BLOCKS)

/**
 * `POST /blocks/block_by_ref` (the client sends its attributes under `data`): the blocks of the
 * reference's details as a list, 201 when at least one is new, 200 when all were there already,
 * as the real API answers.
 */
const blockByRef = (s: EngineServices): ApiHandler => (request, caller) =>
  Effect.flatMap(unwrap(request, BLOCKS, { allowData: true }), (raw) =>
    Effect.flatMap(decodeBlockByRef(raw), (command) =>
      Effect.map(s.blocks.blockByRef(caller.organisation, command), ({ blocks, created }) =>
        jsonResponse(created ? 201 : 200, { blocks, meta: { cursors: { before: null, after: null }, limit: blocks.length } }))))

const blockRoutes: ReadonlyArray<Declaration> = [
  createEndpoint(BLOCKS, Block, BODIES.blocks.create, (s) => s.blocks.create),
  getEndpoint(BLOCKS, Block, (s) => s.blocks.get),
  listEndpoint(BLOCKS, Block, BlockListParams, (s) => s.blocks.list),
  bodilessActionEndpoint("disable", BLOCKS, Block, (s) => s.blocks.disable),
  bodilessActionEndpoint("enable", BLOCKS, Block, (s) => s.blocks.enable),
  declare(
    BLOCKS,
    HttpApiEndpoint.post("block_by_ref", `/${BLOCKS}/block_by_ref`, {
      payload: Schema.Struct({ data: BODIES.blocks.block_by_ref }),
      success: page(BLOCKS, Block)
    }).annotate(Idempotent, true),
    blockByRef
  )
]

const MI = "mandate_imports"
const MIE = "mandate_import_entries"
const mandateImportRoutes: ReadonlyArray<Declaration> = [
  createEndpoint(MI, MandateImport, BODIES.mandate_imports.create, (s) => s.mandateImports.create),
  getEndpoint(MI, MandateImport, (s) => s.mandateImports.get),
  bodilessActionEndpoint("submit", MI, MandateImport, (s) => s.mandateImports.submit),
  bodilessActionEndpoint("cancel", MI, MandateImport, (s) => s.mandateImports.cancel),
  // An entry has no path of its own in the real API: 201 without `Location`.
  declare(
    MIE,
    HttpApiEndpoint.post("create", `/${MIE}`, {
      payload: single(MIE, BODIES.mandate_import_entries.create),
      success: single(MIE, MandateImportEntry).pipe(HttpApiSchema.status(201))
    }).annotate(Idempotent, true),
    (s) => createdWithoutLocation(MIE, BODIES.mandate_import_entries.create, (o, command) => s.mandateImports.addEntry(o, command))
  ),
  listEndpoint(MIE, MandateImportEntry, MandateImportEntryListParams, (s) => s.mandateImports.listEntries)
]

export const OPS_ROUTES: ReadonlyArray<Declaration> = [...instalmentScheduleRoutes, ...blockRoutes, ...mandateImportRoutes]
