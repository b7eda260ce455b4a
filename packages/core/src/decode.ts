import { Effect, Result, Schema } from "effect"
import { type ValidationFailed, fromSchemaIssue } from "./errors.ts"

/**
 * Decodes untrusted input with a Schema, reporting every failing field (not just the first) as
 * one `ValidationFailed` whose pointers sit below `root`, the resource key of the request body.
 */
export const decodeInput = <S extends Schema.Decoder<unknown>>(schema: S, root: string) => {
  const decode = Schema.decodeUnknownResult(schema)
  return (input: unknown): Result.Result<S["Type"], ValidationFailed> =>
    Result.mapError(decode(input, { errors: "all" }), (e) => fromSchemaIssue(root, e.issue))
}

/** `decodeInput` as an Effect. */
export const decodeInputEffect = <S extends Schema.Decoder<unknown>>(schema: S, root: string) => {
  const decode = decodeInput(schema, root)
  return (input: unknown): Effect.Effect<S["Type"], ValidationFailed> => Effect.fromResult(decode(input))
}
