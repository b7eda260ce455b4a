import { Layer } from "effect"
import { WebhookOutboxSql } from "./outbox.ts"
import { RetentionSql } from "./retention.ts"
import { SqlStorage } from "./sql-storage.ts"

/**
 * What the engine's `productionEngine` is built on (its `ProductionStorage`): `SqlStorage`, with
 * its outbox as the engine's `WebhookOutbox` (webhook deliveries) and `RetentionSql` (old events,
 * webhook records and idempotency keys removed). Provide a `SqlClient` (`PgliteClient.layer`,
 * `postgresClient`, in a schema of its own with `inSchema`).
 */
export const ProductionSqlStorage = Layer.mergeAll(WebhookOutboxSql, RetentionSql).pipe(Layer.provideMerge(SqlStorage))
