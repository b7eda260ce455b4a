import { randomUUID } from "node:crypto"
import { PGlite } from "@electric-sql/pglite"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as PgliteClient from "../../src/pglite-client.ts"

// One PGlite per test worker: booting one takes seconds, a schema takes milliseconds.
let shared: Promise<PGlite> | undefined
export const sharedPglite = (): Promise<PGlite> => (shared ??= PGlite.create())

export const freshSchemaName = (): string => `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`

/**
 * A client on the worker's PGlite in a schema of its own, created for the layer and dropped with it.
 */
export const isolatedPglite = (): Layer.Layer<PgliteClient.PgliteClient | SqlClient.SqlClient, unknown> =>
  Layer.unwrap(
    Effect.gen(function*() {
      const instance = yield* Effect.promise(sharedPglite)
      const schema = freshSchemaName()
      yield* Effect.acquireRelease(
        Effect.promise(() => instance.query(`CREATE SCHEMA ${schema}`)),
        () => Effect.promise(() => instance.query(`DROP SCHEMA ${schema} CASCADE`))
      )
      return PgliteClient.layer({ instance, searchPath: schema })
    })
  )
