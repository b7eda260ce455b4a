import { Schema } from "effect"
import { InputDate, type MandateScheme } from "@paykit/core"
import { optionalNullable, PositiveInteger } from "./fields.ts"
import { ALIGNMENTS, PERIODS } from "./first-period.ts"
import { type RuleIssue, issue } from "./rules.ts"

/** Billing request `mandate_request.constraints` and its periodic limits. */

export const PeriodicLimit = Schema.Struct({
  period: Schema.optionalKey(Schema.Literals(PERIODS)),
  max_total_amount: optionalNullable(PositiveInteger),
  max_payments: optionalNullable(PositiveInteger),
  alignment: Schema.optionalKey(Schema.Literals(ALIGNMENTS))
}).annotate({ identifier: "PeriodicLimit" })
export type PeriodicLimit = typeof PeriodicLimit.Type

export const MandateConstraints = Schema.Struct({
  start_date: optionalNullable(InputDate),
  end_date: optionalNullable(InputDate),
  max_amount_per_payment: Schema.optionalKey(PositiveInteger),
  payment_method: Schema.optionalKey(Schema.String),
  periodic_limits: Schema.optionalKey(Schema.Array(PeriodicLimit))
}).annotate({ identifier: "MandateConstraints" })
export type MandateConstraints = typeof MandateConstraints.Type

/** Which family of constraint rules a mandate scheme falls under. */
export type ConstraintKind = "pay_to" | "vrp" | "other"

/** Variable recurring payments are Faster Payments mandates (which must say whether they sweep). */
export const constraintKindOf = (scheme: MandateScheme): ConstraintKind =>
  scheme === "pay_to" ? "pay_to" : scheme === "faster_payments" ? "vrp" : "other"

const PAYMENT_METHOD_SCHEMES: ReadonlyArray<MandateScheme> = ["ach", "pad"]

const periodicLimitIssues = (kind: ConstraintKind, limit: PeriodicLimit, index: number): ReadonlyArray<RuleIssue> => {
  const at = (field: string) => ["periodic_limits", index, field]
  const issues: Array<RuleIssue> = []
  if (limit.period === undefined) issues.push(issue(at("period"), "is required for every periodic limit"))
  const hasTotal = limit.max_total_amount !== undefined && limit.max_total_amount !== null
  const hasPayments = limit.max_payments !== undefined && limit.max_payments !== null
  if (kind === "vrp" && !hasTotal) issues.push(issue(at("max_total_amount"), "is required for VRP mandates"))
  if (kind === "pay_to" && hasTotal) issues.push(issue(at("max_total_amount"), "is not permitted for PayTo mandates"))
  if (kind !== "pay_to" && hasPayments) issues.push(issue(at("max_payments"), "is only supported for PayTo mandates"))
  return issues
}

/**
 * The constraint rules of a mandate on `scheme` (undefined when the payer will choose it, in
 * which case only the scheme-independent rules apply). Paths are relative to `constraints`; a
 * missing `constraints` object is checked as an empty one, so a PayTo or VRP request without it
 * is told which field it lacks.
 */
export const constraintIssues = (
  scheme: MandateScheme | undefined,
  constraints: MandateConstraints | null | undefined
): ReadonlyArray<RuleIssue> => {
  const c: MandateConstraints = constraints ?? {}
  const kind: ConstraintKind | undefined = scheme === undefined ? undefined : constraintKindOf(scheme)
  const issues: Array<RuleIssue> = []
  if (c.start_date !== undefined && c.start_date !== null && c.end_date !== undefined && c.end_date !== null && c.end_date <= c.start_date) {
    issues.push(issue(["end_date"], "must be after start_date"))
  }
  if ((kind === "pay_to" || kind === "vrp") && c.max_amount_per_payment === undefined) {
    issues.push(issue(["max_amount_per_payment"], "is required for PayTo and VRP mandates"))
  }
  if (c.payment_method !== undefined && scheme !== undefined && !PAYMENT_METHOD_SCHEMES.includes(scheme)) {
    issues.push(issue(["payment_method"], "is only supported for ACH and PAD mandates"))
  }
  const limits = c.periodic_limits
  if (kind === "vrp" && (limits === undefined || limits.length !== 1)) {
    issues.push(issue(["periodic_limits"], "must hold exactly one periodic limit for VRP mandates"))
  }
  if (limits !== undefined) {
    limits.forEach((limit, index) => {
      issues.push(...periodicLimitIssues(kind ?? "other", limit, index))
    })
  }
  return issues
}
