import type { OrganisationId } from "@paykit/core"
import { Effect, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  DueWorkStore, LIVE_SENDER_POLICY, SANDBOX_SENDER_POLICY, WEBHOOK_SECRET_KEY_BYTES, WebhookEndpoints, WebhookSecretKey, WebhookSender, WebhookTargetTrust, withClockOffset
} from "@paykit/engine"
import type { Database, ServerMode, WebhookConfig } from "./config.ts"
import { OAuthStore } from "./oauth/store.ts"
import { Organisations } from "./organisations.ts"
import { ServerLog } from "./server-log.ts"

/**
 * The server's webhook pieces: the key that seals endpoint secrets, the sender under the mode's
 * rules, and the sandbox organisation's endpoint from `PAYKIT_WEBHOOK_URL`. docs/webhooks.md.
 */

/** The key file's name in the data directory. */
export const WEBHOOK_SECRET_KEY_FILE = "webhook-secret.key"

/** A given key: 64 hex digits or the base64 of 32 bytes. */
export const decodeSecretKey = (text: string): Uint8Array | undefined => {
  const trimmed = text.trim()
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64")
  return bytes.length === WEBHOOK_SECRET_KEY_BYTES ? bytes : undefined
}

/**
 * The key in `dir`, made (random, readable by its owner only) when the file is absent. `wx`
 * makes the first of two starting processes the one that writes it; the other reads it.
 */
export const keyFromDirectory = (dir: string): Uint8Array => {
  const file = join(dir, WEBHOOK_SECRET_KEY_FILE)
  mkdirSync(dir, { recursive: true })
  try {
    writeFileSync(file, randomBytes(WEBHOOK_SECRET_KEY_BYTES).toString("hex"), { flag: "wx", mode: 0o600 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
  }
  const key = decodeSecretKey(readFileSync(file, "utf8"))
  if (key === undefined) throw new Error(`${file} does not hold a ${WEBHOOK_SECRET_KEY_BYTES}-byte key (64 hex digits)`)
  return key
}

/**
 * The server's secret key: `PAYKIT_WEBHOOK_SECRET_KEY` when set; else the key file of the data
 * directory (PGlite's, or `PAYKIT_DATA_DIR` beside PostgreSQL: processes on several hosts must be
 * given one key); `undefined` for an in-memory PGlite store, which dies with the process, so a key
 * that does too is enough. It seals webhook secrets, and the pages' CSRF key is derived from it.
 */
export const serverSecretKey = (database: Database, config: WebhookConfig | undefined): Effect.Effect<Uint8Array | undefined, Error> => {
  const given = config === undefined ? Option.none() : config.secretKey
  if (Option.isSome(given)) {
    const key = decodeSecretKey(Redacted.value(given.value))
    return key === undefined
      ? Effect.fail(new Error(`PAYKIT_WEBHOOK_SECRET_KEY must be ${WEBHOOK_SECRET_KEY_BYTES} bytes, as 64 hex digits or base64`))
      : Effect.succeed(key)
  }
  const dir = database._tag === "Pglite" ? database.dataDir : config?.keyDir
  if (dir === undefined) return Effect.succeed(undefined)
  return Effect.try({ try: () => keyFromDirectory(dir), catch: (e) => e instanceof Error ? e : new Error(String(e)) })
}

/** The webhook secrets' box on the server's key (`serverSecretKey`). */
export const webhookSecretKeyLayer = (database: Database, config: WebhookConfig | undefined): Layer.Layer<WebhookSecretKey, Error> =>
  Layer.unwrap(Effect.map(serverSecretKey(database, config), (key) => key === undefined ? WebhookSecretKey.ephemeral : WebhookSecretKey.fromKey(key)))

/** The sender under the mode's rules: https to public addresses in live, loopback and http allowed in the sandbox. */
export const webhookSenderLayer = (mode: ServerMode, timeoutMs: number | undefined) => {
  const policy = mode === "live" ? LIVE_SENDER_POLICY : SANDBOX_SENDER_POLICY
  return WebhookSender.node(timeoutMs === undefined ? policy : { ...policy, timeoutMs })
}

/**
 * Who may reach loopback receivers in the sandbox: organisations the operator made, and the apps
 * those registered (an app's endpoint in a connected organisation is its owner's choice). Signups
 * get the live rules; a live server has only those.
 */
export const webhookTrustLayer = (mode: ServerMode) =>
  Layer.effect(WebhookTargetTrust, Effect.gen(function*() {
    const organisations = yield* Organisations
    const store = yield* OAuthStore
    const operatorMade = (id: string | undefined) =>
      id === undefined ? Effect.succeed(false) : Effect.map(organisations.originOf(id), (origin) => origin === "operator")
    return {
      privateTargets: (owner) =>
        mode === "live"
          ? Effect.succeed(false)
          : owner.partnerApp === undefined
          ? operatorMade(owner.organisation)
          : Effect.flatMap(store.appById(owner.partnerApp), (app) => operatorMade(app?.organisation))
    }
  }))

/**
 * The sandbox organisation's endpoint from `PAYKIT_WEBHOOK_URL`, made or its secret updated: the
 * same one at every restart. Made on the organisation's clock, as a request would make it: a
 * restart after an advance dates it then, not in the clock's past.
 */
export const ensureSandboxEndpoint = (organisation: OrganisationId, config: WebhookConfig | undefined) =>
  Effect.gen(function*() {
    const endpoint = config === undefined ? Option.none() : config.endpoint
    if (Option.isNone(endpoint)) return
    const offset = yield* (yield* DueWorkStore).offsetOf(organisation)
    const ensure = (yield* WebhookEndpoints).ensure(organisation, { url: endpoint.value.url, secret: Redacted.value(endpoint.value.secret) })
    const made = yield* withClockOffset(offset, ensure)
    const log = yield* ServerLog
    log({ level: "info", msg: "webhook endpoint from PAYKIT_WEBHOOK_URL", organisation, webhook_endpoint: made.id, url: made.url })
  })
