import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"

/**
 * Wire shapes shared by every endpoint: the error body, list `meta`, and the envelopes that wrap
 * a resource in its key. The OpenAPI document is derived from these and the engine's resource
 * Schemas.
 */

export const ErrorItem = Schema.Struct({
  reason: Schema.String,
  message: Schema.String,
  field: Schema.optionalKey(Schema.String),
  request_pointer: Schema.optionalKey(Schema.String),
  links: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  metadata: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})

export const ErrorBody = Schema.Struct({
  error: Schema.Struct({
    code: Schema.Int,
    type: Schema.Literals(["validation_failed", "invalid_state", "invalid_api_usage", "gocardless"]),
    message: Schema.String,
    errors: Schema.Array(ErrorItem),
    documentation_url: Schema.String,
    request_id: Schema.String
  })
}).annotate({ identifier: "Error" })

/** The error body at each status the API answers with, so OpenAPI lists every 4xx. */
export const ERROR_RESPONSES = [
  ErrorBody.pipe(HttpApiSchema.status(400)),
  ErrorBody.pipe(HttpApiSchema.status(401)),
  ErrorBody.pipe(HttpApiSchema.status(403)),
  ErrorBody.pipe(HttpApiSchema.status(404)),
  ErrorBody.pipe(HttpApiSchema.status(409)),
  ErrorBody.pipe(HttpApiSchema.status(422)),
  ErrorBody.pipe(HttpApiSchema.status(429))
] as const

export const ListMeta = Schema.Struct({
  cursors: Schema.Struct({ before: Schema.NullOr(Schema.String), after: Schema.NullOr(Schema.String) }),
  limit: Schema.Int
})

/** `{<key>: resource}`: a single resource in its envelope. */
export const single = <K extends string, S extends Schema.Top>(key: K, schema: S) => Schema.Struct({ [key]: schema } as { [P in K]: S })

/** `{<key>: [resource], meta}`: a page of a list. */
export const page = <K extends string, S extends Schema.Top>(key: K, schema: S) =>
  Schema.Struct({ [key]: Schema.Array(schema), meta: ListMeta } as { [P in K]: Schema.$Array<S> } & { meta: typeof ListMeta })
