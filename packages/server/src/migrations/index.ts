import type { Effect } from "effect"
import { Migrator } from "effect/sql"
import type { SqlClient } from "effect/sql"
import { type DistributionPlan, type MigrationSet, mergePlans, STORE_DISTRIBUTION } from "@paykit/store-sql"
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
import organisationLocks from "./0015_organisation_locks.ts"

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
  "0014_access_token_display": accessTokenDisplay,
  "0015_organisation_locks": organisationLocks
}

export const SERVER_MIGRATIONS_TABLE = "paykit_server_migrations"

/** Brings the server's tables up to date; one transaction, serialised by the migrator's lock. */
export const migrateServer = Migrator.make({})({
  loader: Migrator.fromRecord(SERVER_MIGRATIONS),
  table: SERVER_MIGRATIONS_TABLE
})

export const latestServerMigration: number = Math.max(...Object.keys(SERVER_MIGRATIONS).map((key) => Number(key.slice(0, 4))))

/**
 * Where the server's tables live on Citus (docs/storage.md, "Citus"), besides those keyed by
 * organisation first (rate-limit windows, organisation locks), which are distributed with the
 * engine's:
 *
 * - reference tables, a copy on every node: `organisations` (every organisation-keyed lookup of the
 *   server's own starts there, and the tokens and apps reference it), `access_tokens` (found by
 *   their hash on every request, from whichever node the process reaches), the OAuth apps, codes
 *   and grants (found by client id, code and token, none by organisation first), and
 *   `server_key_checks` (read by every process at start);
 * - on the coordinator: the migrator's bookkeeping, reachable from a process on a worker.
 *
 * The triggers that copy an organisation's clock to its tokens would write a reference table from a
 * worker's shard, which Citus refuses: on a cluster the token lookup reads the clock itself
 * (`SqlAccessTokens`), and they are dropped.
 */
export const SERVER_DISTRIBUTION: DistributionPlan = {
  reference: ["organisations", "access_tokens", "oauth_apps", "oauth_codes", "oauth_grants", "server_key_checks"],
  coordinator: [SERVER_MIGRATIONS_TABLE],
  singleNodeTriggers: [
    { table: "organisation_clocks", trigger: "organisation_clock_to_tokens" },
    { table: "organisation_clocks", trigger: "organisation_clock_change_to_tokens" },
    { table: "access_tokens", trigger: "access_token_takes_clock" }
  ]
}

/** The server's migrations as store-sql's start-up runs them after its own (`MoreMigrations`). */
export const SERVER_MIGRATION_SET: MigrationSet = {
  run: migrateServer,
  table: SERVER_MIGRATIONS_TABLE,
  latest: latestServerMigration,
  plan: SERVER_DISTRIBUTION
}

/** Where every table of a server's schema lives on Citus: store-sql's plan and the server's, the one list a test checks every table against. */
export const PAYKIT_DISTRIBUTION: DistributionPlan = mergePlans(STORE_DISTRIBUTION, SERVER_DISTRIBUTION)
