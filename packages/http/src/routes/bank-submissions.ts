import { Effect, Schema, Stream, Struct } from "effect"
import { HttpApiEndpoint, HttpApiSchema, OpenApi } from "effect/http-api"
import { EntryTargetSchema, REPORT_FORMATS } from "@paykit/bank-files"
import { type OrganisationId, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, type PaykitError, type StorageError, ValidationFailed } from "@paykit/core"
import {
  BankReport,
  BankReportEntry,
  BankReportListParams,
  BankReports,
  BankSubmission,
  BankSubmissionListParams,
  BankSubmissions,
  type ReportRefused
} from "@paykit/engine"
import { type ApiHandler, idParamOf } from "../api-request.ts"
import { type ApiResponse, created, ok } from "../api-response.ts"
import { annotateEach, type AnyEndpoint, declare, type EndpointDeclaration, IdParams, listEndpoint, PAYKIT_EXTENSION_TAG, RawBody } from "../endpoints.ts"
import { type Getter, getHandler, listMeta, paramsOf } from "../read-handlers.ts"
import { queryDeclaration, queryShapeOf } from "../query-params.ts"
import { routeRoom } from "../routes.ts"
import { page, single } from "../wire.ts"

/**
 * The bank rails (paykit's own extension, docs/bank-rails.md): the submissions the daily run
 * handed the bank, with their files' exact bytes, and the bank's reports, posted as raw bytes
 * (`POST /bank_reports`) or collected from the bank (the sandbox bank's), listed with their
 * entries and files. The engine's records are shown without what is engine-internal (the batch,
 * the originator's account, the bank's notes by position).
 */

const services = Effect.gen(function*() {
  return { submissions: yield* BankSubmissions, reports: yield* BankReports }
})
type Services = Effect.Success<typeof services>
type Declaration = EndpointDeclaration<Services>

/** The OpenAPI tag of these routes, beside `PAYKIT_EXTENSION_TAG`. */
export const BANK_RAILS_TAG = "paykit: bank rails"
export const BANK_RAILS_TAG_DESCRIPTION =
  "paykit's own API extension, not part of the GoCardless API: the scheme files paykit hands the bank (bank submissions) and the bank's reports of what became of each item (bank reports). docs/bank-rails.md"

/** The largest report `POST /bank_reports` takes; a larger one is answered 413 (the engine itself reads up to `BANK_REPORT_MAX_BYTES`). */
export const BANK_REPORT_BODY_MAX_BYTES = 64 * 1024 * 1024

/** A report's entries shown on `GET /bank_reports/{id}`; the rest are paged by `GET /bank_reports/{id}/entries`. */
export const BANK_REPORT_ENTRIES_SHOWN = 500

const SUBMISSIONS = "bank_submissions"
const REPORTS = "bank_reports"
const ENTRIES = "bank_report_entries"

/** A submission as the API shows it. */
export const BankSubmissionView = BankSubmission.mapFields(Struct.pick([
  "id", "created_at", "scheme", "file_format", "processing_date", "item_count", "total_amount", "currency",
  "file_size", "file_sha256", "bank_reference", "acknowledged_at", "links"
])).annotate({ identifier: "BankSubmission" })
export type BankSubmissionView = typeof BankSubmissionView.Type

/** The view's fields of a record: a Struct decodes away the keys it does not declare. */
const submissionView: (s: BankSubmission) => BankSubmissionView = Schema.decodeSync(BankSubmissionView)

/** A report as the API shows it (its entries on its own read; `applied_through`: entries applied in file order, `entry_count` once done). */
export const BankReportView = BankReport.mapFields(Struct.pick([
  "id", "created_at", "name", "format", "source", "file_size", "file_sha256", "entry_count",
  "matched_count", "unmatched_count", "duplicate_count", "mismatched_count", "ignored_count", "applied_through"
])).annotate({ identifier: "BankReport" })
export type BankReportView = typeof BankReportView.Type

const reportView: (report: BankReport) => BankReportView = Schema.decodeSync(BankReportView)

/** What an entry is flagged with beside its outcome. */
export const ENTRY_FLAGS = ["amount_mismatch", "duplicate"] as const

