import type { InvalidState, Timestamp } from "@paykit/core"
import { Result, Schema } from "effect"
import {
  allRequiredCompleted,
  type BillingRequestAction,
  type BillingRequestActionType,
  completeAction,
  fallbackActions,
  findAction
} from "./billing-request-actions.ts"
import type { Cause, HistoryEntry } from "./history.ts"
import { bindMachine, defineMachine, type Guard, guard, type Refusal, type TransitionRule, transition } from "./machine.ts"

/** Billing request statuses, as the real API (`BillingRequestStatus`). */
export const BILLING_REQUEST_STATUSES = ["pending", "ready_to_fulfil", "fulfilling", "fulfilled", "cancelled"] as const
export const BillingRequestStatus = Schema.Literals(BILLING_REQUEST_STATUSES).annotate({ identifier: "BillingRequestStatus" })
export type BillingRequestStatus = typeof BillingRequestStatus.Type

export const BILLING_REQUEST_EVENTS = [
  "choose_currency", "collect_customer_details", "collect_bank_account", "confirm_payer_details", "select_institution",
  "bank_authorisation_visited", "bank_authorisation_authorised", "bank_authorisation_denied", "bank_authorisation_failed",
  "bank_authorisation_expired", "fallback", "fulfil", "fulfilment_completed", "cancel"
] as const
export type BillingRequestEvent = (typeof BILLING_REQUEST_EVENTS)[number]

/** The facts of a billing request its guards read. */
export interface BillingRequestContext {
  readonly actions: ReadonlyArray<BillingRequestAction>
  readonly has_payment_request: boolean
  readonly fallback_enabled: boolean
}

type ActionEffect = (c: BillingRequestContext) => Result.Result<ReadonlyArray<BillingRequestAction>, Refusal>

const completing = (type: BillingRequestActionType): ActionEffect => (c) => completeAction(c.actions, type)

/**
 * What each event does to the actions list. The status rules below are derived from these, so
 * the table and the actions cannot disagree.
 */
export const BILLING_REQUEST_ACTION_EFFECTS = {
  choose_currency: (c) =>
    c.has_payment_request
      ? Result.fail({
        reason: "choose_currency_not_supported",
        message: "The currency cannot be chosen on a billing request with a payment request"
      })
      : completeAction(c.actions, "choose_currency"),
  collect_customer_details: completing("collect_customer_details"),
  collect_bank_account: completing("collect_bank_account"),
  confirm_payer_details: completing("confirm_payer_details"),
  select_institution: completing("select_institution"),
  bank_authorisation_authorised: completing("bank_authorisation"),
  fallback: (c) => {
    if (!c.fallback_enabled) {
      return Result.fail({ reason: "fallback_not_enabled", message: "Fallback is not enabled on this billing request" })
    }
    const bankAuthorisation = findAction(c.actions, "bank_authorisation")
    if (bankAuthorisation === undefined || !bankAuthorisation.required || bankAuthorisation.status === "completed") {
      return Result.fail({
        reason: "fallback_not_available",
        message: "This billing request has no pending bank authorisation to fall back from"
      })
    }
    return Result.succeed(fallbackActions(c.actions))
  }
} satisfies Partial<Record<BillingRequestEvent, ActionEffect>>

type ActionEvent = keyof typeof BILLING_REQUEST_ACTION_EFFECTS

const isActionEvent = (event: BillingRequestEvent): event is ActionEvent => Object.hasOwn(BILLING_REQUEST_ACTION_EFFECTS, event)

const effectApplies = (event: ActionEvent): Guard<BillingRequestContext> => ({
  name: `${event}_allowed`,
  check: (c) => Result.match(BILLING_REQUEST_ACTION_EFFECTS[event](c), { onFailure: (r) => r, onSuccess: () => undefined })
})

const effectMakesReady = (event: ActionEvent): Guard<BillingRequestContext> => ({
  name: `${event}_allowed, all_required_completed_after`,
  check: (c) =>
    Result.match(BILLING_REQUEST_ACTION_EFFECTS[event](c), {
      onFailure: (r) => r,
      onSuccess: (after) =>
        allRequiredCompleted(after)
          ? undefined
          : { reason: "billing_request_actions_pending", message: "Required actions are still pending" }
    })
})

/** An action event: ready_to_fulfil once it leaves no required action pending, else pending. */
const actionRules = (
  event: ActionEvent,
  emits: string | null,
  reason: string
): ReadonlyArray<TransitionRule<BillingRequestStatus, BillingRequestEvent, BillingRequestContext>> => [
  { from: ["pending", "ready_to_fulfil"], event, to: "ready_to_fulfil", guard: effectMakesReady(event), emits, reason },
  { from: ["pending"], event, to: "pending", guard: effectApplies(event), emits, reason }
]

