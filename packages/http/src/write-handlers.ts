import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { invalidField, type PaykitError } from "@paykit/core"
import { Caller } from "./request-context.ts"
import { created, ok, respond } from "./respond.ts"

/**
 * Creating, updating and action endpoints. The body is read raw (the gateway has already checked
 * its content type and JSON syntax) and unwrapped from its envelope; the engine service decodes
 * the inner object with its own Schema, so field errors carry the engine's messages and pointers.
 */

/** The attributes of a body wrapped in `key`; actions also accept `data` (what the official client sends). */
export const unwrap = (text: string, key: string, options: { readonly allowData?: boolean } = {}): Effect.Effect<unknown, PaykitError> => {
  if (text.trim() === "") {
    return options.allowData === true ? Effect.succeed({}) : Effect.fail(invalidField(key, [], "is required"))
  }
  const parsed: unknown = JSON.parse(text)
  if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
    const record = parsed as Record<string, unknown>
    if (key in record) return Effect.succeed(record[key])
    if (options.allowData === true) return Effect.succeed("data" in record ? record["data"] : {})
  }
  return Effect.fail(invalidField(key, [], `must be an object under the key \`${key}\``))
}

const body = Effect.orDie(Effect.flatMap(HttpServerRequest.HttpServerRequest, (r) => r.text))

type Response<R> = Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | Caller | HttpServerRequest.HttpServerRequest>

const withBody = <R>(
  key: string,
  allowData: boolean,
  run: (organisation: string, input: unknown) => Effect.Effect<HttpServerResponse.HttpServerResponse, PaykitError, R>
): Response<R> =>
  respond(Effect.gen(function*() {
    const caller = yield* Caller
    const input = yield* Effect.flatMap(body, (text) => unwrap(text, key, { allowData }))
    return yield* run(caller.organisation, input)
  }))

/** `POST /<key>`: 201 with `Location`. */
export const createHandler = <A extends { readonly id: string }, R>(
  key: string,
  create: (organisation: string, input: unknown) => Effect.Effect<A, PaykitError, R>
) =>
(): Response<R> => withBody(key, false, (organisation, input) => Effect.map(create(organisation, input), (resource) => created(key, resource)))

/** A creation of something with no resource path of its own (payer themes): 201 without `Location`. */
export const createdWithoutLocation = <A, R>(
  key: string,
  create: (organisation: string, input: unknown) => Effect.Effect<A, PaykitError, R>
) =>
(): Response<R> =>
  withBody(key, false, (organisation, input) =>
    Effect.map(create(organisation, input), (resource) => HttpServerResponse.jsonUnsafe({ [key]: resource }, { status: 201 })))

/** A creating POST at a path of its own, body under `data` (`/outbound_payments/withdrawal`): 201 with `Location`. */
export const createFromDataHandler = <A extends { readonly id: string }, R>(
  key: string,
  create: (organisation: string, input: unknown) => Effect.Effect<A, PaykitError, R>
) =>
(): Response<R> => withBody(key, true, (organisation, input) => Effect.map(create(organisation, input), (resource) => created(key, resource)))

/** A POST that computes an answer and stores nothing (`/bank_details_lookups`): 200. */
export const postHandler = <A, R>(
  key: string,
  run: (organisation: string, input: unknown) => Effect.Effect<A, PaykitError, R>
) =>
(): Response<R> => withBody(key, false, (organisation, input) => Effect.map(run(organisation, input), (answer) => ok({ [key]: answer })))

export const updateHandler = <A, R>(
  key: string,
  update: (organisation: string, id: string, input: unknown) => Effect.Effect<A, PaykitError, R>
) =>
({ params }: { readonly params: { readonly id: string } }): Response<R> =>
  withBody(key, false, (organisation, input) => Effect.map(update(organisation, params.id, input), (resource) => ok({ [key]: resource })))

export const actionHandler = <A, R>(
  key: string,
  act: (organisation: string, id: string, input: unknown) => Effect.Effect<A, PaykitError, R>
) =>
({ params }: { readonly params: { readonly id: string } }): Response<R> =>
  withBody(key, true, (organisation, input) => Effect.map(act(organisation, params.id, input), (resource) => ok({ [key]: resource })))
