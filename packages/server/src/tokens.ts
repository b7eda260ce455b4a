import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { newId } from "@paykit/core"
import { ACCESS_SCOPES, ACCESS_TOKEN_STATUSES, type AccessScope, AccessTokens, issueAccessToken } from "@paykit/http"

/**
 * Access tokens made, listed and revoked on the store itself, with no server running (`npm run
 * token`, `paykit token`): for the operator who lost the token the first start printed, or who
 * wants one more. A token is printed once and never stored in clear (docs/server.md).
 */

const OrganisationRow = Schema.Struct({ id: Schema.String, environment: Schema.String })
const decodeOrganisations = Schema.decodeUnknownEffect(Schema.Array(OrganisationRow))

/** The organisation named, or the first one (the first start's); undefined when the store has none (or not that one). */
export const organisationOf = (id: string | undefined) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* Effect.flatMap(
      id === undefined
        ? sql`SELECT id, environment FROM organisations ORDER BY created_at, id LIMIT 1`
        : sql`SELECT id, environment FROM organisations WHERE id = ${id}`,
      decodeOrganisations
    )
    return rows[0]
  })

export interface MadeToken {
  readonly id: string
  readonly organisation: string
  readonly scope: AccessScope
  readonly access_token: string
}

export const createToken = (organisation: string, scope: AccessScope) =>
  Effect.gen(function*() {
    const id = yield* newId("access_token")
    const token = yield* issueAccessToken({ id, organisation, scope })
    return { id, organisation, scope, access_token: token } satisfies MadeToken
  })

/** A timestamp column's value in milliseconds: PGlite's and PostgreSQL's drivers give a `Date`; undefined for null. */
export const instantOf = (value: unknown): number | undefined =>
  value instanceof Date ? value.getTime() : typeof value === "string" ? Date.parse(value) : undefined

/** A timestamp column's value as ISO 8601; null for null. */
export const isoTimestampOf = (value: unknown): string | null => {
  const at = instantOf(value)
  return at === undefined || Number.isNaN(at) ? null : new Date(at).toISOString()
}

const TokenRow = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  scope: Schema.Literals(ACCESS_SCOPES),
  status: Schema.Literals(ACCESS_TOKEN_STATUSES),
  app_organisation_id: Schema.NullOr(Schema.String),
  display_prefix: Schema.NullOr(Schema.String),
  created_at: Schema.Union([Schema.String, Schema.Date]),
  last_used_at: Schema.Unknown
})
const decodeTokens = Schema.decodeUnknownEffect(Schema.Array(TokenRow))

/**
 * The tokens (never their secrets: a prefix of a token paykit made, `display_prefix`), oldest
 * first, with when each was last used (to the minute; null if never since migration 0014); of one
 * organisation when named.
 */
export const listTokens = (organisation: string | undefined) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* Effect.flatMap(
      organisation === undefined
        ? sql`SELECT id, organisation_id, scope, status, app_organisation_id, display_prefix, created_at, last_used_at FROM access_tokens ORDER BY created_at, id`
        : sql`SELECT id, organisation_id, scope, status, app_organisation_id, display_prefix, created_at, last_used_at FROM access_tokens WHERE organisation_id = ${organisation} ORDER BY created_at, id`,
      decodeTokens
    )
    return rows.map((row) => ({
      id: row.id,
      organisation: row.organisation_id,
      scope: row.scope,
      status: row.status,
      app_organisation: row.app_organisation_id,
      display_prefix: row.display_prefix,
      created_at: isoTimestampOf(row.created_at) ?? "",
      last_used_at: isoTimestampOf(row.last_used_at)
    }))
  })

/** Revokes the token (the access-token machine's `revoke`); its status after, undefined when there is no such token. */
export const revokeToken = (id: string) =>
  Effect.gen(function*() {
    const tokens = yield* AccessTokens
    yield* tokens.move(id, "revoke")
    return yield* tokens.statusOf(id)
  })
