import { Schema } from "effect"
import { CountryCode, decodeInput, IdOf, InputDate, LocalDate } from "@paykit/core"
import { NonBlankString } from "./fields.ts"
import { issue, perValue, type Rule, withRules } from "./rules.ts"

/** POST /verification_details, under `verification_details`. */
export const VERIFICATION_DETAILS = "verification_details"

export const VerificationDetailDirector = Schema.Struct({
  given_name: NonBlankString,
  family_name: NonBlankString,
  date_of_birth: InputDate,
  street: NonBlankString,
  city: NonBlankString,
  postal_code: NonBlankString,
  country_code: CountryCode
}).annotate({ identifier: "VerificationDetailDirector" })
export type VerificationDetailDirector = typeof VerificationDetailDirector.Type

/** `region` and `country_code` are response-only and not read from a request. */
export const VerificationDetailCreateFields = Schema.Struct({
  name: NonBlankString,
  company_number: NonBlankString,
  description: NonBlankString,
  address_line1: NonBlankString,
  address_line2: Schema.optionalKey(Schema.String),
  address_line3: Schema.optionalKey(Schema.String),
  city: NonBlankString,
  postal_code: NonBlankString,
  // A company is verified through the people who run it: at least one director.
  directors: Schema.Array(VerificationDetailDirector).check(
    Schema.makeFilter((ds: ReadonlyArray<unknown>) => ds.length > 0, { message: "must hold at least one director" })
  ),
  links: Schema.Struct({ creditor: IdOf("creditor") })
}).annotate({ identifier: "VerificationDetailCreate" })
export type VerificationDetailCreate = typeof VerificationDetailCreateFields.Type

/** A director must have been born before `today`. */
export const directorBirthDateRule = (today: LocalDate): Rule<VerificationDetailCreate> => (v) =>
  v.directors.flatMap((d, i) =>
    d.date_of_birth >= today ? [issue(["directors", i, "date_of_birth"], `must be before today (${today})`)] : []
  )

const createValidator = perValue((today: LocalDate) =>
  decodeInput(withRules(VerificationDetailCreateFields, [directorBirthDateRule(today)]), VERIFICATION_DETAILS))
export const validateVerificationDetailCreate = (input: unknown, today: LocalDate) => createValidator(today)(input)
