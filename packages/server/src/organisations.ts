import { Clock, Context, Effect, Layer, Schema } from "effect"
import { type DueWorkSchedule, scheduleFirstDailyRun, scheduleFirstRetentionRun } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import { SERVER_MODES, type ServerMode } from "./config.ts"

/** The organisations this server hosts (`organisations`, migration 0001). */

/**
 * Who made an organisation: the operator (the first start's, one made with the sandbox token or
 * from the environment) or a merchant signing up on a partner app's consent page. Only the
 * operator's may send webhooks to loopback receivers (`organisationWebhookTrust`).
 */
export const ORGANISATION_ORIGINS = ["operator", "signup"] as const
export type OrganisationOrigin = (typeof ORGANISATION_ORIGINS)[number]

export interface Organisation {
  readonly id: string
  readonly name: string
  readonly environment: ServerMode
  readonly origin: OrganisationOrigin
}

const OrganisationRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  environment: Schema.Literals(SERVER_MODES),
  origin: Schema.Literals(ORGANISATION_ORIGINS)
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(OrganisationRow))

export class Organisations extends Context.Service<Organisations, {
  /** Every organisation, oldest first. */
  readonly all: Effect.Effect<ReadonlyArray<Organisation>>
  /** Who made an organisation; undefined for one this server does not host. */
  readonly originOf: (id: string) => Effect.Effect<OrganisationOrigin | undefined>
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
        all: sql`SELECT id, name, environment, origin FROM organisations ORDER BY created_at, id`.pipe(Effect.flatMap(decodeRows), Effect.orDie),
        originOf: (id) =>
          sql`SELECT id, name, environment, origin FROM organisations WHERE id = ${id}`.pipe(
            Effect.flatMap(decodeRows),
            Effect.map((rows) => rows[0]?.origin),
            Effect.orDie
          ),
        insert: (o) =>
          Effect.orDie(sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO organisations (id, name, environment, origin) VALUES (${o.id}, ${o.name}, ${o.environment}, ${o.origin})`
            const now = real.currentTimeMillisUnsafe()
            yield* Effect.provideContext(Effect.andThen(scheduleFirstDailyRun(o.id, now), scheduleFirstRetentionRun(o.id, now)), context)
          })))
      })
    })
  )
}
