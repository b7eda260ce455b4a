import { Result, Schema } from "effect"
import { type FieldError, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, Timestamp, validationFailed, type ValidationFailed } from "@paykit/core"
import type { Filter } from "@paykit/engine"

/**
 * Query strings of list endpoints: cursor pagination (`before`, `after`, `limit`), the
 * `created_at[gt|gte|lt|lte]` range and equality or membership filters whose values come
 * comma-separated (`status=a,b`, what the official client sends) or repeated (`status=a&status=b`).
 */

export type QueryValues = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

export interface PageParams {
  readonly before?: string
  readonly after?: string
  readonly limit: number
}

const queryError = (field: string, message: string): FieldError => ({
  field,
  message,
  request_pointer: `/${field}`,
  reason: "validation_failed"
})

/** Every value of a parameter, splitting commas and flattening repeats; empty parts dropped. */
export const valuesOf = (query: QueryValues, key: string): ReadonlyArray<string> => {
  const raw = query[key]
  if (raw === undefined) return []
  const list = typeof raw === "string" ? [raw] : raw
  return list.flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "")
}

/** A single-valued parameter: the last value given (a repeat overrides), or undefined. */
export const singleOf = (query: QueryValues, key: string): string | undefined => {
  const raw = query[key]
  if (raw === undefined) return undefined
  const last = typeof raw === "string" ? raw : raw[raw.length - 1]
  return last === undefined || last === "" ? undefined : last
}

const INTEGER = /^\d{1,9}$/

export const parsePage = (query: QueryValues): Result.Result<PageParams, ValidationFailed> => {
  const errors: Array<FieldError> = []
  const limitRaw = singleOf(query, "limit")
  let limit = PAGE_SIZE_DEFAULT
  if (limitRaw !== undefined) {
    if (!INTEGER.test(limitRaw) || Number(limitRaw) < 1) {
      errors.push(queryError("limit", "must be a positive integer"))
    } else if (Number(limitRaw) > PAGE_SIZE_MAX) {
      errors.push(queryError("limit", `must be at most ${PAGE_SIZE_MAX}`))
    } else {
      limit = Number(limitRaw)
    }
  }
  if (errors.length > 0) return Result.fail(validationFailed(errors))
  const before = singleOf(query, "before")
  const after = singleOf(query, "after")
  return Result.succeed({ limit, ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) })
}

const RANGE_OPERATORS = ["gt", "gte", "lt", "lte"] as const
const isTimestamp = Schema.is(Timestamp)

/**
 * A timestamp range filter written `name[gt]=...` (and `name[gte]`, `name[lt]`, `name[lte]`);
 * `undefined` when none of the operators is present. A bare `name=...` is rejected: the real API
 * takes only the operators.
 */
export const parseRange = (query: QueryValues, name: string): Result.Result<Filter | undefined, ValidationFailed> => {
  const errors: Array<FieldError> = []
  const bounds: { gt?: string; gte?: string; lt?: string; lte?: string } = {}
  let any = false
  if (singleOf(query, name) !== undefined) {
    errors.push(queryError(name, "must be given with an operator: gt, gte, lt or lte"))
  }
  for (const op of RANGE_OPERATORS) {
    const value = singleOf(query, `${name}[${op}]`)
    if (value === undefined) continue
    if (!isTimestamp(value)) {
      errors.push(queryError(`${name}[${op}]`, "must be an ISO 8601 timestamp"))
      continue
    }
    bounds[op] = value
    any = true
  }
  if (errors.length > 0) return Result.fail(validationFailed(errors))
  return Result.succeed(any ? { op: "range", ...bounds } : undefined)
}

/**
 * An equality (one value) or membership (several) filter; `allowed` restricts the values (enum
 * filters such as `status`), `max` the number of values.
 */
export const parseValues = (
  query: QueryValues,
  name: string,
  options: { readonly allowed?: ReadonlyArray<string>; readonly max?: number } = {}
): Result.Result<Filter | undefined, ValidationFailed> => {
  const values = valuesOf(query, name)
  if (values.length === 0) return Result.succeed(undefined)
  const errors: Array<FieldError> = []
  const allowed = options.allowed
  if (allowed !== undefined) {
    const bad = values.filter((v) => !allowed.includes(v))
    if (bad.length > 0) errors.push(queryError(name, `must be one of ${allowed.join(", ")}`))
  }
  if (options.max !== undefined && values.length > options.max) {
    errors.push(queryError(name, `must have at most ${options.max} values`))
  }
  if (errors.length > 0) return Result.fail(validationFailed(errors))
  const first = values[0]
  return Result.succeed(values.length === 1 && first !== undefined ? { op: "eq", value: first } : { op: "in", values })
}

/** Runs several parsers and gathers every field error, not only the first. */
export const collect = <T extends Record<string, Result.Result<unknown, ValidationFailed>>>(
  parts: T
): Result.Result<{ readonly [K in keyof T]: T[K] extends Result.Result<infer A, ValidationFailed> ? A : never }, ValidationFailed> => {
  const errors: Array<FieldError> = []
  const out: Record<string, unknown> = {}
  for (const [key, result] of Object.entries(parts)) {
    if (Result.isFailure(result)) errors.push(...result.failure.errors)
    else out[key] = result.success
  }
  return errors.length > 0
    ? Result.fail(validationFailed(errors))
    : Result.succeed(out as { readonly [K in keyof T]: T[K] extends Result.Result<infer A, ValidationFailed> ? A : never })
}

/** The `meta` of every list response. */
export const listMeta = (page: { readonly before: string | null; readonly after: string | null }, limit: number) => ({
  cursors: { before: page.before, after: page.after },
  limit
})
