import type { Effect } from "effect"
import { Migrator } from "effect/sql"
import type { SqlClient } from "effect/sql"
import organisations from "./0001_organisations.ts"
import accessTokens from "./0002_access_tokens.ts"
import sandboxClock from "./0003_sandbox_clock.ts"
import accessTokenApps from "./0004_access_token_apps.ts"
import idempotencyResource from "./0005_idempotency_resource.ts"
import organisationClocks from "./0006_organisation_clocks.ts"
import rateLimitWindows from "./0007_rate_limit_windows.ts"
import accessTokenClockOffset from "./0008_access_token_clock_offset.ts"
import clockCopyOnChange from "./0009_clock_copy_on_change.ts"
import oauth from "./0010_oauth.ts"
import operatorOrganisations from "./0011_operator_organisations.ts"
import serverKeyChecks from "./0012_server_key_checks.ts"
import organisationOrigin from "./0013_organisation_origin.ts"
import accessTokenDisplay from "./0014_access_token_display.ts"

/**
 * The server's own tables, numbered on their own: they are recorded in a separate migrations
 * table, so store-sql's numbering and this one never collide. A new one takes the next number:
 * the migrator applies only numbers above the latest a database has run.
 */
export const SERVER_MIGRATIONS: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>> = {
  "0001_organisations": organisations,
  "0002_access_tokens": accessTokens,
  "0003_sandbox_clock": sandboxClock,
  "0004_access_token_apps": accessTokenApps,
  "0005_idempotency_resource": idempotencyResource,
  "0006_organisation_clocks": organisationClocks,
  "0007_rate_limit_windows": rateLimitWindows,
  "0008_access_token_clock_offset": accessTokenClockOffset,
  "0009_clock_copy_on_change": clockCopyOnChange,
  "0010_oauth": oauth,
  "0011_operator_organisations": operatorOrganisations,
  "0012_server_key_checks": serverKeyChecks,
  "0013_organisation_origin": organisationOrigin,
  "0014_access_token_display": accessTokenDisplay
}

export const SERVER_MIGRATIONS_TABLE = "paykit_server_migrations"

/** Brings the server's tables up to date; one transaction, serialised by the migrator's lock. */
export const migrateServer = Migrator.make({})({
  loader: Migrator.fromRecord(SERVER_MIGRATIONS),
  table: SERVER_MIGRATIONS_TABLE
})
