import { Context, Effect } from "effect"
import type { StorageError } from "@paykit/core"

/**
 * Whose choice a webhook URL is, and whether that chooser may reach loopback receivers (where the
 * sender's mode allows them at all). The sandbox allows loopback so a developer's own receiver
 * works; that is for organisations the operator made. Anyone else (an organisation that signed
 * up through a partner app's consent page, a partner app) gets the live rules, so no tenant reads
 * the server's local services through its delivery records.
 */
export interface WebhookTargetOwner {
  readonly organisation: string
  /** A partner app's endpoint: its URL is the app's choice (its owner's), not the organisation's. */
  readonly partnerApp?: string | undefined
}

export interface WebhookTargetTrustShape {
  readonly privateTargets: (owner: WebhookTargetOwner) => Effect.Effect<boolean, StorageError>
}

/** Trusts every chooser by default: the embedded library's organisations are all its embedder's own. */
export const WebhookTargetTrust = Context.Reference<WebhookTargetTrustShape>("@paykit/engine/WebhookTargetTrust", {
  defaultValue: () => ({ privateTargets: () => Effect.succeed(true) })
})