const e = BankReportEntry.fields
/** An entry of a report as the API shows it: what it named, what it came to, what it moved. */
export const BankReportEntryView = Schema.Struct({
  position: e.position,
  /** The reference it names the item by: an end-to-end id (a payment's or mandate's id), a mandate reference, or a submission's id. */
  reference: Schema.String,
  target: EntryTargetSchema,
  kind: e.kind,
  code: e.code,
  amount: e.amount,
  currency: e.currency,
  effective_date: e.effective_date,
  location: e.location,
  note: e.note,
  outcome: e.outcome,
  /** Whether it named an item of this organisation. */
  matched: Schema.Boolean,
  flags: Schema.Array(Schema.Literals(ENTRY_FLAGS)),
  reason: e.reason,
  cause: e.cause,
  description: e.description,
  reason_code: e.reason_code,
  due_on: e.due_on,
  links: e.links
}).annotate({ identifier: "BankReportEntry" })
export type BankReportEntryView = typeof BankReportEntryView.Type

const referenceOf = (target: BankReportEntry["target"]): string =>
  target.by === "end_to_end" ? target.id : target.by === "mandate_reference" ? target.reference : target.id

export const entryView = (entry: BankReportEntry): BankReportEntryView => ({
  position: entry.position,
  reference: referenceOf(entry.target),
  target: entry.target,
  kind: entry.kind,
  code: entry.code,
  amount: entry.amount,
  currency: entry.currency,
  effective_date: entry.effective_date,
  location: entry.location,
  note: entry.note,
  outcome: entry.outcome,
  matched: entry.outcome !== "unmatched",
  flags: ENTRY_FLAGS.filter((flag) => entry.outcome === flag),
  reason: entry.reason,
  cause: entry.cause,
  description: entry.description,
  reason_code: entry.reason_code,
  due_on: entry.due_on,
  links: entry.links
})

export const BankReportDetail = Schema.Struct({ ...BankReportView.fields, entries: Schema.Array(BankReportEntryView) }).annotate({ identifier: "BankReportDetail" })

/** The file routes' answer in the OpenAPI document: the bytes, in the format's media type. */
const FileBytes = HttpApiSchema.StreamUint8Array({ contentType: ["application/xml", "text/plain", "application/x-ndjson", "application/octet-stream"] })

const fileAnswer = (file: { readonly content_type: string; readonly file_name: string; readonly bytes: Stream.Stream<Uint8Array, StorageError> }): Effect.Effect<ApiResponse, StorageError> =>
  Effect.map(Stream.runCollect(file.bytes), (chunks) => ({
    status: 200,
    body: "",
    bytes: Buffer.concat(chunks),
    headers: { "content-type": file.content_type, "content-disposition": `attachment; filename="${file.file_name}"` }
  }))

const fileRoute = (key: string, bind: (s: Services) => (organisation: OrganisationId, id: string) => Effect.Effect<Parameters<typeof fileAnswer>[0], PaykitError>): Declaration =>
  declare(key, HttpApiEndpoint.get("file", `/${key}/:id/file`, { params: IdParams, success: FileBytes }), (s) => (request, caller) =>
    Effect.flatMap(idParamOf(request), (id) => Effect.flatMap(bind(s)(caller.organisation, id), fileAnswer)))

/** `POST /bank_reports`'s query: the report's format (detected when absent) and the name it goes by. */
export const BankReportReceiveParams = Schema.Struct({
  format: Schema.optionalKey(Schema.Literals(REPORT_FORMATS)),
  name: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(255)))
})

/** A report refused: 422 naming where and what, nothing applied. */
const refusal = (refused: ReportRefused): ValidationFailed =>
  new ValidationFailed({ errors: [{ field: "file", message: `${refused.location}: ${refused.message}`, request_pointer: refused.location, reason: "bank_report_refused" }] })

/** Reports are handed to the engine in slices: its reader and its sealed chunks go a piece at a time. */
const SLICE_BYTES = 64 * 1024

const slices = (bytes: Uint8Array): Stream.Stream<Uint8Array> =>
  Stream.fromIterable(Array.from({ length: Math.ceil(bytes.length / SLICE_BYTES) }, (_, i) => bytes.subarray(i * SLICE_BYTES, (i + 1) * SLICE_BYTES)))

const receiveHandler = (s: Services): ApiHandler => {
  const params = paramsOf(REPORTS, BankReportReceiveParams)
  return (request, caller) =>
    Effect.gen(function*() {
      const p = yield* params(request.query)
      const received = yield* s.reports.receive(caller.organisation, {
        bytes: slices(request.bytes ?? new Uint8Array(0)),
        ...(p.format === undefined ? {} : { format: p.format }),
        ...(p.name === undefined ? {} : { name: p.name })
      }).pipe(Effect.catchTag("ReportRefused", (refused) => Effect.fail(refusal(refused))))
      const view = reportView(received.report)
      return received.created ? created(REPORTS, view) : ok({ [REPORTS]: view })
    })
}