const bankAuthorisationPending = guard<BillingRequestContext>(
  "bank_authorisation_pending",
  "bank_authorisation_not_pending",
  "This billing request has no pending bank authorisation",
  (c) => findAction(c.actions, "bank_authorisation")?.status === "pending"
)

/** A bank authorisation outcome that changes no action: reported, status unchanged. */
const bankAuthorisationNotice = (
  event: BillingRequestEvent,
  emits: string
): ReadonlyArray<TransitionRule<BillingRequestStatus, BillingRequestEvent, BillingRequestContext>> => [
  { from: ["pending"], event, to: "pending", guard: bankAuthorisationPending, emits, reason: "billing_request_not_pending" },
  {
    from: ["ready_to_fulfil"], event, to: "ready_to_fulfil", guard: bankAuthorisationPending, emits,
    reason: "billing_request_not_pending"
  }
]

const everyRequiredActionCompleted = guard<BillingRequestContext>(
  "all_required_actions_completed",
  "billing_request_not_ready",
  "The billing request has required actions that are not completed",
  (c) => allRequiredCompleted(c.actions)
)

/**
 * pending (actions being completed) -> ready_to_fulfil (every required action completed) ->
 * fulfilling -> fulfilled; cancelled before fulfilment. Emits the real API's billing request
 * actions; `fallback_triggered` is this engine's own name, and `fulfil` itself emits nothing
 * (`fulfilled` is announced when fulfilment completes).
 */
export const billingRequestMachine = defineMachine<BillingRequestContext>()({
  name: "billing_requests",
  noun: "billing request",
  states: BILLING_REQUEST_STATUSES,
  events: BILLING_REQUEST_EVENTS,
  initial: ["pending"],
  terminal: ["fulfilled", "cancelled"],
  created: "created",
  transitions: [
    ...actionRules("choose_currency", "choose_currency", "billing_request_not_pending"),
    ...actionRules("collect_customer_details", "collect_customer_details", "billing_request_not_pending"),
    ...actionRules("collect_bank_account", "collect_bank_account", "billing_request_not_pending"),
    ...actionRules("confirm_payer_details", "payer_details_confirmed", "billing_request_not_pending"),
    ...actionRules("select_institution", "select_institution", "billing_request_not_pending"),
    ...actionRules("bank_authorisation_authorised", "bank_authorisation_authorised", "billing_request_not_pending"),
    ...bankAuthorisationNotice("bank_authorisation_visited", "bank_authorisation_visited"),
    ...bankAuthorisationNotice("bank_authorisation_denied", "bank_authorisation_denied"),
    ...bankAuthorisationNotice("bank_authorisation_failed", "bank_authorisation_failed"),
    ...bankAuthorisationNotice("bank_authorisation_expired", "bank_authorisation_expired"),
    ...actionRules("fallback", "fallback_triggered", "billing_request_not_pending"),
    {
      from: ["ready_to_fulfil"], event: "fulfil", to: "fulfilling", guard: everyRequiredActionCompleted,
      emits: null, reason: "billing_request_not_ready"
    },
    {
      from: ["fulfilling"], event: "fulfilment_completed", to: "fulfilled",
      emits: "fulfilled", reason: "billing_request_not_fulfilling"
    },
    {
      from: ["pending", "ready_to_fulfil"], event: "cancel", to: "cancelled",
      emits: "cancelled", reason: "cancellation_failed"
    }
  ]
})

export const billingRequests = bindMachine(billingRequestMachine)

/** A billing request as far as its machine is concerned. */
export interface BillingRequestSnapshot extends BillingRequestContext {
  readonly status: BillingRequestStatus
}

export interface BillingRequestOutcome {
  readonly status: BillingRequestStatus
  readonly actions: ReadonlyArray<BillingRequestAction>
  readonly history: HistoryEntry<BillingRequestStatus, BillingRequestEvent>
}

/**
 * Applies an event to a billing request: its new status from the table, its new actions from
 * the event's effect, and the history entry. A refused event changes nothing.
 */
export const applyBillingRequestEvent = (
  request: BillingRequestSnapshot,
  event: BillingRequestEvent,
  input: { readonly at: Timestamp; readonly cause: Cause }
): Result.Result<BillingRequestOutcome, InvalidState> =>
  Result.map(transition(billingRequestMachine, request.status, event, { ...input, context: request }), (history) => {
    const effect = isActionEvent(event) ? BILLING_REQUEST_ACTION_EFFECTS[event](request) : undefined
    const actions = effect !== undefined && Result.isSuccess(effect) ? effect.success : request.actions
    return { status: history.to, actions, history }
  })
