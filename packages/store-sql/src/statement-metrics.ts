import { Effect } from "effect"
import { labelled, PaykitMetrics } from "@paykit/engine"

/**
 * store-sql names its statements for `paykit_db_statement_duration_seconds`: the table (or area)
 * and what the statement does (`resources.get`, `due_work.claim`), a fixed set whatever the data.
 * The time is the statement's as this process waits for it, connection acquisition included.
 */

const durationOf = labelled(PaykitMetrics.dbStatementDuration)

/** Runs `statement`, recording its time under `name` into the registry of the fiber's context; whatever its exit. */
export const timedStatement = <A, E, R>(name: string, statement: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const metric = durationOf({ statement: name })
  return Effect.withFiber((fiber) => {
    const started = performance.now()
    return Effect.ensuring(statement, Effect.sync(() => metric.updateUnsafe((performance.now() - started) / 1000, fiber.context)))
  })
}

/** `timedStatement` for the statements of one table: `named("get", ...)` is `<table>.get`. */
export const namedStatements = (table: string) => <A, E, R>(operation: string, statement: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  timedStatement(`${table}.${operation}`, statement)
