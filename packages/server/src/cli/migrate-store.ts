import { Cause, ConfigProvider, Effect, Exit, Layer } from "effect"
import { analyze, CitusSetting, migrateOn, placementsOf, STORE_MIGRATIONS, topologyOf } from "@paykit/store-sql"
import { type Database, serverConfig } from "../config.ts"
import { PAYKIT_DISTRIBUTION, SERVER_MIGRATION_SET } from "../migrations/index.ts"
import { sqlClientLayer } from "../server.ts"
import { startFailureLine } from "../start-failure.ts"
import { CommandFailure, flagOf, type Io, type Parsed, printResult } from "./args.ts"
import { environmentWith, MIGRATE_SETTINGS } from "./settings.ts"

/** What `paykit migrate` does on the configured store: loaded by migrate.ts only when the command runs. */

const migrateStore = (distributeExisting: boolean) =>
  Effect.gen(function*() {
    const ran = yield* migrateOn([STORE_MIGRATIONS, SERVER_MIGRATION_SET], { distributeExisting })
    if (ran > 0) yield* analyze
    const distributed = (yield* topologyOf)._tag === "Distributed"
    const tables = distributed ? yield* placementsOf(PAYKIT_DISTRIBUTION) : []
    return { migrations_run: ran, distributed, tables: tables.map((t) => ({ table: t.table, placement: t.placement })) }
  })

export const migrate = async (parsed: Parsed, io: Io): Promise<void> => {
  let database: Database | undefined
  const program = Effect.gen(function*() {
    const config = yield* serverConfig
    database = config.database
    const citus = config.database._tag === "Postgres" ? config.database.citus ?? "auto" : "auto"
    return yield* migrateStore(flagOf(parsed, "distribute")).pipe(
      Effect.provide(Layer.mergeAll(sqlClientLayer(config.database), Layer.succeed(CitusSetting, citus)))
    )
  })
  const exit = await Effect.runPromiseExit(Effect.provide(program, ConfigProvider.layer(ConfigProvider.fromEnvRecord(environmentWith(parsed, io, MIGRATE_SETTINGS)))))
  if (Exit.isFailure(exit)) throw new CommandFailure(startFailureLine(exit.cause, database, "the store was not migrated").msg, Cause.pretty(exit.cause))
  const result = exit.value
  printResult(io, parsed, { migrate: result }, [
    `${result.migrations_run} migration${result.migrations_run === 1 ? "" : "s"} run`,
    ...(result.distributed ? [`distributed by organisation_id on Citus: ${result.tables.map((t) => `${t.table} (${t.placement})`).join(", ")}`] : [])
  ])
}
