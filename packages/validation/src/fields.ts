import { Schema } from "effect"
import { DESCRIPTION_MAX_LENGTH, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from "@paykit/core"

/** Field schemas shared by several requests. */

/** A field that may be absent or `null` (the spec's "string or null" request fields). */
export const optionalNullable = <S extends Schema.Top>(schema: S) => Schema.optionalKey(Schema.NullOr(schema))

/** A JSON integer (no string form) that is a safe integer greater than zero. */
export const PositiveInteger = Schema.Number.check(
  Schema.makeFilter((n: number) => Number.isSafeInteger(n) && n > 0, {
    expected: "a positive integer",
    message: "must be a whole number greater than 0"
  })
).annotate({ identifier: "PositiveInteger" })

/** Core's `PositiveAmount`, here too because request schemas reach for their fields here. */
export { PositiveAmount } from "@paykit/core"

/** Text that is not blank once surrounding whitespace is ignored. */
export const NonBlankString = Schema.String.check(
  Schema.makeFilter((s: string) => s.trim().length > 0, { expected: "a non-blank string", message: "must not be blank" })
).annotate({ identifier: "NonBlankString" })

/** At most `max` characters (UTF-16 code units, as the spec's limits count). */
export const stringUpTo = (max: number) =>
  Schema.String.check(Schema.makeFilter((s: string) => s.length <= max, { message: `must be at most ${max} characters` }))

/** `#RGB` or `#RRGGBB`, either case. */
export const HEX_COLOUR_PATTERN = /^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$/

export const HexColour = Schema.String.check(
  Schema.makeFilter((s: string) => HEX_COLOUR_PATTERN.test(s), {
    expected: "a hex colour",
    message: "must be a hex colour of the form #RGB or #RRGGBB"
  })
).annotate({ identifier: "HexColour" })

/** Text that is not blank and has at most `max` characters. */
export const nonBlankUpTo = (max: number) =>
  NonBlankString.check(Schema.makeFilter((s: string) => s.length <= max, { message: `must be at most ${max} characters` }))

/** A person's, company's or account holder's name: not blank, at most `NAME_MAX_LENGTH`. */
export const Name = nonBlankUpTo(NAME_MAX_LENGTH)

/** A name that may be left out or null (customers give either a person's names or a company's). */
export const OptionalName = stringUpTo(NAME_MAX_LENGTH)

/** A free-text description: at most `DESCRIPTION_MAX_LENGTH`. */
export const Description = stringUpTo(DESCRIPTION_MAX_LENGTH)

/** An email address: something@somewhere, at most `EMAIL_MAX_LENGTH`. */
export const Email = Schema.String.check(
  Schema.makeFilter((s: string) => s.length <= EMAIL_MAX_LENGTH && /^[^@\s]+@[^@\s]+$/.test(s), {
    message: `must be an email address of at most ${EMAIL_MAX_LENGTH} characters`
  })
)
