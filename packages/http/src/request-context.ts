import type { OrganisationId } from "@paykit/core"
import { Context } from "effect"
import type { PartnerApp } from "@paykit/engine"

/**
 * The id of the request being served. The outermost server middleware sets it; every error body
 * and the `X-Request-Id` response header carry it. A Reference (with a default) so that code deep
 * in a handler can read it without every handler type naming it.
 */
export const CurrentRequestId = Context.Reference<string>("@paykit/http/CurrentRequestId", {
  defaultValue: () => "unknown"
})

/** The response header carrying the request id (the official client reads `x-request-id`). */
export const REQUEST_ID_HEADER = "x-request-id"

/**
 * Who is calling: the organisation an access token belongs to, what it may do, and the partner
 * app the token was issued to (null for the organisation's own tokens).
 */
export interface CallerShape {
  readonly organisation: OrganisationId
  readonly scope: AccessScope
  readonly tokenId: string
  /** The token's display prefix, when paykit made it (`AccessTokenRecord.displayPrefix`): what the request log shows of it. */
  readonly tokenPrefix?: string
  readonly app: PartnerApp | null
  /** For an app's token: whether the app's payment pages are approved (the restricted endpoints it may then call). */
  readonly appPaymentPagesApproved?: boolean
  /** The organisation's clock offset (`AccessTokenRecord.clockOffsetMillis`): the gateway runs the handler under it. */
  readonly clockOffsetMillis?: number
}

export const ACCESS_SCOPES = ["read_write", "read_only"] as const
export type AccessScope = (typeof ACCESS_SCOPES)[number]

