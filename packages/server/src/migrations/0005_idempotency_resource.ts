import { Effect } from "effect"

/**
 * Once the change of `idempotency_keys` to keep a resource id instead of a response. The table is
 * store-sql's, so that change is now its migration 0063, which runs first and skips a database where
 * this one already made it; this number stays so that the databases which ran it keep their record.
 */
export default Effect.void
