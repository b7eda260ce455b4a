import { Schema } from "effect"
import { bindMachine, defineMachine, guard } from "./machine.ts"

/** Mandate statuses, as the real API (`MandateStatus`). */
export const MANDATE_STATUSES = [
  "pending_customer_approval", "pending_submission", "submitted", "active", "failed", "cancelled", "expired",
  "consumed", "blocked", "suspended_by_payer"
] as const
export const MandateStatus = Schema.Literals(MANDATE_STATUSES).annotate({ identifier: "MandateStatus" })
export type MandateStatus = typeof MandateStatus.Type

/**
 * The statuses of a mandate that ended: nothing can be collected on it, and pending payments on it
 * are cancelled (a cancelled or expired mandate may still be reinstated, which makes it live again).
 */
export const ENDED_MANDATE_STATUSES = ["failed", "cancelled", "expired", "consumed", "blocked"] as const satisfies ReadonlyArray<MandateStatus>

export const isEndedMandateStatus = (status: MandateStatus): boolean => ENDED_MANDATE_STATUSES.some((s) => s === status)

/** The statuses against which payments can be created: neither ended nor suspended by the payer. */
export const CHARGEABLE_MANDATE_STATUSES: ReadonlyArray<MandateStatus> = MANDATE_STATUSES.filter(
  (s) => !isEndedMandateStatus(s) && s !== "suspended_by_payer"
)

export const MANDATE_EVENTS = [
  "customer_approval_granted", "submit", "activate", "fail", "cancel", "expire", "reinstate", "consume", "block",
  "suspend_by_payer", "resume_by_payer", "transfer", "skip_customer_approval", "request_resubmission"
] as const
export type MandateEvent = (typeof MANDATE_EVENTS)[number]

export interface MandateContext {
  /** The mandate was reinstated and its activation completes that reinstatement. */
  readonly reinstating: boolean
}

const isReinstatement = guard<MandateContext>(
  "reinstating",
  "mandate_not_reinstating",
  "The mandate is not being reinstated",
  (c) => c.reinstating
)
const isFirstActivation = guard<MandateContext>(
  "first_activation",
  "mandate_reinstating",
  "The mandate is being reinstated",
  (c) => !c.reinstating
)

/**
 * The real API's mandate life: pending_submission -> submitted -> active; failed when the bank
 * rejects it; cancelled or expired (dormant), both of which can be reinstated (back to
 * pending_submission with `resubmission_requested`, then `reinstated` once active again);
 * consumed once a single-use mandate is used; blocked; suspended and resumed by the payer
 * (PayTo). `suspended_by_payer`/`resumed_by_payer` emitted names are this engine's own. The
 * payer may skip the approval a dual signature asks for (`customer_approval_skipped`), and a mandate
 * the payer's bank moved under the UK's Current Account Switching Service may need submitting
 * again (`resubmission_requested` from active), as the scenario simulators show.
 */
export const mandateMachine = defineMachine<MandateContext>()({
  name: "mandates",
  noun: "mandate",
  states: MANDATE_STATUSES,
  events: MANDATE_EVENTS,
  initial: ["pending_customer_approval", "pending_submission"],
  terminal: ["failed", "consumed", "blocked"],
  created: "created",
  transitions: [
    {
      from: ["pending_customer_approval"], event: "customer_approval_granted", to: "pending_submission",
      emits: "customer_approval_granted", reason: "mandate_not_pending_customer_approval"
    },
    { from: ["pending_submission"], event: "submit", to: "submitted", emits: "submitted", reason: "mandate_not_pending_submission" },
    // Schemes without a submission step (PayTo, VRP) activate from pending_submission.
    {
      from: ["pending_submission", "submitted"], event: "activate", to: "active", guard: isReinstatement,
      emits: "reinstated", reason: "mandate_not_submitted"
    },
    {
      from: ["pending_submission", "submitted"], event: "activate", to: "active", guard: isFirstActivation,
      emits: "active", reason: "mandate_not_submitted"
    },
    {
      from: ["pending_customer_approval", "pending_submission", "submitted"], event: "fail", to: "failed",
      emits: "failed", reason: "mandate_not_pending"
    },
    {
      from: ["pending_customer_approval", "pending_submission", "submitted", "active", "suspended_by_payer"],
      event: "cancel", to: "cancelled", emits: "cancelled", reason: "cancellation_failed"
    },
    { from: ["active"], event: "expire", to: "expired", emits: "expired", reason: "mandate_not_active" },
    {
      from: ["cancelled", "expired"], event: "reinstate", to: "pending_submission",
      emits: "resubmission_requested", reason: "mandate_not_inactive"
    },
    { from: ["active"], event: "consume", to: "consumed", emits: "consumed", reason: "mandate_not_active" },
    { from: ["pending_submission"], event: "block", to: "blocked", emits: "blocked", reason: "mandate_not_pending_submission" },
    {
      from: ["active"], event: "suspend_by_payer", to: "suspended_by_payer",
      emits: "suspended_by_payer", reason: "mandate_not_active"
    },
    {
      from: ["suspended_by_payer"], event: "resume_by_payer", to: "active",
      emits: "resumed_by_payer", reason: "mandate_not_suspended"
    },
    { from: ["active"], event: "transfer", to: "active", emits: "transferred", reason: "mandate_not_active" },
    {
      from: ["pending_customer_approval"], event: "skip_customer_approval", to: "pending_submission",
      emits: "customer_approval_skipped", reason: "mandate_not_pending_customer_approval"
    },
    // A switched account the new bank does not take over as it is: submitted again, then active.
    {
      from: ["active"], event: "request_resubmission", to: "pending_submission",
      emits: "resubmission_requested", reason: "mandate_not_active"
    }
  ]
})

export const mandates = bindMachine(mandateMachine)
