import { Effect } from "effect"
import { invalidField, type PaykitError } from "@paykit/core"
import { type ApiHandler, type ApiRequest, idParamOf } from "./api-request.ts"
import { created, jsonResponse, ok } from "./api-response.ts"
import type { CallerShape } from "./request-context.ts"

/**
 * Creating, updating and action endpoints. The body is read raw (the gateway has already checked
 * its content type and JSON syntax) and unwrapped from its envelope; the engine service decodes
 * the inner object with its own Schema, so field errors carry the engine's messages and pointers.
 * Each operation is also given the caller, for the rules only the HTTP layer can apply (app fees).
 */

/** The attributes of a body wrapped in `key`; actions also accept `data` (what the official client sends). */
export const unwrap = (request: ApiRequest, key: string, options: { readonly allowData?: boolean } = {}): Effect.Effect<unknown, PaykitError> => {
  const json = request.json
  if (json._tag !== "Parsed") {
    // `Invalid` never gets here: the gateway answers it with a 400.
    return options.allowData === true ? Effect.succeed({}) : Effect.fail(invalidField(key, [], "is required"))
  }
  const parsed = json.value
  if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
    const record = parsed as Record<string, unknown>
    if (key in record) return Effect.succeed(record[key])
    if (options.allowData === true) return Effect.succeed("data" in record ? record["data"] : {})
  }
  return Effect.fail(invalidField(key, [], `must be an object under the key \`${key}\``))
}

export type Create<A> = (organisation: string, input: unknown, caller: CallerShape) => Effect.Effect<A, PaykitError>
export type Change<A> = (organisation: string, id: string, input: unknown, caller: CallerShape) => Effect.Effect<A, PaykitError>

/** `POST /<key>`: 201 with `Location`. */
export const createHandler = <A extends { readonly id: string }>(key: string, create: Create<A>): ApiHandler => (request, caller) =>
  Effect.flatMap(unwrap(request, key), (input) => Effect.map(create(caller.organisation, input, caller), (resource) => created(key, resource)))

/** A creation of something with no resource path of its own (payer themes): 201 without `Location`. */
export const createdWithoutLocation = <A>(key: string, create: Create<A>): ApiHandler => (request, caller) =>
  Effect.flatMap(unwrap(request, key), (input) =>
    Effect.map(create(caller.organisation, input, caller), (resource) => jsonResponse(201, { [key]: resource })))

/** A creating POST at a path of its own, body under `data` (`/outbound_payments/withdrawal`): 201 with `Location`. */
export const createFromDataHandler = <A extends { readonly id: string }>(key: string, create: Create<A>): ApiHandler => (request, caller) =>
  Effect.flatMap(unwrap(request, key, { allowData: true }), (input) =>
    Effect.map(create(caller.organisation, input, caller), (resource) => created(key, resource)))

/** A POST that computes an answer and stores nothing (`/bank_details_lookups`): 200. */
export const postHandler = <A>(key: string, run: Create<A>): ApiHandler => (request, caller) =>
  Effect.flatMap(unwrap(request, key), (input) => Effect.map(run(caller.organisation, input, caller), (answer) => ok({ [key]: answer })))

/** A malformed path id is a 404 before the body is looked at, as an unknown one would be. */
export const updateHandler = <A>(key: string, update: Change<A>): ApiHandler => (request, caller) =>
  Effect.flatMap(idParamOf(request), (id) =>
    Effect.flatMap(unwrap(request, key), (input) =>
      Effect.map(update(caller.organisation, id, input, caller), (resource) => ok({ [key]: resource }))))

export const actionHandler = <A>(key: string, act: Change<A>): ApiHandler => (request, caller) =>
  Effect.flatMap(idParamOf(request), (id) =>
    Effect.flatMap(unwrap(request, key, { allowData: true }), (input) =>
      Effect.map(act(caller.organisation, id, input, caller), (resource) => ok({ [key]: resource }))))
