import { Clock, Context, Effect, Layer, Schema, Semaphore } from "effect"
import { SqlClient } from "effect/sql"
import { timestampFromMillis } from "@paykit/core"
import { ACCESS_SCOPES, type AccessScope } from "@paykit/http"
import { OAUTH_APP_STATUSES, type OAuthAppEvent, oauthAppMachine, type OAuthAppStatus, stateAfter } from "@paykit/machines"
import { DbInteger, type Topology, topologyOf } from "@paykit/store-sql"

/**
 * Where partner apps, their authorisation codes and their grants are kept (server migration
 * 0010): on SQL, and in memory for embedders and tests. Secrets and codes are stored as SHA-256
 * hashes only; the access tokens themselves are the `AccessTokens` port's.
 */

export { OAUTH_APP_STATUSES, type OAuthAppEvent, type OAuthAppStatus }

export interface OAuthApp {
  readonly id: string
  /** The organisation that registered the app; its app fees are paid to `creditor` there. */
  readonly organisation: string
  readonly creditor: string
  readonly name: string
  readonly redirectUris: ReadonlyArray<string>
  readonly webhookUrl: string | null
  /** The app's webhook signing secret, sealed with the server's `WebhookSecretKey` (`appSecretContext`); null without a webhook URL. */
  readonly webhookSecretSealed: string | null
  readonly clientId: string
  /** Hex SHA-256 of the client secret. */
  readonly clientSecretHash: string
  readonly status: OAuthAppStatus
  /** Whether the app's payment pages are approved as scheme-rules compliant (spec, restricted endpoints). */
  readonly paymentPagesApproved: boolean
  readonly createdAt: string
}

export interface OAuthCode {
  /** Hex SHA-256 of the code. */
  readonly codeHash: string
  readonly app: string
  readonly organisation: string
  readonly scope: AccessScope
  readonly redirectUri: string
  readonly email: string
  /** Epoch milliseconds. */
  readonly expiresAt: number
}

/** A code taken for exchange: whether it had been taken before, and the token that first exchange issued. */
export interface ConsumedCode {
  readonly code: OAuthCode
  readonly usedBefore: boolean
  readonly issuedToken: string | null
}

/** An access token issued to an app for a connected organisation. */
export interface OAuthGrant {
  readonly tokenId: string
  readonly app: string
  readonly organisation: string
  readonly email: string
}

/** The app after `event` by its machine (`oauthAppMachine`) at `atMillis`; undefined where the machine refuses it (a disabled app stays disabled). */
export const appAfter = (app: OAuthApp, event: OAuthAppEvent, atMillis: number): OAuthApp | undefined => {
  const status = stateAfter(oauthAppMachine, app.status, event, {}, timestampFromMillis(atMillis))
  return status === undefined ? undefined : { ...app, status }
}

