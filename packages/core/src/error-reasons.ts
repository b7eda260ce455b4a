import { API_VERSION } from "./limits.ts"
import { ACCESS_TOKEN_REASONS, type ErrorBody, FEATURE_NOT_INSTALLED_REASON } from "./errors.ts"

/**
 * Every error type and reason the API answers with, and what it means: the `/docs` page lists
 * them, each under an anchor named by the reason, which is where `documentation_url` points.
 */

export type ErrorType = ErrorBody["error"]["type"]

export const ERROR_TYPES: Readonly<Record<ErrorType, string>> = {
  validation_failed: "The request was refused by the rules of its fields: each item names the field, its JSON pointer and why.",
  invalid_state: "The request is well formed but the resource is not in a state that allows it.",
  invalid_api_usage: "The request itself is wrong: authentication, headers, the path, the body's syntax, permissions or the rate limit.",
  gocardless: "An internal error of the server, never caused by the request; quote the request_id when reporting it."
}

/** A reason's type and meaning (its status is the code's: `httpStatusOf`, the gateway's). */
export interface ReasonEntry {
  readonly type: ErrorType
  readonly meaning: string
}

const usage = (meaning: string): ReasonEntry => ({ type: "invalid_api_usage", meaning })
const state = (meaning: string): ReasonEntry => ({ type: "invalid_state", meaning })

/**
 * Refusals of a status change, `<resource>_not_<status>`: the action needs the resource in that
 * status (or, for `…_not_<adjective>`, with that property) and it is not.
 */
const STATUS_REFUSALS: Readonly<Record<string, ReadonlyArray<string>>> = {
  bank_authorisation: ["available", "pending"],
  billing_request: ["fulfilling", "pending", "ready"],
  instalment_schedule: ["active", "errored", "pending"],
  mandate_import: ["created", "processing", "submitted"],
  mandate: ["active", "inactive", "pending", "pending_customer_approval", "pending_submission", "submitted", "suspended"],
  outbound_payment: ["approvable", "executing", "pending_approval", "scheduled", "sent", "verifying"],
  outbound_payment_import: ["authorisable", "created", "expirable", "processing", "validating"],
  payer_authorisation: ["confirmed", "submitted", "updatable"],
  payment: ["charged_back", "collected", "confirmed", "failed", "pending_customer_approval", "pending_submission", "submitted"],
  payout: ["bounced", "exchanged", "pending"],
  refund: ["created", "paid", "pending_submission", "submitted"],
  subscription: ["active", "paused", "pending_customer_approval"]
}

const words = (s: string): string => s.replace(/_/g, " ")

const statusRefusals = Object.fromEntries(Object.entries(STATUS_REFUSALS).flatMap(([resource, statuses]) =>
  statuses.map((s) => [`${resource}_not_${s}`, state(`The ${words(resource)} is not ${words(s)}, which this action needs.`)])
))

/** The real API's `invalid_state` reasons of a subscription's pause action, which the subscription machine's guards answer. */
export const SUBSCRIPTION_PAUSE_REASONS = {
  notActive: "subscription_not_active",
  cannotBePaused: "subscription_cannot_be_paused",
  cannotUpdateCycles: "subscription_paused_cannot_update_cycles",
  cyclesTooFew: "pause_cycles_must_be_greater_than_or_equal_to"
} as const

/** The 410 of `GET /payout_items` for a payout older than the six months its items are kept (the real API answers 410 Gone). */
export const PAYOUT_ITEMS_GONE_REASON = "payout_items_no_longer_available"

