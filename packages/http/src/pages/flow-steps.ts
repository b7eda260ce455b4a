import type { BillingRequest, BillingRequestFlow } from "@paykit/engine"

/**
 * Which page a payer meets next in a flow: the rule of the billing request flow and redirect flow
 * pages, read from the billing request's own actions so the pages ask for exactly what the API
 * would. The steps the pages have a form for, in the order a payer meets them.
 */
export const FLOW_STEPS = [
  "choose_currency",
  "collect_customer_details",
  "collect_bank_account",
  "confirm_payer_details",
  "select_institution",
  "bank_authorisation"
] as const
export type FlowStep = (typeof FLOW_STEPS)[number]

export const isFlowStep = (value: unknown): value is FlowStep => typeof value === "string" && (FLOW_STEPS as ReadonlyArray<string>).includes(value)

export type FlowState =
  | { readonly kind: "step"; readonly step: FlowStep }
  /** Every required action done: the request may be fulfilled. */
  | { readonly kind: "ready" }
  /** Fulfilling or fulfilled: the payer's part is over. */
  | { readonly kind: "fulfilled" }
  /** Cancelled: nothing more to do. */
  | { readonly kind: "closed" }
  /** Pending, yet no step the payer may take here (a locked currency with nothing else to set it). */
  | { readonly kind: "blocked" }

type Action = BillingRequest["actions"][number]

const completed = (actions: ReadonlyArray<Action>, type: string): boolean => actions.some((a) => a.type === type && a.status === "completed")

/**
 * The next step: the first required pending action whose requirements are completed. Optional
 * actions are never asked for (a Pay by Bank payment's account is reported by the bank), nor the
 * currency when the flow locks it (the bank account then sets it, as `collect_bank_account`
 * completes `choose_currency`).
 */
export const flowStateOf = (
  request: Pick<BillingRequest, "status" | "actions">,
  flow: Pick<BillingRequestFlow, "lock_currency">
): FlowState => {
  switch (request.status) {
    case "ready_to_fulfil":
      return { kind: "ready" }
    case "fulfilling":
    case "fulfilled":
      return { kind: "fulfilled" }
    case "cancelled":
      return { kind: "closed" }
    case "pending":
      break
  }
  const step = FLOW_STEPS.find((type) => {
    const action = request.actions.find((a) => a.type === type)
    return action !== undefined && action.required && action.status === "pending" &&
      action.requires_actions.every((r) => completed(request.actions, r)) &&
      !(flow.lock_currency && type === "choose_currency")
  })
  return step === undefined ? { kind: "blocked" } : { kind: "step", step }
}
