import { Effect, type Schema } from "effect"
import { decodeRequestEffect, invalidField, type LongTextFields, type PaykitError, type OrganisationId } from "@paykit/core"
import { type ApiHandler, type ApiRequest, idParamOf } from "./api-request.ts"
import { type ApiResponse, created, jsonResponse, ok } from "./api-response.ts"
import type { CallerShape } from "./request-context.ts"

/**
 * Creating, updating and action endpoints. The body is read raw (the gateway has already checked
 * its content type and JSON syntax), unwrapped from its envelope and decoded here, at the edge,
 * with the request Schema the engine declares for it (`REQUEST_BODIES`) under the envelope's key,
 * so field errors carry the engine's messages and pointers and the operation gets a typed command.
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

/** A check of the raw body that only the HTTP layer can make (app fees), run before it is decoded. */
export type BodyGuard = (input: unknown, caller: CallerShape) => Effect.Effect<void, PaykitError>

export interface BodyOptions {
  /** Refusals that come before decoding, so they answer first as they always have. */
  readonly guard?: BodyGuard
  /** A `null` body stands for an empty one (the actions whose attributes are all optional). */
  readonly nullIsEmpty?: boolean
  /** The attributes may also come under `data`, or not at all (actions, `/outbound_payments/withdrawal`). */
  readonly allowData?: boolean
  /** Fields allowed past the default string length, each with its own maximum (a logo's base64 `image`). */
  readonly longText?: LongTextFields
}

export type Create<C, A> = (organisation: OrganisationId, command: C, caller: CallerShape) => Effect.Effect<A, PaykitError>
export type Change<C, A> = (organisation: OrganisationId, id: string, command: C, caller: CallerShape) => Effect.Effect<A, PaykitError>

/** The typed command of a request: the unwrapped body, guarded, then decoded with `schema` under `key`. */
const commandOf = <S extends Schema.Decoder<unknown>>(key: string, schema: S, options: BodyOptions) => {
  const decode = decodeRequestEffect(schema, key, options.longText)
  const guard = options.guard
  return (request: ApiRequest, caller: CallerShape): Effect.Effect<S["Type"], PaykitError> =>
    Effect.flatMap(unwrap(request, key, options), (raw) => {
      const input = options.nullIsEmpty === true && raw === null ? {} : raw
      return guard === undefined ? decode(input) : Effect.andThen(guard(input, caller), decode(input))
    })
}

/** A POST without a path id: the command is run and `answer` makes the response of its result. */
const postingHandler = <S extends Schema.Decoder<unknown>, A>(
  key: string,
  schema: S,
  run: Create<S["Type"], A>,
  answer: (key: string, result: A) => ApiResponse,
  options: BodyOptions
): ApiHandler => {
  const command = commandOf(key, schema, options)
  return (request, caller) =>
    Effect.flatMap(command(request, caller), (input) => Effect.map(run(caller.organisation, input, caller), (result) => answer(key, result)))
}

/** `POST /<key>`: 201 with `Location`. */
export const createHandler = <S extends Schema.Decoder<unknown>, A extends { readonly id: string }>(
  key: string,
  schema: S,
  create: Create<S["Type"], A>,
  options: BodyOptions = {}
): ApiHandler => postingHandler(key, schema, create, created, options)

/**
 * A creation of something with no resource path of its own (payer themes, a billing request with
 * its actions): 201 without `Location`; `createdIdOf` names the resource it made, which a reused
 * idempotency key then names in its conflict.
 */
export const createdWithoutLocation = <S extends Schema.Decoder<unknown>, A>(
  key: string,
  schema: S,
  create: Create<S["Type"], A>,
  createdIdOf?: (result: A) => string,
  options: BodyOptions = {}
): ApiHandler =>
  postingHandler(key, schema, create, (k, result) => {
    const response = jsonResponse(201, { [k]: result })
    return createdIdOf === undefined ? response : { ...response, resourceId: createdIdOf(result) }
  }, options)

/** A POST that computes an answer and stores nothing (`/bank_details_lookups`): 200. */
export const postHandler = <S extends Schema.Decoder<unknown>, A>(key: string, schema: S, run: Create<S["Type"], A>): ApiHandler =>
  postingHandler(key, schema, run, (k, answer) => ok({ [k]: answer }), {})

/** A malformed path id is a 404 before the body is looked at, as an unknown one would be. */
export const updateHandler = <S extends Schema.Decoder<unknown>, A>(
  key: string,
  schema: S,
  update: Change<S["Type"], A>,
  options: BodyOptions = {}
): ApiHandler => {
  const command = commandOf(key, schema, options)
  return (request, caller) =>
    Effect.flatMap(idParamOf(request), (id) =>
      Effect.flatMap(command(request, caller), (input) =>
        Effect.map(update(caller.organisation, id, input, caller), (resource) => ok({ [key]: resource }))))
}

/** `POST /<key>/:id/actions/<name>` with a body (under `key` or `data`, or none). */
export const actionHandler = <S extends Schema.Decoder<unknown>, A>(
  key: string,
  schema: S,
  act: Change<S["Type"], A>,
  options: BodyOptions = {}
): ApiHandler => updateHandler(key, schema, act, { ...options, allowData: true })

/** `POST /<key>/:id/actions/<name>` that takes no attributes: the envelope is still checked, its content ignored. */
export const bodilessActionHandler = <A>(key: string, act: (organisation: OrganisationId, id: string) => Effect.Effect<A, PaykitError>): ApiHandler =>
(request, caller) =>
  Effect.flatMap(idParamOf(request), (id) =>
    Effect.flatMap(unwrap(request, key, { allowData: true }), () => Effect.map(act(caller.organisation, id), (resource) => ok({ [key]: resource }))))
