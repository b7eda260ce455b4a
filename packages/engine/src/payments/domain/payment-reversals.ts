import { Schema } from "effect"
import { ID_PREFIXES, LocalDate } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id } from "../../kernel/fields.ts"

/**
 * The engine's side record of a collected payment its bank will take back (not an API resource):
 * written when the collection is confirmed, from the bank's answer to it, with the day the late
 * failure or chargeback is reported (`due_on`). Keyed by the payment's id. The daily run reads the
 * records due by that day, so a collected payment is never looked at again unless one exists.
 */
export const PaymentReversal = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  outcome: Schema.Literals(["late_failure", "charged_back"]),
  cause: Schema.String,
  reason_code: Schema.String,
  description: Schema.String,
  due_on: LocalDate,
  /** Set once the daily run has acted on it (moved the payment, or found it moved otherwise). */
  done: Schema.Boolean
})
export type PaymentReversal = typeof PaymentReversal.Type

export const paymentReversals = defineResource({
  name: "payment_reversals",
  idPrefix: ID_PREFIXES.payment,
  schema: PaymentReversal,
  filters: {
    created_at: (r: PaymentReversal) => r.created_at,
    // Null once done: a done record leaves the due index (SQL keeps only rows that have a due date).
    due_on: (r: PaymentReversal) => r.done ? null : r.due_on
  }
})
