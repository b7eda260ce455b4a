import { Effect, Result, Schema } from "effect"
import { type ValidationFailed, fromSchemaIssue, validationFailed } from "./errors.ts"
import { type LongTextFields, unstorableText } from "./input-text.ts"

/**
 * Decodes untrusted input with a Schema, reporting every failing field (not just the first) as
 * one `ValidationFailed` whose pointers sit below `root`, the resource key of the request body.
 * Text the store cannot hold (NUL, unpaired surrogates, over-long strings, too-deep nesting) is
 * refused first, wherever it is, whether the Schema reads that field or not.
 */
export const decodeInput = <S extends Schema.Decoder<unknown>>(schema: S, root: string, longText?: LongTextFields) =>
  decodeWith(schema, root, longText, "ignore")

/**
 * What a request body the API was sent decodes to: as `decodeInput`, and a field the Schema does
 * not declare (`chrage_date` for `charge_date`) is refused, one error item per unknown field,
 * rather than dropped: a typo must fail in the sandbox, not pass unseen.
 */
export const decodeRequestEffect = <S extends Schema.Decoder<unknown>>(schema: S, root: string, longText?: LongTextFields) => {
  const decode = decodeWith(schema, root, longText, "error")
  return (input: unknown): Effect.Effect<S["Type"], ValidationFailed> => Effect.fromResult(decode(input))
}

const decodeWith = <S extends Schema.Decoder<unknown>>(schema: S, root: string, longText: LongTextFields | undefined, onExcessProperty: "ignore" | "error") => {
  const decode = Schema.decodeUnknownResult(schema)
  return (input: unknown): Result.Result<S["Type"], ValidationFailed> => {
    const unstorable = unstorableText(root, input, longText)
    if (unstorable.length > 0) return Result.fail(validationFailed(unstorable))
    return Result.mapError(decode(input, { errors: "all", onExcessProperty }), (e) => fromSchemaIssue(root, e.issue))
  }
}

/** `decodeInput` as an Effect. */
export const decodeInputEffect = <S extends Schema.Decoder<unknown>>(schema: S, root: string, longText?: LongTextFields) => {
  const decode = decodeInput(schema, root, longText)
  return (input: unknown): Effect.Effect<S["Type"], ValidationFailed> => Effect.fromResult(decode(input))
}
