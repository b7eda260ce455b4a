/**
 * @paykit/store-sql: the engine's storage ports on PostgreSQL (`@effect/sql-pg`) or embedded PGlite,
 * one set of tables for both, in a PostgreSQL schema of their own, migrated at start-up.
 */
export { DbInteger } from "./db-integer.ts"
export { latestMigration, migrate, MIGRATION_IDS, MIGRATIONS, MIGRATIONS_TABLE } from "./migrations/index.ts"
export { Outbox, type OutboxEntry, WebhookOutboxSql, webhookOutboxOf } from "./outbox.ts"
export * as PgliteClient from "./pglite-client.ts"
export { makeSqlRepository } from "./sql-repository.ts"
export {
  makeTransactor,
  pgliteInSchema,
  PgliteStorage,
  PostgresStorage,
  type SchemaOption,
  SqlStorage,
  type SqlStorageServices,
  StorageFromEnvironment
} from "./sql-storage.ts"
export { checkSchemaName, DEFAULT_SCHEMA, ensureSchema, inSchema, isSchemaName, postgresClient, SCHEMA_NAME_RULE, SchemaName } from "./schema.ts"
export { makeSqlDueWorkStore } from "./due-work.ts"
export {
  analyze,
  MAINTENANCE_HOUR_UTC,
  MAINTENANCE_KIND,
  MAINTENANCE_ORGANISATION,
  nextMaintenanceAt,
  scheduleMaintenance,
  storageMaintenance
} from "./maintenance.ts"
export { makeRetentionSql, RetentionSql } from "./retention.ts"
export { analyzeGrown, makeStatisticsKeeper, STATISTICS_GROWTH_PAGES, STATISTICS_LOOK_MILLIS } from "./statistics.ts"
export { ProductionSqlStorage } from "./production-storage.ts"
export {
  CITUS_REFUSALS,
  CITUS_SETTINGS,
  CitusRefused,
  CitusSetting,
  citusNode,
  type CitusNode,
  distribute,
  DISTRIBUTION_COLUMN,
  type DistributionPlan,
  majorMinor,
  mergePlans,
  migrateOn,
  type MigrateOptions,
  type MigrationSet,
  MoreMigrations,
  type Placement,
  placementOf,
  placementsOf,
  readingReachableShards,
  type SchemaState,
  type StartPlan,
  startPlan,
  STORE_DISTRIBUTION,
  TESTED_CITUS_VERSIONS,
  type Topology,
  topologyOf,
  UnplacedTable,
  withAppendOnlyDeletes
} from "./citus.ts"
export { CITUS_ROUTING_SETTINGS, type CitusRouting, makeRoutedClient, PLACEMENT_TTL_MILLIS, placementStatement, type RoutedOptions, routedOnCitus, UNREACHABLE_MILLIS } from "./citus-routing.ts"
export { STORE_MIGRATIONS, type StorageStartError } from "./sql-storage.ts"
export { migratedPglite, migratedPgliteClient, pgliteTemplate, type PgliteTemplateOptions, templateKey } from "./pglite-template.ts"
export { dueBacklog, dueBacklogStatement, GAUGE_COUNT_BOUND, migrationsBehind, type MigrationsBehind, outboxDepth } from "./gauges.ts"
export { namedStatements, timedStatement } from "./statement-metrics.ts"
