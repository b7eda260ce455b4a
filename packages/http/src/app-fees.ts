import { Effect } from "effect"
import { fieldError, validationFailed } from "@paykit/core"
import type { BodyGuard } from "./write-handlers.ts"

/**
 * `app_fee` is the partner app's cut (spec, "App fees": passed when creating a payment or
 * subscription through an access token of an app). Only the HTTP layer knows whether the caller
 * is an app, so a body that names a fee from any other token is refused here, before the engine,
 * with a 422 on each `app_fee` it carries. A `null` fee is no fee and passes.
 */

export const APP_FEE_FROM_NON_APP = "can only be given through a partner app's access token"

type Path = ReadonlyArray<string>

const valueAt = (input: unknown, path: Path): unknown => {
  let at: unknown = input
  for (const key of path) {
    if (typeof at !== "object" || at === null || Array.isArray(at)) return undefined
    at = (at as Record<string, unknown>)[key]
  }
  return at
}

/** The paths among `paths` where `input` carries an app fee (a value other than null). */
export const appFeesIn = (input: unknown, paths: ReadonlyArray<Path>): ReadonlyArray<Path> =>
  paths.filter((path) => {
    const value = valueAt(input, path)
    return value !== undefined && value !== null
  })

/** Where each body that may carry a fee carries it. */
export const APP_FEE_PATHS = {
  top: [["app_fee"]],
  billingRequest: [["payment_request", "app_fee"], ["subscription_request", "app_fee"]]
} as const satisfies Record<string, ReadonlyArray<Path>>

/** A body guard refusing, with 422, an `app_fee` at one of `paths` from a caller that is not an app. */
export const appFeeOnlyForApps = (root: string, paths: ReadonlyArray<Path>): BodyGuard => (input, caller) => {
  const fees = caller.app === null ? appFeesIn(input, paths) : []
  return fees.length === 0 ? Effect.void : Effect.fail(validationFailed(fees.map((path) => fieldError(root, path, APP_FEE_FROM_NON_APP))))
}
