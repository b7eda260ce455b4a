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

/** Any NUL or surrogate: most text has neither, and this scan is cheaper than `UNSTORABLE`'s. */
const SUSPECT = /[\u0000\uD800-\uDFFF]/

/** Whether `s` can be stored as text: no NUL and no unpaired surrogate. */
export const isStorableText = (s: string): boolean => !SUSPECT.test(s) || !UNSTORABLE.test(s)

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

/**
 * Every place in `input` the store could not hold, as field errors below `root`. Recursion stops
 * at `INPUT_MAX_DEPTH` (a too-deep value is reported once and not entered), so a deeply nested
 * document cannot exhaust the stack; one path is kept and copied only for an error, as nearly
 * every input has none.
 */
export const unstorableText = (root: string, input: unknown, longText: LongTextFields = {}): ReadonlyArray<FieldError> => {
  const errors: Array<FieldError> = []
  const path: Array<PropertyKey> = []
  const anyLong = Object.keys(longText).length > 0
  const visit = (value: unknown): void => {
    if (typeof value === "string") {
      const problem = textProblem(value, (anyLong ? longText[path.join(".")] : undefined) ?? STRING_MAX_LENGTH)
      if (problem !== undefined) errors.push(fieldError(root, [...path], problem))
    } else if (typeof value === "object" && value !== null) {
      if (path.length >= INPUT_MAX_DEPTH) {
        errors.push(fieldError(root, [...path], TOO_DEEP_MESSAGE))
      } else if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          path.push(i)
          visit(value[i])
          path.pop()
        }
      } else {
        for (const key in value) {
          if (!Object.hasOwn(value, key)) continue
          const problem = keyProblem(key)
          if (problem !== undefined) {
            errors.push(fieldError(root, [...path], problem))
            continue
          }
          path.push(key)
          visit((value as Record<string, unknown>)[key])
          path.pop()
        }
      }
    }
  }
  visit(input)
  return errors
}
