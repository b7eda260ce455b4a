import { type FieldError, fieldError } from "./errors.ts"
import { INPUT_MAX_DEPTH, STRING_MAX_LENGTH } from "./limits.ts"

/**
 * What the store can hold, checked on the whole input before any Schema sees it: no string (value
 * or key) with a NUL (PostgreSQL refuses 0x00 in text) or an unpaired UTF-16 surrogate (no UTF-8
 * encoding exists for it), none longer than `STRING_MAX_LENGTH`, and no nesting deeper than
 * `INPUT_MAX_DEPTH`. Every input is decoded through `decodeInput`, so this is the one place.
 */

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Whether `s` can be stored as text: no NUL and no unpaired surrogate. */
export const isStorableText = (s: string): boolean => !UNSTORABLE.test(s)

export const UNSTORABLE_TEXT_MESSAGE = "must not contain NUL characters or unpaired surrogates"
export const UNSTORABLE_KEY_MESSAGE = "has a field name that contains NUL characters or unpaired surrogates"
export const TOO_LONG_KEY_MESSAGE = `has a field name longer than ${STRING_MAX_LENGTH} characters`
export const TOO_DEEP_MESSAGE = `is nested too deeply (at most ${INPUT_MAX_DEPTH} levels)`
export const tooLongMessage = (max: number): string => `must be at most ${max} characters`

const textProblem = (s: string, max: number): string | undefined =>
  !isStorableText(s) ? UNSTORABLE_TEXT_MESSAGE : s.length > max ? tooLongMessage(max) : undefined

/**
 * Fields allowed more than `STRING_MAX_LENGTH` characters, by their dotted name (`image`, the
 * base64 of a logo): each with its own, documented, maximum.
 */
export type LongTextFields = Readonly<Record<string, number>>

const keyProblem = (key: string): string | undefined =>
  !isStorableText(key) ? UNSTORABLE_KEY_MESSAGE : key.length > STRING_MAX_LENGTH ? TOO_LONG_KEY_MESSAGE : undefined

interface Pending {
  readonly value: unknown
  readonly path: ReadonlyArray<PropertyKey>
}

/**
 * Every place in `input` the store could not hold, as field errors below `root`. Iterative, so a
 * deeply nested document cannot exhaust the stack; a too-deep value is reported once and not
 * entered.
 */
export const unstorableText = (root: string, input: unknown, longText: LongTextFields = {}): ReadonlyArray<FieldError> => {
  const errors: Array<FieldError> = []
  const stack: Array<Pending> = [{ value: input, path: [] }]
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value, path } = next
    if (typeof value === "string") {
      const problem = textProblem(value, (path.length > 0 ? longText[path.join(".")] : undefined) ?? STRING_MAX_LENGTH)
      if (problem !== undefined) errors.push(fieldError(root, path, problem))
    } else if (typeof value === "object" && value !== null) {
      if (path.length >= INPUT_MAX_DEPTH) {
        errors.push(fieldError(root, path, TOO_DEEP_MESSAGE))
        continue
      }
      const entries: ReadonlyArray<readonly [PropertyKey, unknown]> = Array.isArray(value)
        ? value.map((v: unknown, i) => [i, v] as const)
        : Object.entries(value)
      for (const [key, child] of entries) {
        const problem = typeof key === "string" ? keyProblem(key) : undefined
        if (problem !== undefined) errors.push(fieldError(root, path, problem))
        else stack.push({ value: child, path: [...path, key] })
      }
    }
  }
  return errors
}
