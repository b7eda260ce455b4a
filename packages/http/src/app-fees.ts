import { Effect } from "effect"
import { fieldError, type PaykitError, validationFailed } from "@paykit/core"
import type { CallerShape } from "./request-context.ts"

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

const refusal = (root: string, paths: ReadonlyArray<Path>, input: unknown, caller: CallerShape): Effect.Effect<void, PaykitError> => {
  const fees = caller.app === null ? appFeesIn(input, paths) : []
  return fees.length === 0 ? Effect.void : Effect.fail(validationFailed(fees.map((path) => fieldError(root, path, APP_FEE_FROM_NON_APP))))
}

/** A creation, refused with 422 when the caller is not an app and the body names an `app_fee` at one of `paths`. */
export const createAppFeeOnlyForApps = <A>(
  root: string,
  paths: ReadonlyArray<Path>,
  create: (organisation: string, input: unknown) => Effect.Effect<A, PaykitError>
) =>
(organisation: string, input: unknown, caller: CallerShape): Effect.Effect<A, PaykitError> =>
  Effect.andThen(refusal(root, paths, input, caller), create(organisation, input))

/** An update of `id`, refused as `createAppFeeOnlyForApps` refuses a creation. */
export const updateAppFeeOnlyForApps = <A>(
  root: string,
  paths: ReadonlyArray<Path>,
  update: (organisation: string, id: string, input: unknown) => Effect.Effect<A, PaykitError>
) =>
(organisation: string, id: string, input: unknown, caller: CallerShape): Effect.Effect<A, PaykitError> =>
  Effect.andThen(refusal(root, paths, input, caller), update(organisation, id, input))
