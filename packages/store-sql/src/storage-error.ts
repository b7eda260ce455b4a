import { Effect } from "effect"
import { StorageError } from "@paykit/core"
import { isSqlError, type SqlError } from "effect/sql/SqlError"

/**
 * SQLSTATE class 57's shutdowns (`admin_shutdown`, a connection killed by `pg_terminate_backend`;
 * `crash_shutdown`; `cannot_connect_now`): the connection is gone with its transaction, so nothing
 * was kept and a retry on a new one may succeed. The driver classes them unknown, not retryable.
 */
const SHUTDOWN_STATES: ReadonlySet<string> = new Set(["57P01", "57P02", "57P03"])

/** The SQLSTATE the server answered with, where the driver kept it (on its error's `code`). */
const sqlStateOf = (error: SqlError): string | undefined => {
  const cause: unknown = error.reason.cause
  const code: unknown = typeof cause === "object" && cause !== null ? Reflect.get(cause, "code") : undefined
  return typeof code === "string" ? code : undefined
}

/**
 * The ports' `StorageError` of a driver's `SqlError`: retryable as the driver classed it (a
 * serialization failure, a deadlock, a lock or statement timeout, a lost connection) or when the
 * server shut the connection down, the `SqlError` kept as its cause for the logs.
 */
export const storageErrorOf = (operation: string, error: SqlError): StorageError =>
  new StorageError({ operation, retryable: error.isRetryable || SHUTDOWN_STATES.has(sqlStateOf(error) ?? ""), cause: error })

/**
 * A statement's failure as the ports type it: its `SqlError` a `StorageError`. Anything else it
 * fails with (a stored row that does not decode: data no migration wrote) stays a defect.
 */
export const orStorageError = (operation: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, StorageError, R> =>
  Effect.catch(effect, (error) => isSqlError(error) ? Effect.fail(storageErrorOf(operation, error)) : Effect.die(error))
