import type { Effect } from "effect"
import { Migrator } from "effect/sql"
import type { SqlClient } from "effect/sql"
import resourceTables from "./0001_resource_tables.ts"
import outbox from "./0002_outbox.ts"
import idempotencyKeys from "./0003_idempotency_keys.ts"
import onePayerThemePerCreditor from "./0004_one_payer_theme_per_creditor.ts"
import transitions from "./0005_transitions.ts"
import dueWork from "./0006_due_work.ts"
import outboxByOrganisation from "./0007_outbox_by_organisation.ts"
import dueOnIndex from "./0008_due_on_index.ts"
import filterIndexes from "./0020_filter_indexes.ts"
import dueOnFilterIndex from "./0021_due_on_filter_index.ts"
import eventsRetention from "./0030_events_retention.ts"
import createdAtPartial from "./0055_created_at_partial.ts"
import sideRecordsBackfill from "./0056_side_records_backfill.ts"
import opsFilterIndexes from "./0057_ops_filter_indexes.ts"
import flowFilterIndexes from "./0058_flow_filter_indexes.ts"
import moneyReads from "./0059_money_reads.ts"
import customerRemovedFilter from "./0060_customer_removed_filter.ts"
import outboxWithoutEventCheck from "./0061_outbox_without_event_check.ts"
import oneLogoPerCreditor from "./0062_one_logo_per_creditor.ts"
import idempotencyResource from "./0063_idempotency_resource.ts"
import transitionsRetention from "./0064_transitions_retention.ts"
import dueRealTime from "./0065_due_real_time.ts"
import listOrders from "./0066_list_orders.ts"
import outboxByOrganisationKey from "./0067_outbox_by_organisation_key.ts"
import bankRailsFilterIndexes from "./0068_bank_rails_filter_indexes.ts"
import dueWorkTrace from "./0069_due_work_trace.ts"
import { REQUEST_LOG_MIGRATIONS } from "../request-log.ts"
import outboxTrace from "./0072_outbox_trace.ts"
import outboxByEvent from "./0073_outbox_by_event.ts"
import customersListedByName from "./0074_customers_listed_by_name.ts"
import eventTrace from "./0075_event_trace.ts"
import outboxByStatement from "./0076_outbox_by_statement.ts"

/**
 * Every migration, keyed `<id>_<name>` as the migrator expects; a new one is a new numbered file.
 * Its number must be above every number already on main, whatever range it was written under:
 * the migrator applies only numbers above the latest one a database has applied, so a lower
 * number merged later would never run on an existing database. Work done in parallel takes its
 * numbers when it is merged (the gaps below are from earlier parallel ranges, and harmless).
 */
export const MIGRATIONS: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>> = {
  "0001_resource_tables": resourceTables,
  "0002_outbox": outbox,
  "0003_idempotency_keys": idempotencyKeys,
  "0004_one_payer_theme_per_creditor": onePayerThemePerCreditor,
  "0005_transitions": transitions,
  "0006_due_work": dueWork,
  "0007_outbox_by_organisation": outboxByOrganisation,
  "0008_due_on_index": dueOnIndex,
  "0020_filter_indexes": filterIndexes,
  "0021_due_on_filter_index": dueOnFilterIndex,
  "0030_events_retention": eventsRetention,
  "0055_created_at_partial": createdAtPartial,
  "0056_side_records_backfill": sideRecordsBackfill,
  "0057_ops_filter_indexes": opsFilterIndexes,
  "0058_flow_filter_indexes": flowFilterIndexes,
  "0059_money_reads": moneyReads,
  "0060_customer_removed_filter": customerRemovedFilter,
  "0061_outbox_without_event_check": outboxWithoutEventCheck,
  "0062_one_logo_per_creditor": oneLogoPerCreditor,
  "0063_idempotency_resource": idempotencyResource,
  "0064_transitions_retention": transitionsRetention,
  "0065_due_real_time": dueRealTime,
  "0066_list_orders": listOrders,
  "0067_outbox_by_organisation_key": outboxByOrganisationKey,
  "0068_bank_rails_filter_indexes": bankRailsFilterIndexes,
  "0069_due_work_trace": dueWorkTrace,
  // The request log's own set: the server's request log thread migrates a database of the log alone with it.
  ...REQUEST_LOG_MIGRATIONS,
  "0072_outbox_trace": outboxTrace,
  "0073_outbox_by_event": outboxByEvent,
  "0074_customers_listed_by_name": customersListedByName,
  "0075_event_trace": eventTrace,
  "0076_outbox_by_statement": outboxByStatement
}

/** The migrations that change rows, not the schema (`migrations.test.ts` checks every other one changes it). */
export const DATA_MIGRATION_IDS: ReadonlySet<number> = new Set([56])

export const MIGRATIONS_TABLE = "paykit_migrations"

/**
 * Brings the database (the schema the client's search path names) up to `upTo` (default: every
 * migration). Each run is one transaction, and concurrent runs are serialised by a table lock.
 */
export const migrate = (upTo?: number) => {
  const selected = Object.fromEntries(
    Object.entries(MIGRATIONS).filter(([key]) => upTo === undefined || Number(key.slice(0, 4)) <= upTo)
  )
  return Migrator.make({})({ loader: Migrator.fromRecord(selected), table: MIGRATIONS_TABLE })
}

/** The ids of every migration, ascending; numbers may leave gaps (ranges handed to parallel work). */
export const MIGRATION_IDS: ReadonlyArray<number> = Object.keys(MIGRATIONS).map((key) => Number(key.slice(0, 4))).sort((a, b) => a - b)

export const latestMigration: number = Math.max(...MIGRATION_IDS)

