import { isIP } from "node:net"
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

/** Control characters (C0 and DEL): they would split a header, or draw nothing on a document. */
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/

/** One line of text, at most `max` characters, without control characters. */
export const plainTextUpTo = (max: number) =>
  stringUpTo(max).check(Schema.makeFilter((s: string) => !CONTROL_CHARACTER.test(s), { message: "must not contain control characters" }))

/** An IPv4 or IPv6 address, as Node reads one. */
export const IpAddress = Schema.String.check(
  Schema.makeFilter((s: string) => isIP(s) !== 0, { expected: "an IP address", message: "must be an IPv4 or IPv6 address" })
)

/** The digits an international phone number has at most (E.164) and a local one at least. */
const PHONE_DIGITS_MAX = 15
const PHONE_DIGITS_MIN = 5

/** A phone number as people write one: an optional `+`, then digits with spaces, dots, hyphens or brackets. */
export const PhoneNumber = Schema.String.check(
  Schema.makeFilter((s: string) => {
    const digits = s.replace(/\D/g, "").length
    return /^\+?[0-9 ().-]+$/.test(s) && digits >= PHONE_DIGITS_MIN && digits <= PHONE_DIGITS_MAX
  }, { message: `must be a phone number of ${PHONE_DIGITS_MIN} to ${PHONE_DIGITS_MAX} digits, with an optional leading +` })
)

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
