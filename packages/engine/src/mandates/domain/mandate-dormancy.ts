import { Schema } from "effect"
import { ID_PREFIXES, LocalDate } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id } from "../../kernel/fields.ts"
import { dormancyExpiryDate } from "../mandate-dormancy.ts"

/**
 * The engine's side record of a mandate that can fall dormant (not an API resource): the day it
 * was last used (its latest charge date of a payment not cancelled, else its creation), kept as
 * payments are made and moved, so the daily run finds the mandates whose dormancy falls due by
 * that day (`due_on`) instead of searching every mandate's payments. Keyed by the mandate's id.
 */
export const MandateDormancy = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  last_use: LocalDate,
  /** False once the mandate expired or ended otherwise; a reinstatement watches it again. */
  watching: Schema.Boolean
})
export type MandateDormancy = typeof MandateDormancy.Type

export const mandateDormancies = defineResource({
  name: "mandate_dormancies",
  idPrefix: ID_PREFIXES.mandate,
  schema: MandateDormancy,
  filters: {
    created_at: (r: MandateDormancy) => r.created_at,
    // The day it falls dormant; none while not watched, so it leaves the due index.
    due_on: (r: MandateDormancy) => r.watching ? dormancyExpiryDate(r.last_use) : null
  }
})