export class OAuthStore extends Context.Service<OAuthStore, {
  readonly insertApp: (app: OAuthApp) => Effect.Effect<void>
  readonly appsOf: (organisation: string) => Effect.Effect<ReadonlyArray<OAuthApp>>
  readonly appById: (id: string) => Effect.Effect<OAuthApp | undefined>
  readonly appByClientId: (clientId: string) => Effect.Effect<OAuthApp | undefined>
  /**
   * Moves the app by its machine, read and written in one step (on SQL the row is locked from the
   * read to the write, and waits for the exchanges that hold it); an event the machine refuses
   * leaves it as it is. Answers the app as it is after, undefined when there is none.
   */
  readonly moveApp: (id: string, event: OAuthAppEvent) => Effect.Effect<OAuthApp | undefined>
  /** The operator's approval of the app's payment pages (no API sets it: the real service's review does). */
  readonly setPaymentPagesApproved: (id: string, approved: boolean) => Effect.Effect<void>
  readonly insertCode: (code: OAuthCode) => Effect.Effect<void>
  /** Marks the code used and returns it as it was (one step: two exchanges of one code never both see it unused). */
  readonly consumeCode: (codeHash: string) => Effect.Effect<ConsumedCode | undefined>
  readonly setCodeToken: (codeHash: string, tokenId: string) => Effect.Effect<void>
  readonly insertGrant: (grant: OAuthGrant) => Effect.Effect<void>
  readonly grantOf: (tokenId: string) => Effect.Effect<OAuthGrant | undefined>
  /** The grants of an app for one organisation, or for all its organisations. */
  readonly grantsOf: (app: string, organisation?: string) => Effect.Effect<ReadonlyArray<OAuthGrant>>
  /**
   * Runs a code's exchange as one unit: on SQL a transaction, so the code's row stays locked from
   * its consumption to the token recorded on it (a concurrent reuse waits, then sees that token).
   */
  readonly exclusive: <A, R>(effect: Effect.Effect<A, never, R>) => Effect.Effect<A, never, R>
  /**
   * Inside `exclusive`: the app, held until the exchange ends against a concurrent disable (on SQL
   * `FOR SHARE`: `disableApp`'s update waits for the exchange, then finds its grant).
   */
  readonly appForExchange: (id: string) => Effect.Effect<OAuthApp | undefined>
  /** Inside `exclusive`: waits for every other exchange of the app for the organisation to finish (one connection at a time). */
  readonly lockConnection: (app: string, organisation: string) => Effect.Effect<void>
}>()("@paykit/server/OAuthStore") {
  static readonly layerMemory: Layer.Layer<OAuthStore> = Layer.effect(OAuthStore, Effect.map(Semaphore.make(1), (lock) => memoryStore(lock)))

  static readonly layerSql: Layer.Layer<OAuthStore, never, SqlClient.SqlClient> = Layer.effect(
    OAuthStore,
    Effect.gen(function*() {
      return sqlStore(yield* SqlClient.SqlClient, yield* topologyOf)
    })
  )
}

// In memory one lock serialises every exchange: enough for one process, which is all memory serves.
const memoryStore = (exchanges: Semaphore.Semaphore): OAuthStore["Service"] => {
    const apps = new Map<string, OAuthApp>()
    const codes = new Map<string, { code: OAuthCode; used: boolean; token: string | null }>()
    const grants = new Map<string, OAuthGrant>()
    return OAuthStore.of({
      insertApp: (app) => Effect.sync(() => void apps.set(app.id, app)),
      appsOf: (organisation) => Effect.sync(() => [...apps.values()].filter((a) => a.organisation === organisation)),
      appById: (id) => Effect.sync(() => apps.get(id)),
      appForExchange: (id) => Effect.sync(() => apps.get(id)),
      appByClientId: (clientId) => Effect.sync(() => [...apps.values()].find((a) => a.clientId === clientId)),
      moveApp: (id, event) =>
        Effect.map(Clock.currentTimeMillis, (at) => {
          const app = apps.get(id)
          const next = app === undefined ? undefined : appAfter(app, event, at)
          if (next !== undefined) apps.set(id, next)
          return next ?? app
        }),
      setPaymentPagesApproved: (id, approved) =>
        Effect.sync(() => {
          const app = apps.get(id)
          if (app !== undefined) apps.set(id, { ...app, paymentPagesApproved: approved })
        }),
      insertCode: (code) => Effect.sync(() => void codes.set(code.codeHash, { code, used: false, token: null })),
      consumeCode: (codeHash) =>
        Effect.sync(() => {
          const row = codes.get(codeHash)
          if (row === undefined) return undefined
          codes.set(codeHash, { ...row, used: true })
          return { code: row.code, usedBefore: row.used, issuedToken: row.token }
        }),
      setCodeToken: (codeHash, tokenId) =>
        Effect.sync(() => {
          const row = codes.get(codeHash)
          if (row !== undefined) codes.set(codeHash, { ...row, token: tokenId })
        }),
      insertGrant: (grant) => Effect.sync(() => void grants.set(grant.tokenId, grant)),
      grantOf: (tokenId) => Effect.sync(() => grants.get(tokenId)),
      grantsOf: (app, organisation) =>
        Effect.sync(() => [...grants.values()].filter((g) => g.app === app && (organisation === undefined || g.organisation === organisation))),
      exclusive: (effect) => exchanges.withPermits(1)(effect),
      lockConnection: () => Effect.void
    })
}

