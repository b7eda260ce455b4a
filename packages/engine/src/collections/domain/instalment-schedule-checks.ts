import { Schema } from "effect"
import { ID_PREFIXES, LocalDate } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id } from "../../kernel/fields.ts"

/**
 * The engine's side record of an instalment schedule one of whose payments has moved (not an API
 * resource): keyed by the schedule's id, `due_on` the day a payment moved, null once the daily run
 * has followed the schedule. The daily run reads only the records due, so a schedule whose
 * payments stand still is never read (work follows what is due, not what is stored).
 */
export const InstalmentScheduleCheck = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  due_on: Schema.NullOr(LocalDate)
})
export type InstalmentScheduleCheck = typeof InstalmentScheduleCheck.Type

export const instalmentScheduleChecks = defineResource({
  name: "instalment_schedule_checks",
  idPrefix: ID_PREFIXES.instalment_schedule,
  schema: InstalmentScheduleCheck,
  filters: {
    created_at: (r: InstalmentScheduleCheck) => r.created_at,
    // Null once followed: the record leaves the due index (the key `payment_reversals` indexed).
    due_on: (r: InstalmentScheduleCheck) => r.due_on
  }
})
