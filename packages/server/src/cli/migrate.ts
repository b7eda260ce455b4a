import type { CommandBody } from "./args.ts"
import { MIGRATE_SETTINGS, settingOptions, settingsHelp } from "./settings.ts"

/**
 * `paykit migrate [--distribute]`: the configured store's migrations, store-sql's then the
 * server's, without starting the server (a start runs them too). On a Citus coordinator with
 * workers, a new database's tables are distributed as they are made; `--distribute` also moves an
 * existing single-node database's tables, rows and all, onto the workers (docs/storage.md, "Citus"):
 * once, with every paykit process stopped. The store's code (migrate-store.ts) loads when it runs.
 */
export const command: CommandBody = {
  usage: ["migrate [--distribute]"],
  options: { ...settingOptions(MIGRATE_SETTINGS), distribute: { type: "boolean" } },
  optionsHelp: [
    "  --distribute          on a Citus coordinator with workers: also move tables that hold rows onto the workers (once, paykit stopped)",
    ...settingsHelp(MIGRATE_SETTINGS)
  ],
  maxPositionals: 0,
  action: async (parsed, io) => (await import("./migrate-store.ts")).migrate(parsed, io)
}