const AppRow = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  creditor_id: Schema.String,
  name: Schema.String,
  redirect_uris: Schema.Union([Schema.Array(Schema.String), Schema.fromJsonString(Schema.Array(Schema.String))]),
  webhook_url: Schema.NullOr(Schema.String),
  webhook_secret_sealed: Schema.NullOr(Schema.String),
  client_id: Schema.String,
  client_secret_hash: Schema.String,
  status: Schema.Literals(OAUTH_APP_STATUSES),
  payment_pages_approved: Schema.Boolean,
  created_at: Schema.String
})
const decodeApps = Schema.decodeUnknownEffect(Schema.Array(AppRow))

const appOf = (row: typeof AppRow.Type): OAuthApp => ({
  id: row.id,
  organisation: row.organisation_id,
  creditor: row.creditor_id,
  name: row.name,
  redirectUris: row.redirect_uris,
  webhookUrl: row.webhook_url,
  webhookSecretSealed: row.webhook_secret_sealed,
  clientId: row.client_id,
  clientSecretHash: row.client_secret_hash,
  status: row.status,
  paymentPagesApproved: row.payment_pages_approved,
  createdAt: row.created_at
})

const CodeRow = Schema.Struct({
  code_hash: Schema.String,
  app_id: Schema.String,
  organisation_id: Schema.String,
  scope: Schema.Literals(ACCESS_SCOPES),
  redirect_uri: Schema.String,
  email: Schema.String,
  expires_at: DbInteger,
  used_before: Schema.Boolean,
  token_id: Schema.NullOr(Schema.String)
})
const decodeCodes = Schema.decodeUnknownEffect(Schema.Array(CodeRow))

const CODE_COLUMNS = "code_hash, app_id, organisation_id, scope, redirect_uri, email, expires_at, token_id"

const consumedOf = (row: typeof CodeRow.Type): ConsumedCode => ({
  code: {
    codeHash: row.code_hash,
    app: row.app_id,
    organisation: row.organisation_id,
    scope: row.scope,
    redirectUri: row.redirect_uri,
    email: row.email,
    expiresAt: row.expires_at
  },
  usedBefore: row.used_before,
  issuedToken: row.token_id
})

const GrantRow = Schema.Struct({ token_id: Schema.String, app_id: Schema.String, organisation_id: Schema.String, email: Schema.String })
const decodeGrants = Schema.decodeUnknownEffect(Schema.Array(GrantRow))
const grantOfRow = (row: typeof GrantRow.Type): OAuthGrant => ({ tokenId: row.token_id, app: row.app_id, organisation: row.organisation_id, email: row.email })

const APP_COLUMNS = "id, organisation_id, creditor_id, name, redirect_uris, webhook_url, webhook_secret_sealed, client_id, client_secret_hash, status, payment_pages_approved, created_at"

