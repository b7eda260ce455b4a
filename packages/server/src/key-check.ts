import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { WebhookSecretKey } from "@paykit/engine"
import type { Database, WebhookConfig } from "./config.ts"
import { WEBHOOK_SECRET_KEY_FILE } from "./webhook-setup.ts"

/**
 * Every process on one database must seal and open webhook secrets with one key. The first to
 * start seals a known value with its key (`server_key_checks`); each later one opens it before it
 * serves, so a process with another key refuses to start, naming the setting, instead of failing
 * every delivery it claims. The check needs no endpoint to exist yet.
 */

const CHECK_NAME = "webhook_secret_key"
/** The value sealed: known, so that opening it proves the key; its context is nothing else's. */
const CHECK_PLAINTEXT = "paykit webhook secret key check"
const CHECK_CONTEXT = "paykit:server_key_checks:webhook_secret_key"

export class WebhookKeyMismatch extends Schema.TaggedError<WebhookKeyMismatch>()("WebhookKeyMismatch", {
  source: Schema.String
}) {
  override get message(): string {
    return `${this.source} does not open this database's sealed webhook secrets: every process on one database needs the same key; set PAYKIT_WEBHOOK_SECRET_KEY to the key the other processes use`
  }
}

/** Where this process's key came from, as the refusal names it. */
export const keySourceOf = (database: Database, config: WebhookConfig | undefined): string => {
  if (config !== undefined && Option.isSome(config.secretKey)) return "PAYKIT_WEBHOOK_SECRET_KEY"
  const dir = database._tag === "Pglite" ? database.dataDir : config?.keyDir
  return dir === undefined
    ? "PAYKIT_WEBHOOK_SECRET_KEY (unset: a key made for this in-memory store)"
    : `PAYKIT_WEBHOOK_SECRET_KEY (unset: the key file ${dir}/${WEBHOOK_SECRET_KEY_FILE})`
}

/** Writes the check on the first start (the first of several processes wins), then opens it. */
export const checkWebhookKey = (source: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const box = yield* WebhookSecretKey
    yield* sql`INSERT INTO server_key_checks (name, sealed) VALUES (${CHECK_NAME}, ${box.seal(CHECK_PLAINTEXT, CHECK_CONTEXT)})
      ON CONFLICT (name) DO NOTHING`
    const rows = yield* sql<{ readonly sealed: string }>`SELECT sealed FROM server_key_checks WHERE name = ${CHECK_NAME}`
    const sealed = rows[0]?.sealed
    if (sealed === undefined || box.open(sealed, CHECK_CONTEXT) !== CHECK_PLAINTEXT) return yield* new WebhookKeyMismatch({ source })
  })

/** The check as a layer: built before the server takes its first request. */
export const webhookKeyCheck = (database: Database, config: WebhookConfig | undefined) =>
  Layer.effectDiscard(checkWebhookKey(keySourceOf(database, config)))
