import { Effect } from "effect"
import { addMonths, type LocalDate, type MandateScheme, unsafeLocalDate } from "@paykit/core"
import { save } from "../kernel/support.ts"
import type { Mandate } from "./domain/mandates.ts"
import type { MandateDormancyRepository } from "./repositories.ts"

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

/** A new mandate of a scheme that lapses is watched from the day it was made. */
export const watchMandate = (dormancy: MandateDormancyRepository["Service"], organisation: string, mandate: Mandate) =>
  DORMANCY_SCHEMES.includes(mandate.scheme)
    ? Effect.asVoid(Effect.orDie(dormancy.insert(organisation, {
      id: mandate.id,
      created_at: mandate.created_at,
      last_use: unsafeLocalDate(mandate.created_at.slice(0, 10)),
      watching: true
    })))
    : Effect.void

/** A reinstated mandate is watched again (it lapses at once if its last use is long past). */
export const watchAgain = (dormancy: MandateDormancyRepository["Service"], organisation: string, mandateId: string) =>
  Effect.gen(function*() {
    const found = yield* Effect.option(dormancy.get(organisation, mandateId))
    if (found._tag === "Some" && !found.value.resource.watching) yield* save(dormancy, organisation, found.value, { ...found.value.resource, watching: true })
  })
