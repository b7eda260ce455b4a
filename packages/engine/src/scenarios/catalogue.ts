import type { MandateScheme } from "@paykit/core"
import type {
  CreditorVerificationEvent, CreditorVerificationStatus, MandateEvent, MandateStatus, PaymentStatus, PayoutStatus, RefundEvent, RefundStatus
} from "@paykit/machines"

/**
 * The scenario simulators as data: each scenario's name, the resource it takes, and the steps it
 * makes from each status it may start in (its paths). The scenarios' use cases run these paths;
 * the dashboard and the `paykit` command read the catalogue to say which scenarios apply to a
 * resource where it is. It imports nothing at run time (types only), so a tool that starts fast
 * loads it without effect or the engine: `@paykit/engine/scenario-catalogue`.
 */

/** The API resource key of the scenario simulators: the answer's, and the root of field errors. */
export const SCENARIO_SIMULATORS = "scenario_simulators"

/**
 * Where a scenario takes a resource: for each status it may start in, the steps from there. A
 * resource in any other status fails the precondition, naming the statuses it accepts.
 */
export type Paths<S extends string, Step> = Partial<Readonly<Record<S, ReadonlyArray<Step>>>>

/**
 * A payment's steps, each the move the daily run makes when the bank answers so: submitted (and
 * handed to the bank, whose reports may still take it back later);
 * confirmed and recorded for payout; failed before confirmation; paid out in a payout of its own
 * collection; failed late or charged back after collection (the reversal recorded); and the
 * reversal settled in a payout of the creditor's unsettled movements in its currency.
 */
export type PaymentStep = "submit" | "confirm" | "fail" | "pay_out" | "late_failure" | "charge_back" | "settle"

const COLLECTED: ReadonlyArray<PaymentStep> = ["submit", "confirm", "pay_out"]

/** GoCardless's payment scenarios: each starts from pending_submission (a reversal also from paid_out). */
export const PAYMENT_PATHS = {
  payment_submitted: { pending_submission: ["submit"] },
  payment_confirmed: { pending_submission: ["submit", "confirm"] },
  payment_paid_out: { pending_submission: COLLECTED },
  payment_failed: { pending_submission: ["submit", "fail"] },
  payment_charged_back: { pending_submission: [...COLLECTED, "charge_back"], paid_out: ["charge_back"] },
  payment_chargeback_settled: { pending_submission: [...COLLECTED, "charge_back", "settle"], paid_out: ["charge_back", "settle"] },
  payment_late_failure: { pending_submission: [...COLLECTED, "late_failure"], paid_out: ["late_failure"] },
  payment_late_failure_settled: { pending_submission: [...COLLECTED, "late_failure", "settle"], paid_out: ["late_failure", "settle"] }
} as const satisfies Record<string, Paths<PaymentStatus, PaymentStep>>

/** The mandate machine's moves the scenarios make. */
export type MandateStep = Extract<
  MandateEvent,
  "submit" | "activate" | "expire" | "customer_approval_granted" | "skip_customer_approval" | "fail" | "transfer" | "request_resubmission" | "suspend_by_payer"
>

export interface MandateScenarioPaths {
  readonly paths: Paths<MandateStatus, MandateStep>
  /** The schemes the scenario exists for; all when absent. */
  readonly schemes?: ReadonlyArray<MandateScheme>
}

/** To active, from where the bank does not have the mandate yet (a submitted mandate skips its submission). */
export const MANDATE_SUBMITTED_PATHS: Paths<MandateStatus, MandateStep> = { pending_submission: ["submit", "activate"], submitted: ["activate"] }
const then = (...events: ReadonlyArray<MandateStep>): Paths<MandateStatus, MandateStep> => ({
  pending_submission: ["submit", "activate", ...events],
  submitted: ["activate", ...events]
})

/** GoCardless's mandate scenarios, from where each may start. */
export const MANDATE_PATHS = {
  mandate_activated: { paths: MANDATE_SUBMITTED_PATHS },
  mandate_customer_approval_granted: { paths: { pending_customer_approval: ["customer_approval_granted"] }, schemes: ["bacs", "sepa_core"] },
  mandate_customer_approval_skipped: { paths: { pending_customer_approval: ["skip_customer_approval"] }, schemes: ["bacs", "sepa_core"] },
  mandate_failed: { paths: { pending_submission: ["submit", "fail"], submitted: ["fail"] } },
  mandate_expired: { paths: then("expire"), schemes: ["ach", "bacs", "becs", "betalingsservice", "sepa_core"] },
  mandate_transferred: { paths: then("transfer"), schemes: ["bacs"] },
  mandate_transferred_with_resubmission: { paths: then("transfer", "request_resubmission", "submit", "activate"), schemes: ["bacs"] },
  mandate_suspended_by_payer: { paths: { active: ["suspend_by_payer"] }, schemes: ["pay_to"] }
} as const satisfies Record<string, MandateScenarioPaths>

