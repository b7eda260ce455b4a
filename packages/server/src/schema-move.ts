import { checkSchemaName, MIGRATIONS_TABLE } from "@paykit/store-sql"
import { SERVER_MIGRATIONS_TABLE } from "./migrations/index.ts"

/**
 * Every table the migrations (store-sql's and the server's) leave in a database, bookkeeping
 * included; `schemas.test.ts` fails when a migration adds one that is not here.
 */
const TABLES = [
  "resources", "events", "transitions", "outbox", "idempotency_keys", "due_work", "request_log", MIGRATIONS_TABLE,
  "organisations", "access_tokens", "organisation_clocks", "rate_limit_windows", "oauth_apps", "oauth_codes", "oauth_grants", "server_key_checks",
  "organisation_locks",
  SERVER_MIGRATIONS_TABLE
] as const

/** The triggers' functions (none takes arguments). */
const FUNCTIONS = ["events_append_only", "transitions_append_only", "outbox_enqueue_appended", "access_token_takes_clock", "organisation_clock_to_tokens",
  "due_work_real_time", "organisation_clock_to_due_work"] as const

/**
 * The statements that move a server's tables from `public` (where they are without
 * `PAYKIT_DB_SCHEMA`) into `schema`, to run in one transaction with every paykit process stopped.
 * Indexes, constraints, triggers and owned sequences move with their tables; the functions' bodies
 * name tables unqualified, which the moved server's search path resolves.
 */
export const schemaMoveStatements = (schema: string): ReadonlyArray<string> => {
  const target = checkSchemaName(schema)
  return [
    `CREATE SCHEMA IF NOT EXISTS ${target}`,
    ...TABLES.map((table) => `ALTER TABLE public.${table} SET SCHEMA ${target}`),
    ...FUNCTIONS.map((fn) => `ALTER FUNCTION public.${fn}() SET SCHEMA ${target}`)
  ]
}
