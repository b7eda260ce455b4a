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

/**
 * The objects decoded here, each with the Schema that decoded it: an operation handed one of them
 * (the HTTP layer decodes a body, then calls the engine) takes it as it is, not decoding it twice.
 * Weak, so a decoded command lives no longer than its holder keeps it.
 */
const decodedBy = new WeakMap<object, Schema.Top>()

const decodeWith = <S extends Schema.Decoder<unknown>>(schema: S, root: string, longText: LongTextFields | undefined, onExcessProperty: "ignore" | "error") => {
  const decode = Schema.decodeUnknownResult(schema)
  return (input: unknown): Result.Result<S["Type"], ValidationFailed> => {
    const unstorable = unstorableText(root, input, longText)
    if (unstorable.length > 0) return Result.fail(validationFailed(unstorable))
    const decoded = Result.mapError(decode(input, { errors: "all", onExcessProperty }), (e) => fromSchemaIssue(root, e.issue))
    if (Result.isSuccess(decoded) && typeof decoded.success === "object" && decoded.success !== null) decodedBy.set(decoded.success, schema)
    return decoded
  }
}

/**
 * An operation's boundary: it takes its command as the API's plain value (`S["Encoded"]`, what a
 * request body holds under `root`) and decodes it as the API decodes a body (`decodeRequestEffect`,
 * unknown fields refused), failing with the same `ValidationFailed`. A command already decoded
 * with `schema` by this module (by the HTTP layer, or by an embedder's `decodeCommand`) is taken as
 * it is: a decoded command's Type is also a plain value, so both kinds of caller are served.
 */
export const decodeAtBoundary = <S extends Schema.Decoder<unknown>>(schema: S, root: string, longText?: LongTextFields) => {
  const decode = decodeWith(schema, root, longText, "error")
  return (input: S["Encoded"]): Effect.Effect<S["Type"], ValidationFailed> =>
    decodedWith(schema, input) ? Effect.succeed(input) : Effect.fromResult(decode(input))
}

/** `decodeAtBoundary` for an action whose command may be left out (its fields are all optional). */
export const decodeOptionalAtBoundary = <S extends Schema.Decoder<unknown>>(schema: S, root: string) => {
  const decode = decodeAtBoundary(schema, root)
  return (input: S["Encoded"] | undefined): Effect.Effect<S["Type"] | undefined, ValidationFailed> =>
    input === undefined ? Effect.succeed(undefined) : decode(input)
}

const decodedWith = <S extends Schema.Decoder<unknown>>(schema: S, value: unknown): value is S["Type"] =>
  typeof value === "object" && value !== null && decodedBy.get(value) === schema

/** `decodeInput` as an Effect. */
export const decodeInputEffect = <S extends Schema.Decoder<unknown>>(schema: S, root: string, longText?: LongTextFields) => {
  const decode = decodeInput(schema, root, longText)
  return (input: unknown): Effect.Effect<S["Type"], ValidationFailed> => Effect.fromResult(decode(input))
}
