import { ACCESS_TOKEN_REASONS, CONFLICT_REASONS, ERROR_REASONS } from "@paykit/core"
import { APP_RESTRICTED_REASON } from "../app-restrictions.ts"
import { PROTOCOL_REASONS } from "../error-response.ts"
import type { Route } from "../routes.ts"
import { operationKind } from "./operation-text.ts"
import { REFERENCE_SOURCES } from "./reference-sources.ts"

/**
 * The errors an operation can answer, by status, each with the reasons that status can carry
 * for it, read from the code: the gateway's checks that apply to its route (its annotations:
 * `ApiProtocol`, `Idempotent`, `RateLimit`, its app restriction), what its method and path imply
 * (a path with an id: 404; a list: `invalid_filters`; a body: 422 `validation_failed`), and the
 * reasons the engine's code for its resource raises (`REFERENCE_SOURCES.reasons`, found in the
 * engine's sources by `scripts/reference-sources.ts`), with the status refusals of its actions.
 */

const ENGINE_REASONS: Readonly<Record<string, { readonly create: ReadonlyArray<string>; readonly actions: ReadonlyArray<string>; readonly any: ReadonlyArray<string> }>> =
  REFERENCE_SOURCES.reasons

/** A reason's status, as `httpStatusOf` answers its error. */
const statusOfReason = (reason: string): number => {
  const entry = ERROR_REASONS[reason]
  if (entry?.type === "invalid_state") return CONFLICT_REASONS.has(reason) ? 409 : 422
  if (reason === "resource_not_found") return 404
  if (reason === "invalid_filters" || reason === "missing_svc_key_id" || reason === "invalid_svc_key_id" || reason === "bad_request") return 400
  return 422
}

const singular = (key: string): string => key.replace(/ies$/, "y").replace(/s$/, "")

/** The engine's reasons for the route's resource that apply to what the route does. */
const engineReasonsOf = (route: Route): ReadonlyArray<string> => {
  const kind = operationKind(route)
  const found = ENGINE_REASONS[kind.key]
  if (route.method === "GET") return found?.any.includes("invalid_filters") === true && kind._tag === "List" ? ["invalid_filters"] : []
  const own = found === undefined ? [] : kind._tag === "Create" ? [...found.create, ...found.any] : [...found.actions, ...found.any]
  const refusals = kind._tag === "Action" || kind._tag === "Update"
    ? Object.keys(ERROR_REASONS).filter((reason) => reason.startsWith(`${singular(kind.key)}_not_`))
    : []
  return [...own, ...refusals].filter((reason) => reason !== "invalid_filters")
}

export type OperationErrors = ReadonlyMap<number, ReadonlyArray<string>>

export const operationErrors = (route: Route, hasQuery: boolean, hasBody: boolean): OperationErrors => {
  const errors = new Map<number, Set<string>>()
  const add = (status: number, ...reasons: ReadonlyArray<string>) => {
    const set = errors.get(status) ?? new Set<string>()
    for (const reason of reasons) set.add(reason)
    errors.set(status, set)
  }
  const write = route.method !== "GET"
  if (route.apiProtocol) add(400, PROTOCOL_REASONS.missingVersion, PROTOCOL_REASONS.unknownVersion)
  add(401, ...ACCESS_TOKEN_REASONS)
  if (write) add(403, PROTOCOL_REASONS.readOnlyToken)
  if (route.appRestriction !== undefined) add(403, APP_RESTRICTED_REASON)
  if (route.rateLimit !== undefined) add(429, "rate_limit_exceeded")
  if (write) {
    add(400, ...(route.apiProtocol ? [PROTOCOL_REASONS.invalidContentType] : []), PROTOCOL_REASONS.invalidJson)
    add(413, PROTOCOL_REASONS.bodyTooLarge)
  }
  if (hasBody) add(422, "validation_failed")
  if (route.idempotent) {
    add(400, PROTOCOL_REASONS.idempotencyKeyTooLong)
    add(409, PROTOCOL_REASONS.idempotentCreationConflict)
  }
  if (route.path.includes("/:")) add(404, "resource_not_found")
  if (hasQuery) {
    add(400, PROTOCOL_REASONS.invalidFilters)
    add(422, "validation_failed")
  }
  for (const reason of engineReasonsOf(route)) add(statusOfReason(reason), reason)
  return new Map([...errors].sort(([a], [b]) => a - b).map(([status, reasons]) => [status, [...reasons]]))
}