export const ERROR_REASONS: Readonly<Record<string, ReasonEntry>> = {
  validation_failed: { type: "validation_failed", meaning: "A field is missing, of the wrong type, too long, not one of the accepted values, holds NUL or unpaired surrogates, or breaks a rule between fields." },
  missing_version_header: usage("The GoCardless-Version header is missing."),
  version_not_found: usage(`The GoCardless-Version header names a version this API does not serve (it serves ${API_VERSION}).`),
  invalid_content_type: usage("A body was sent with a content type other than JSON."),
  invalid_document_structure: usage("The body is not valid JSON."),
  idempotency_key_missing: usage("A creating POST was sent without an Idempotency-Key header where one is required."),
  idempotency_key_too_long: usage("The Idempotency-Key header is longer than allowed."),
  idempotent_creation_conflict: state("The Idempotency-Key was used before for a creation; links.conflicting_resource_id names the resource it created."),
  idempotent_request_in_progress: usage("A request with the same Idempotency-Key is still running; retry later."),
  invalid_filters: usage("A query parameter is not one the list takes (the message names it and lists those it takes), or two filters were given that cannot be combined."),
  path_not_found: usage("No endpoint has this path."),
  [PAYOUT_ITEMS_GONE_REASON]: usage("The payout was created more than six months ago: its items are no longer available (410 Gone)."),
  method_not_allowed: usage("The endpoint does not accept this HTTP method."),
  resource_not_found: usage("No resource of this organisation has this id (a malformed id names none)."),
  request_entity_too_large: usage("The body is larger than the server accepts (413): too many bytes, or too many fields (object members and array elements, or a form's fields; the message gives the limit), refused before it is parsed."),
  request_timeout: usage("The request's headers or body did not arrive within the time the server gives them (408); the connection is closed."),
  request_headers_too_large: usage("The request's headers are larger than the server reads (431)."),
  malformed_request: usage("The bytes sent are not an HTTP request the server can read (400); the connection is closed."),
  ambiguous_authorization: usage("The request has more than one Authorization header (400): a proxy may read another than the server, so none is used."),
  bad_request: usage("The request is not one the resource accepts: for a redirect flow, a session_token other than the one it was created with."),
  insufficient_permissions: { type: "invalid_api_usage", meaning: "The access token may not do this (a read_only token on a write)." },
  sandbox_only: { type: "invalid_api_usage", meaning: "The endpoint exists only on a sandbox server." },
  dashboard_refused: { type: "invalid_api_usage", meaning: "The dashboard refused a form: its CSRF token is missing or not this session's, or the session's token is read-only." },
  restricted_for_apps: { type: "invalid_api_usage", meaning: "A partner app's access token may not call this endpoint (the spec's restricted endpoints, and managing OAuth apps)." },
  rate_limit_exceeded: usage("Too many requests this minute; the RateLimit-* and Retry-After headers say when to retry."),
  ...Object.fromEntries(ACCESS_TOKEN_REASONS.map((r) => [r, usage(`The access token is ${words(r.replace("access_token_", ""))}.`)])),
  [FEATURE_NOT_INSTALLED_REASON]: {
    type: "gocardless",
    meaning: "The feature needs optional npm packages this server was installed without (mandate PDFs: pdfkit and dejavu-fonts-ttf; logos: sharp); the message names them."
  },
  internal_server_error: { type: "gocardless", meaning: "A defect of the server; nothing about the cause is shown. Quote the request_id." },
  service_unavailable: {
    type: "gocardless",
    meaning: "The storage holding the organisation's data cannot be reached now (503; on Citus, its worker is down); nothing of the request was kept: send it again later."
  },
  conflict: state("The resource changed while the request ran (a concurrent update); retry."),
  invalid_state: state("The resource's status does not allow this action."),
  ...statusRefusals,
  verification_not_pending: state("The bank account holder verification is already completed."),
  bank_account_not_pending: state("The creditor bank account's details were already submitted for verification."),
  bank_account_not_in_review: state("The creditor bank account is not in review: its verification is already decided."),
  scheme_identifier_not_pending: state("The scheme identifier is already registered."),
  webhook_delivery_not_pending: state("The webhook delivery is already delivered or given up."),
  webhook_delivery_not_retried: state("The webhook delivery is not retried again: its endpoint is disabled or its retries are spent."),
  access_token_not_active: state("The access token is already inactive."),
  oauth_app_disabled: state("The partner app is already disabled."),
  mandate_is_inactive: state("The mandate is cancelled, failed, expired or otherwise cannot be charged."),
  bank_account_disabled: state("The bank account is disabled."),
  bank_account_already_collected: state("The billing request already has its bank account."),
  billing_request_action_already_completed: state("This action of the billing request is already completed."),
  billing_request_action_not_available: state("The billing request has no such action."),
  billing_request_action_requires_actions: state("Other actions of the billing request must be completed first."),
  bank_authorisation_expired: state("The bank authorisation has expired; create a new one."),
  bank_authorisation_not_expired: state("The bank authorisation has not reached its expiry yet."),
  billing_request_actions_pending: state("The billing request still has required actions to complete."),
  billing_request_bank_account_missing: state("The billing request has no bank account yet."),
  cancellation_failed: state("The resource can no longer be cancelled."),
  disable_failed: state("The resource is already disabled."),
  missing_svc_key_id: usage("The Svc-Key-Id header naming one of your public keys (POST /public_keys) is missing, or you have no enabled public key."),
  invalid_svc_key_id: usage("The Svc-Key-Id header names no enabled public key of this organisation."),
  bank_submission_file_not_written: state("The bank submission's file is still being written; it is complete after the daily run that made it (paykit's own extension)."),
  bank_report_refused: { type: "validation_failed", meaning: "The bank report does not read as its format says (malformed, truncated, another format or namespace, or larger than the limit): the error names the line or element. Nothing of it was applied (paykit's own extension)." },
  bank_account_details_unavailable: state("The account's full details are not held: it was created before paykit kept them, or its customer was removed."),
  mandate_not_transferred: state("The mandate was never moved to another bank account by a current account switch."),
  choose_currency_not_supported: state("The billing request does not let the payer choose a currency."),
  creditor_not_action_required: state("The creditor's verification does not need more information."),
  creditor_not_in_review: state("The creditor's verification is not in review."),
  creditor_not_verified: state("The creditor is not verified, which this action needs."),
  customer_email_missing: state("The customer has no email address, which this action needs."),
  customer_data_removed: state("The customer was removed: their data is erased and can no longer be read or used."),
  customer_has_active_mandates: state("The customer has mandates that are not cancelled or ended; cancel them before removing the customer."),
  execution_date_not_reached: state("The outbound payment's execution date has not been reached."),
  fallback_not_available: state("The billing request cannot fall back to another flow now."),
  fallback_not_enabled: state("The billing request was not created with fallback enabled."),
  fx_rate_not_confirmed: state("The payout's exchange rate has not been confirmed yet."),
  instant_payment_cannot_be_retried: state("Instant payments cannot be retried."),
  instant_payment_refunds_not_supported: state("Instant payments cannot be refunded through the API."),
  insufficient_balance: state("The account's balance does not cover the amount."),
  no_verified_business_bank_account: state("The creditor has no verified business bank account."),
  notification_not_supported: state("The billing request cannot notify the payer by this channel."),
  partner_creditor_not_found: state("The partner app's creditor does not exist."),
  partner_app_endpoint: state("The webhook endpoint delivers to a partner app and follows the app's access: the API cannot re-enable or re-point it."),
  mandate_not_reinstating: state("The mandate is not being reinstated, which this step needs."),
  mandate_reinstating: state("The mandate is being reinstated, so this first-activation step does not apply."),
  outbound_payment_import_entries_pending: state("Some entries of the import have not become outbound payments yet."),
  payer_authorisation_already_finished: state("The payer authorisation is finished."),
  payer_authorisation_incomplete: state("The payer authorisation has fields that are not filled in yet."),
  [SUBSCRIPTION_PAUSE_REASONS.cannotBePaused]: state("The subscription cannot be paused: it has an end date, is already paused until resumed, or has no payment left to pause."),
  [SUBSCRIPTION_PAUSE_REASONS.cannotUpdateCycles]: state("The subscription is paused for a number of cycles, which cannot be changed."),
  [SUBSCRIPTION_PAUSE_REASONS.cyclesTooFew]: state("pause_cycles is below the number of cycles that reaches the earliest charge date after the pause."),
  subscription_schedule_finished: state("Every payment of the subscription's schedule has been created."),
  subscription_schedule_not_finished: state("The subscription's schedule still has payments to create."),
  payer_authorisation_already_submitted: state("The payer authorisation is already submitted."),
  redirect_flow_already_completed: state("The redirect flow has already been completed."),
  redirect_flow_incomplete: state("The customer has not yet completed the payment pages of the redirect flow (its billing request still has actions pending)."),
  refund_amount_exceeds_payment: state("The refunds of the payment would exceed its amount."),
  refund_payment_invalid_state: state("The payment is not in a status that can be refunded."),
  total_amount_confirmation_invalid: state("total_amount_confirmation is not the payment's refunded total after this refund: another refund may have been made meanwhile."),
  retry_failed: state("The payment cannot be retried: it has not failed, or it was retried three times already."),
  refunds_not_enabled: state("Refunds are not enabled for this creditor."),
  available_refund_amount_insufficient: state("The creditor's balance after its negative balance limit does not cover the refund."),
  fee_schedule_has_no_rule: state("No fee rule applies to this payment."),
  fx_amount_out_of_range: state("The exchanged amount is out of the supported range."),
  fx_rate_already_confirmed: state("The exchange rate of the payout is already confirmed."),
  payout_amount_out_of_range: state("The payout's amount is out of the supported range."),
  scenario_precondition_failed: state("The resource is not where the scenario simulator starts (its status, or what it still lacks); the message names what the scenario needs."),
  scenario_payout_not_possible: state("The scenario needs a payout and none could be made: the creditor and its payout account must be verified and its unsettled balance above zero."),
  scenario_scheme_not_supported: state("The scenario simulator exists only for other schemes than the mandate's."),
  already_actioned: state("The customer notification has already been handled, or its deadline has passed."),
  redirect_flow_expired: state("The redirect flow has expired (30 minutes after it was created) and can no longer be completed.")
}