// A database failure here is a defect, as on the access tokens' path: the request answers 500.
const sqlStore = (sql: SqlClient.SqlClient, topology: Topology): OAuthStore["Service"] => {
  const apps = (rows: Effect.Effect<ReadonlyArray<unknown>, unknown>) => Effect.orDie(Effect.map(Effect.flatMap(rows, decodeApps), (r) => r.map(appOf)))
  const grants = (rows: Effect.Effect<ReadonlyArray<unknown>, unknown>) => Effect.orDie(Effect.map(Effect.flatMap(rows, decodeGrants), (r) => r.map(grantOfRow)))
  return OAuthStore.of({
    insertApp: (a) =>
      Effect.orDie(sql`INSERT INTO oauth_apps (${sql.literal(APP_COLUMNS)}) VALUES (${a.id}, ${a.organisation}, ${a.creditor}, ${a.name},
        ${JSON.stringify(a.redirectUris)}::jsonb, ${a.webhookUrl}, ${a.webhookSecretSealed}, ${a.clientId}, ${a.clientSecretHash}, ${a.status}, ${a.paymentPagesApproved}, ${a.createdAt})`),
    appsOf: (organisation) => apps(sql`SELECT ${sql.literal(APP_COLUMNS)} FROM oauth_apps WHERE organisation_id = ${organisation} ORDER BY id`),
    appById: (id) => Effect.map(apps(sql`SELECT ${sql.literal(APP_COLUMNS)} FROM oauth_apps WHERE id = ${id}`), (r) => r[0]),
    appByClientId: (clientId) => Effect.map(apps(sql`SELECT ${sql.literal(APP_COLUMNS)} FROM oauth_apps WHERE client_id = ${clientId}`), (r) => r[0]),
    appForExchange: (id) => Effect.map(apps(sql`SELECT ${sql.literal(APP_COLUMNS)} FROM oauth_apps WHERE id = ${id} FOR SHARE`), (r) => r[0]),
    moveApp: (id, event) =>
      Effect.orDie(sql.withTransaction(Effect.gen(function*() {
        const app = (yield* apps(sql`SELECT ${sql.literal(APP_COLUMNS)} FROM oauth_apps WHERE id = ${id} FOR UPDATE`))[0]
        const next = app === undefined ? undefined : appAfter(app, event, yield* Clock.currentTimeMillis)
        if (next !== undefined) yield* sql`UPDATE oauth_apps SET status = ${next.status} WHERE id = ${id}`
        return next ?? app
      }))),
    setPaymentPagesApproved: (id, approved) => Effect.orDie(sql`UPDATE oauth_apps SET payment_pages_approved = ${approved} WHERE id = ${id}`),
    insertCode: (c) =>
      Effect.orDie(sql`INSERT INTO oauth_codes (code_hash, app_id, organisation_id, scope, redirect_uri, email, expires_at)
        VALUES (${c.codeHash}, ${c.app}, ${c.organisation}, ${c.scope}, ${c.redirectUri}, ${c.email}, ${c.expiresAt})`),
    // The first use is the one UPDATE that finds the code unused (PostgreSQL re-checks `NOT used`
    // after waiting on a concurrent exchange's lock); any other exchange reads it as used.
    consumeCode: (codeHash) =>
      Effect.gen(function*() {
        const first = yield* sql`UPDATE oauth_codes SET used = true WHERE code_hash = ${codeHash} AND NOT used
          RETURNING ${sql.literal(CODE_COLUMNS)}, false AS used_before`
        const rows = first.length > 0 ? first : yield* sql`SELECT ${sql.literal(CODE_COLUMNS)}, used AS used_before FROM oauth_codes WHERE code_hash = ${codeHash}`
        const row = (yield* decodeCodes(rows))[0]
        return row === undefined ? undefined : consumedOf(row)
      }).pipe(Effect.orDie),
    setCodeToken: (codeHash, tokenId) => Effect.orDie(sql`UPDATE oauth_codes SET token_id = ${tokenId} WHERE code_hash = ${codeHash}`),
    insertGrant: (g) =>
      Effect.orDie(sql`INSERT INTO oauth_grants (token_id, app_id, organisation_id, email) VALUES (${g.tokenId}, ${g.app}, ${g.organisation}, ${g.email})`),
    grantOf: (tokenId) =>
      Effect.map(grants(sql`SELECT token_id, app_id, organisation_id, email FROM oauth_grants WHERE token_id = ${tokenId}`), (r) => r[0]),
    grantsOf: (app, organisation) =>
      grants(organisation === undefined
        ? sql`SELECT token_id, app_id, organisation_id, email FROM oauth_grants WHERE app_id = ${app} ORDER BY token_id`
        : sql`SELECT token_id, app_id, organisation_id, email FROM oauth_grants WHERE app_id = ${app} AND organisation_id = ${organisation} ORDER BY token_id`),
    // BEGIN or COMMIT failing is the database's failure: a defect, as every query here.
    exclusive: (effect) => Effect.orDie(sql.withTransaction(effect)),
    // A transaction-scoped advisory lock: held to COMMIT, across every process on the database.
    // Advisory locks are the database's, not a schema's: the key names the schema too, so another
    // paykit in another schema of the database never waits on this one's connections. On Citus an
    // advisory lock is one node's, and processes reach different nodes: the lock is the
    // organisation's `organisation_locks` row for the app (server migration 0015), written (and so
    // locked to COMMIT) on its worker.
    lockConnection: (app, organisation) =>
      Effect.orDie(topology._tag === "Distributed"
        ? sql`INSERT INTO organisation_locks (organisation_id, name) VALUES (${organisation}, ${`oauth_connection:${app}`})
            ON CONFLICT (organisation_id, name) DO UPDATE SET name = EXCLUDED.name`
        : sql`SELECT pg_advisory_xact_lock(hashtext(current_schema() || '/' || ${app}), hashtext(${organisation}))`)
  })
}