/** The daily run's own refund steps: queued, submitted, paid, one a day. */
export type RefundAdvance = Extract<RefundEvent, "queue" | "submit" | "pay">
/** The refund moves no daily run makes: the bank's answers after a refund is sent, and its settlement. */
export type RefundAnswer = Extract<RefundEvent, "settle" | "bounce" | "return_funds">
export type RefundStep = RefundAdvance | RefundAnswer

/** The steps from each status on the way to paid, then `events`. */
const toPaidThen = (...events: ReadonlyArray<RefundAnswer>): Paths<RefundStatus, RefundStep> => ({
  created: ["queue", "submit", "pay", ...events],
  pending_submission: ["submit", "pay", ...events],
  submitted: ["pay", ...events]
})

/** GoCardless's refund scenarios; a bounce happens from submitted, or after payment. */
export const REFUND_PATHS = {
  refund_paid: toPaidThen(),
  refund_settled: toPaidThen("settle"),
  refund_bounced: { created: ["queue", "submit", "bounce"], pending_submission: ["submit", "bounce"], submitted: ["bounce"], paid: ["bounce"] },
  refund_returned: { ...toPaidThen("return_funds"), paid: ["return_funds"] }
} as const satisfies Record<string, Paths<RefundStatus, RefundStep>>

/**
 * GoCardless's creditor verification scenarios set the status from any other: here each takes the
 * machine's shortest way there (a verified creditor goes back to review first, as when its payout
 * account changes). A creditor already in the status fails the precondition.
 */
export const CREDITOR_PATHS = {
  creditor_verification_status_action_required: { in_review: ["require_action"], successful: ["change_payout_account", "require_action"] },
  creditor_verification_status_in_review: { action_required: ["submit_details"], successful: ["change_payout_account"] },
  creditor_verification_status_successful: { in_review: ["approve"], action_required: ["submit_details", "approve"] }
} as const satisfies Record<string, Paths<CreditorVerificationStatus, CreditorVerificationEvent>>

/** `payout_bounced`: the creditor's bank returns the payout, paid or still pending. */
export const PAYOUT_BOUNCE_PATHS: Paths<PayoutStatus, "bounce"> = { paid: ["bounce"], pending: ["bounce"] }

/**
 * What becomes of the payment a billing request's fulfilment creates: nothing more, failed,
 * confirmed then failed, or paid out. A payment on a mandate starts pending submission; an
 * instant payment is confirmed when the payer's bank accepts it, so it fails (or is paid out)
 * from there. These are the payment's paths: the request itself is judged on more than its status.
 */
export const BILLING_REQUEST_PATHS = {
  billing_request_fulfilled: undefined,
  billing_request_fulfilled_and_payment_failed: { pending_submission: ["submit", "fail"], confirmed: ["late_failure"] },
  billing_request_fulfilled_and_payment_confirmed_to_failed: { pending_submission: ["submit", "confirm", "late_failure"], confirmed: ["late_failure"] },
  billing_request_fulfilled_and_payment_paid_out: { pending_submission: ["submit", "confirm", "pay_out"], confirmed: ["pay_out"] }
} as const satisfies Record<string, Paths<PaymentStatus, PaymentStep> | undefined>

/** The resources scenarios take, as the API names their collections. */
export type ScenarioCollection = "creditors" | "payments" | "mandates" | "refunds" | "payouts" | "billing_requests"

/** One scenario as data: the collection of the resource it takes, and where it starts. */
export interface ScenarioEntry {
  readonly collection: ScenarioCollection
  /**
   * The statuses the resource may be in for the scenario to start (its paths' keys; a creditor's
   * are its `verification_status`); absent where the scenario judges more than a status (a
   * creditor's balance, a billing request's parts).
   */
  readonly startsFrom?: ReadonlyArray<string>
  /** The mandate schemes it exists for; all when absent. */
  readonly schemes?: ReadonlyArray<string>
}

