import { Clock, Context, Effect, Layer, Schema } from "effect"
import { type DueWorkSchedule, scheduleFirstDailyRun, scheduleFirstRetentionRun } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import { SERVER_MODES, type ServerMode } from "./config.ts"

/** The organisations this server hosts (`organisations`, migration 0001). */

export interface Organisation {
  readonly id: string
  readonly name: string
  readonly environment: ServerMode
}

const OrganisationRow = Schema.Struct({ id: Schema.String, name: Schema.String, environment: Schema.Literals(SERVER_MODES) })
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(OrganisationRow))

export class Organisations extends Context.Service<Organisations, {
  /** Every organisation, oldest first. */
  readonly all: Effect.Effect<ReadonlyArray<Organisation>>
  /** Adds an organisation, with its first daily run and retention run (on real time: a new organisation's clock has no offset), in one transaction. */
  readonly insert: (organisation: Organisation) => Effect.Effect<void>
}>()("@paykit/server/Organisations") {
  static readonly layerSql: Layer.Layer<Organisations, never, SqlClient.SqlClient | DueWorkSchedule> = Layer.effect(
    Organisations,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const context = yield* Effect.context<DueWorkSchedule>()
      // Taken at build: an organisation made inside a request must not start on the caller's clock.
      const real = yield* Clock.Clock
      return Organisations.of({
        all: sql`SELECT id, name, environment FROM organisations ORDER BY created_at, id`.pipe(Effect.flatMap(decodeRows), Effect.orDie),
        insert: (o) =>
          Effect.orDie(sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO organisations (id, name, environment) VALUES (${o.id}, ${o.name}, ${o.environment})`
            const now = real.currentTimeMillisUnsafe()
            yield* Effect.provideContext(Effect.andThen(scheduleFirstDailyRun(o.id, now), scheduleFirstRetentionRun(o.id, now)), context)
          })))
      })
    })
  )
}
