import { addMonths, type LocalDate, type MandateScheme } from "@paykit/core"

/**
 * Dormant mandates expire. Bacs rule: a Direct Debit Instruction not used to collect for 13
 * months is cancelled by the payer's bank, so a mandate with no payment for that long expires.
 * Not a limit of the API spec (which does not state it), hence kept here rather than in
 * `@paykit/core`'s limits.
 */
export const BACS_DORMANCY_MONTHS = 13

/** The schemes whose mandates expire for dormancy here (only Bacs states such a rule). */
export const DORMANCY_SCHEMES: ReadonlyArray<MandateScheme> = ["bacs"]

/**
 * The day a mandate expires when nothing is collected on it: `BACS_DORMANCY_MONTHS` calendar
 * months after `lastUse` (its last payment's charge date, or the day it was created when it has
 * none), the month's end when the day does not exist (31 January -> end of February).
 */
export const dormancyExpiryDate = (lastUse: LocalDate): LocalDate => addMonths(lastUse, BACS_DORMANCY_MONTHS)

/** Whether a mandate last used on `lastUse` is dormant on `today`. */
export const isDormant = (scheme: MandateScheme, lastUse: LocalDate, today: LocalDate): boolean =>
  DORMANCY_SCHEMES.includes(scheme) && today >= dormancyExpiryDate(lastUse)
