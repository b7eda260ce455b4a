import { MILLIS_PER_DAY } from "@paykit/core"

/** The rules of delivery, each named once; docs/webhooks.md explains them. */

/** Events per request, as the real API sends them. */
export const WEBHOOK_MAX_EVENTS = 250

/** How long an attempt waits for the answer (connecting included) before it counts as failed. */
export const WEBHOOK_TIMEOUT_MS = 10_000

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/**
 * The wait before each retry of a failed delivery, on the organisation's clock: the n-th failure
 * is retried `WEBHOOK_RETRY_DELAYS_MS[n - 1]` later. After the last, the delivery is given up
 * (about 3.7 days after its first attempt). Spaced out like Svix's and Stripe's, so a receiver
 * down for a deploy gets its events minutes later and one down for a weekend still gets them.
 */
export const WEBHOOK_RETRY_DELAYS_MS: ReadonlyArray<number> = [
  MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 24 * HOUR, 24 * HOUR, 24 * HOUR
]

/**
 * An endpoint whose attempts have all failed for this long (since its last success, on the
 * organisation's clock) is disabled (`disabled_reason` `DISABLED_FOR_FAILING`), and its pending deliveries
 * are given up: it is not retried for ever. Re-enabling it (`PUT`, `enabled: true`) resumes.
 */
export const WEBHOOK_ENDPOINT_DISABLE_AFTER_MS = 3 * MILLIS_PER_DAY

/** What a record keeps of an answer: the body up to this many bytes (`response_body_truncated`). */
export const WEBHOOK_RESPONSE_BODY_MAX_BYTES = 16_384
/** ...at most this many response headers (`response_headers_count_truncated`)... */
export const WEBHOOK_RESPONSE_HEADERS_MAX_COUNT = 50
/** ...each value cut to this many characters (`response_headers_content_truncated`). */
export const WEBHOOK_RESPONSE_HEADER_MAX_LENGTH = 1024

/** The delay before retrying after `failures` failed attempts, or undefined when the delivery is to be given up. */
export const retryDelayAfter = (failures: number): number | undefined => WEBHOOK_RETRY_DELAYS_MS[failures - 1]

/** How many times a lost race on an endpoint is tried again, read afresh (deliveries note their outcomes on it). */
export const ENDPOINT_SAVE_TRIES = 5
