import { Effect, Schema } from "effect"
import { HttpApiEndpoint } from "effect/http-api"
import { decodeInputEffect, invalidField, NotFound, PAGE_SIZE_DEFAULT } from "@paykit/core"
import { PageLimit } from "@paykit/engine"
import {
  ApiProtocol,
  bindRoutes,
  cursorOf,
  declare,
  type EndpointDeclaration,
  IdParams,
  ok,
  page,
  parseCursor,
  paykitExtension,
  queryDeclaration,
  queryShapeOf,
  REQUEST_LOGS_PATH,
  type RequestLogRecord,
  RequestLogStore,
  single,
  singleOf,
  STATUS_CLASSES
} from "@paykit/http"

/**
 * `/request_logs` (paykit's own extension): the organisation's stored request log, newest first,
 * what the dashboard's logs page and `paykit logs --requests` read (docs/dashboard.md, "Request
 * log"). A list item is a request without its bodies; one request by its id has them, redacted.
 * Reading the log is itself not logged (`REQUEST_LOGS_PATH`).
 */

export const REQUEST_LOGS = REQUEST_LOGS_PATH.slice(1)

/** The list's parameters: a page (`limit`, a cursor either way) and the three filters. */
export const RequestLogListParams = Schema.Struct({
  limit: Schema.optionalKey(PageLimit),
  after: Schema.optionalKey(Schema.String),
  before: Schema.optionalKey(Schema.String),
  status_class: Schema.optionalKey(Schema.Literals(STATUS_CLASSES)),
  path: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(500))),
  resource_id: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100)))
})
const decodeParams = decodeInputEffect(RequestLogListParams, REQUEST_LOGS)

const RequestLogSummary = Schema.Struct({
  id: Schema.String,
  created_at: Schema.String,
  method: Schema.String,
  path: Schema.String,
  query: Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)),
  status: Schema.Int,
  duration_ms: Schema.Number,
  idempotency_key: Schema.NullOr(Schema.String),
  token_prefix: Schema.NullOr(Schema.String),
  resource_ids: Schema.Array(Schema.String),
  links: Schema.Struct({ access_token: Schema.String })
})
const RequestLogView = Schema.Struct({ ...RequestLogSummary.fields, request_body: Schema.Unknown, response_body: Schema.Unknown })

const summaryOf = (record: RequestLogRecord): typeof RequestLogSummary.Type => ({
  id: record.requestId,
  created_at: record.createdAt,
  method: record.method,
  path: record.path,
  query: record.query,
  status: record.status,
  duration_ms: record.durationMs,
  idempotency_key: record.idempotencyKey,
  token_prefix: record.tokenPrefix,
  resource_ids: record.resourceIds,
  links: { access_token: record.tokenId }
})

const viewOf = (record: RequestLogRecord): typeof RequestLogView.Type => ({
  ...summaryOf(record),
  request_body: record.requestBody,
  response_body: record.responseBody
})

const invalidCursor = (name: "after" | "before") => Effect.fail(invalidField(REQUEST_LOGS, [name], "is not a cursor of this list"))

const SHAPE = queryShapeOf(RequestLogListParams)

export const REQUEST_LOG_ROUTES: ReadonlyArray<EndpointDeclaration<RequestLogStore["Service"]>> = [
  declare(REQUEST_LOGS, paykitExtension(HttpApiEndpoint.get("list_request_logs", REQUEST_LOGS_PATH, {
    query: queryDeclaration(SHAPE),
    success: page(REQUEST_LOGS, RequestLogSummary)
  }).annotate(ApiProtocol, false)), (store) => (request, caller) =>
    Effect.gen(function*() {
      const raw = Object.fromEntries(SHAPE.singles.flatMap((name) => {
        const value = singleOf(request.query, name)
        return value === undefined ? [] : [[name, value]]
      }))
      const params = yield* decodeParams(raw)
      const cursor = params.after !== undefined ? parseCursor(params.after, "After") : params.before !== undefined ? parseCursor(params.before, "Before") : undefined
      if (params.after !== undefined && cursor === undefined) return yield* invalidCursor("after")
      if (params.before !== undefined && cursor === undefined) return yield* invalidCursor("before")
      const limit = params.limit ?? PAGE_SIZE_DEFAULT
      const found = yield* store.list(caller.organisation, {
        limit,
        ...(cursor === undefined ? {} : { cursor }),
        ...(params.status_class === undefined ? {} : { statusClass: params.status_class }),
        ...(params.path === undefined ? {} : { pathPrefix: params.path }),
        ...(params.resource_id === undefined ? {} : { resourceId: params.resource_id })
      })
      const first = found.records[0]
      const last = found.records.at(-1)
      return ok({
        [REQUEST_LOGS]: found.records.map(summaryOf),
        meta: {
          cursors: { before: first === undefined ? params.before ?? null : cursorOf(first), after: found.more && last !== undefined ? cursorOf(last) : null },
          limit
        }
      })
    })),
  declare(REQUEST_LOGS, paykitExtension(HttpApiEndpoint.get("get_request_log", `${REQUEST_LOGS_PATH}/:id`, {
    params: IdParams,
    success: single(REQUEST_LOGS, RequestLogView)
  }).annotate(ApiProtocol, false)), (store) => (request, caller) => {
    const id = request.params["id"] ?? ""
    return Effect.flatMap(store.find(caller.organisation, id), (record) =>
      record === undefined ? Effect.fail(new NotFound({ resource: REQUEST_LOGS, id })) : Effect.succeed(ok({ [REQUEST_LOGS]: viewOf(record) })))
  })
]

/** The routes bound to the server's store, for the API's dispatcher. */
export const requestLogRoutes = bindRoutes(REQUEST_LOG_ROUTES, Effect.gen(function*() {
  return yield* RequestLogStore
}))