const entries = <K extends string>(
  collection: ScenarioCollection,
  table: Readonly<Record<K, object | undefined>>,
  paths: (value: object) => object = (value) => value
): Record<K, ScenarioEntry> => {
  const out: Partial<Record<K, ScenarioEntry>> = {}
  for (const key of Object.keys(table) as Array<K>) {
    const value = table[key]
    out[key] = value === undefined || collection === "billing_requests" ? { collection } : { collection, startsFrom: Object.keys(paths(value)) }
  }
  return out as Record<K, ScenarioEntry>
}

const mandates = (): Record<keyof typeof MANDATE_PATHS, ScenarioEntry> => {
  const out = entries("mandates", MANDATE_PATHS, (value) => (value as MandateScenarioPaths).paths)
  for (const [name, spec] of Object.entries(MANDATE_PATHS) as Array<[keyof typeof MANDATE_PATHS, MandateScenarioPaths]>) {
    if (spec.schemes !== undefined) out[name] = { ...out[name], schemes: spec.schemes }
  }
  return out
}

/** Every scenario by its GoCardless name, grouped as GoCardless lists them. */
export const SCENARIO_CATALOGUE = {
  ...entries("creditors", CREDITOR_PATHS),
  ...entries("payments", PAYMENT_PATHS),
  ...mandates(),
  ...entries("refunds", REFUND_PATHS),
  payout_bounced: { collection: "payouts", startsFrom: Object.keys(PAYOUT_BOUNCE_PATHS) },
  payout_create: { collection: "creditors" },
  ...entries("billing_requests", BILLING_REQUEST_PATHS)
} as const satisfies Readonly<Record<string, ScenarioEntry>>

export type ScenarioName = keyof typeof SCENARIO_CATALOGUE

/** The scenario names, in the catalogue's order. */
export const SCENARIO_NAMES: ReadonlyArray<ScenarioName> = Object.keys(SCENARIO_CATALOGUE) as Array<ScenarioName>

export const isScenarioName = (name: string): name is ScenarioName => Object.hasOwn(SCENARIO_CATALOGUE, name)

/** The entry of a scenario, or undefined for an unknown name. */
export const scenarioEntry = (name: string): ScenarioEntry | undefined => isScenarioName(name) ? SCENARIO_CATALOGUE[name] : undefined

/** Where a resource is, for the scenarios: its collection and status (`verification_status` for a creditor), and a mandate's scheme. */
export interface ScenarioTarget {
  readonly collection: string
  readonly status: string | undefined
  readonly scheme?: string | undefined
}

/**
 * The scenarios of the target's collection, split by whether they start where it is: from its
 * status (those naming none start from any), for its scheme (those naming none exist for all).
 */
export const scenariosFor = (target: ScenarioTarget): { readonly apply: ReadonlyArray<ScenarioName>; readonly other: ReadonlyArray<ScenarioName> } => {
  const ofCollection = SCENARIO_NAMES.filter((name) => SCENARIO_CATALOGUE[name].collection === target.collection)
  const starts = (name: ScenarioName): boolean => {
    const entry: ScenarioEntry = SCENARIO_CATALOGUE[name]
    const fromStatus = entry.startsFrom === undefined || (target.status !== undefined && entry.startsFrom.includes(target.status))
    const forScheme = entry.schemes === undefined || target.scheme === undefined || entry.schemes.includes(target.scheme)
    return fromStatus && forScheme
  }
  return { apply: ofCollection.filter(starts), other: ofCollection.filter((name) => !starts(name)) }
}

/**
 * The scenario name nearest to `given` (by edit distance, a whole part missing or misspelt), when
 * one is near enough to be what was meant: at most a third of the name's letters apart.
 */
export const nearestScenario = (given: string): ScenarioName | undefined => {
  const wanted = given.trim().toLowerCase()
  let best: { readonly name: ScenarioName; readonly distance: number } | undefined
  for (const name of SCENARIO_NAMES) {
    const distance = editDistance(wanted, name)
    if (best === undefined || distance < best.distance) best = { name, distance }
  }
  return best !== undefined && best.distance <= Math.max(2, Math.floor(best.name.length / 3)) ? best.name : undefined
}

/** Levenshtein's distance: the fewest insertions, deletions and substitutions from `a` to `b`. */
export const editDistance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution))
    }
    previous = current
  }
  return previous[b.length] ?? 0
}