/**
 * Not a keyed creation (`Idempotent`): the report's bytes are its key, so the same file posted
 * again is answered 200 with the report it made, whatever the `Idempotency-Key`.
 */
const receiveEndpoint: AnyEndpoint = HttpApiEndpoint.post("receive", `/${REPORTS}`, {
  query: queryDeclaration(queryShapeOf(BankReportReceiveParams)),
  payload: HttpApiSchema.StreamUint8Array({ contentType: ["application/xml", "text/plain", "application/x-ndjson", "application/octet-stream"] }),
  success: [single(REPORTS, BankReportView).pipe(HttpApiSchema.status(201)), single(REPORTS, BankReportView)]
}).annotate(RawBody, BANK_REPORT_BODY_MAX_BYTES)

const reportDetail = (s: Services): Getter<Schema.Schema.Type<typeof BankReportDetail>> => (organisation, id) =>
  Effect.gen(function*() {
    const report = yield* s.reports.get(organisation, id)
    const entries = yield* s.reports.entries(organisation, id, { limit: BANK_REPORT_ENTRIES_SHOWN })
    return { ...reportView(report), entries: entries.map(entryView) }
  })

/** `GET /bank_reports/{id}/entries`: the entries in file order, `after` a position. */
export const BankReportEntriesParams = Schema.Struct({
  after: Schema.optionalKey(Schema.NumberFromString.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))),
  limit: Schema.optionalKey(Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: PAGE_SIZE_MAX })))
})

const entriesHandler = (s: Services): ApiHandler => {
  const params = paramsOf(ENTRIES, BankReportEntriesParams)
  return (request, caller) =>
    Effect.flatMap(idParamOf(request), (id) =>
      Effect.flatMap(params(request.query), (p) => {
        const limit = p.limit ?? PAGE_SIZE_DEFAULT
        return Effect.map(s.reports.entries(caller.organisation, id, { limit, ...(p.after === undefined ? {} : { after: p.after }) }), (entries) => {
          const last = entries[entries.length - 1]
          const after = entries.length < limit || last === undefined ? null : String(last.position)
          return ok({ [ENTRIES]: entries.map(entryView), meta: listMeta({ before: null, after }, limit) })
        })
      }))
}

const declarations: ReadonlyArray<Declaration> = [
  listEndpoint(SUBMISSIONS, BankSubmissionView, BankSubmissionListParams, (s) => (o, p) => Effect.map(s.submissions.list(o, p), (pg) => ({ ...pg, items: pg.items.map(submissionView) }))),
  declare(SUBMISSIONS, HttpApiEndpoint.get("get", `/${SUBMISSIONS}/:id`, { params: IdParams, success: single(SUBMISSIONS, BankSubmissionView) }), (s) =>
    getHandler(SUBMISSIONS, (o, id) => Effect.map(s.submissions.get(o, id), submissionView))),
  fileRoute(SUBMISSIONS, (s) => s.submissions.file),
  declare(REPORTS, receiveEndpoint, receiveHandler),
  listEndpoint(REPORTS, BankReportView, BankReportListParams, (s) => (o, p) => Effect.map(s.reports.list(o, p), (pg) => ({ ...pg, items: pg.items.map(reportView) }))),
  declare(REPORTS, HttpApiEndpoint.get("get", `/${REPORTS}/:id`, { params: IdParams, success: single(REPORTS, BankReportDetail) }), (s) => getHandler(REPORTS, reportDetail(s))),
  declare(REPORTS, HttpApiEndpoint.get("entries", `/${REPORTS}/:id/entries`, {
    params: IdParams,
    query: queryDeclaration(queryShapeOf(BankReportEntriesParams)),
    success: page(ENTRIES, BankReportEntryView)
  }), entriesHandler),
  fileRoute(REPORTS, (s) => s.reports.file)
]

/** `paykitExtension`'s marks, and the bank rails' own tag. */
const tagged = (endpoint: AnyEndpoint): AnyEndpoint =>
  endpoint.annotate(OpenApi.Transform, (operation) => ({
    ...operation,
    tags: [...(Array.isArray(operation["tags"]) ? operation["tags"] : []), BANK_RAILS_TAG, PAYKIT_EXTENSION_TAG],
    "x-paykit-extension": true
  }))

export const bankRailsRoom = routeRoom(
  [SUBMISSIONS, REPORTS],
  services,
  annotateEach(declarations, OpenApi.Description, () => BANK_RAILS_TAG_DESCRIPTION).map((d) => ({ ...d, endpoint: tagged(d.endpoint) }))
)
