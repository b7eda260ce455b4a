import { Result } from "effect"
import type { ValidationFailed } from "@paykit/core"
import { expect } from "vitest"

/** The request pointers of a failed result; [] for a success. */
export const pointersOf = <A>(r: Result.Result<A, ValidationFailed>): ReadonlyArray<string> =>
  Result.isFailure(r) ? r.failure.errors.map((e) => e.request_pointer) : []

/** The error items of a failed result; [] for a success. */
export const errorsOf = <A>(r: Result.Result<A, ValidationFailed>) => (Result.isFailure(r) ? r.failure.errors : [])

export const expectSuccess = <A>(r: Result.Result<A, ValidationFailed>): A => {
  if (Result.isFailure(r)) expect.fail(`expected success, got ${JSON.stringify(r.failure.errors)}`)
  return r.success
}
