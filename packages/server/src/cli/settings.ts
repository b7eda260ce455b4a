import { flagOfSetting, SERVER_SETTINGS, type SettingName } from "../server-settings.ts"
import type { Io, Options, Parsed } from "./args.ts"

/**
 * The server's settings as flags: one `--<flag>` per row of `SERVER_SETTINGS`, whose value goes
 * where the environment variable's would, above it, and `serverConfig` reads the result as it
 * reads the environment (its checks and messages unchanged). It loads nothing but the table.
 */

type Setting = (typeof SERVER_SETTINGS)[number]

/** The settings that say where the store is, for the commands that open it (`paykit token`). */
export const STORAGE_SETTINGS: ReadonlyArray<SettingName> = ["DATABASE_URL", "PAYKIT_DATA_DIR", "PAYKIT_DB_SCHEMA"]

/** The settings `paykit migrate` reads: the store, and whether to distribute it on Citus. */
export const MIGRATE_SETTINGS: ReadonlyArray<SettingName> = [...STORAGE_SETTINGS, "PAYKIT_CITUS"]

const rowsOf = (names: ReadonlyArray<SettingName> | undefined): ReadonlyArray<Setting> =>
  names === undefined ? SERVER_SETTINGS : SERVER_SETTINGS.filter((row) => names.includes(row.env))

export const settingOptions = (names?: ReadonlyArray<SettingName>): Options =>
  Object.fromEntries(rowsOf(names).map((row) => [flagOfSetting(row.env), { type: "string" as const }]))

/** `--help` lines: the flag, its variable, what it is. */
export const settingsHelp = (names?: ReadonlyArray<SettingName>): Array<string> => {
  const rows = rowsOf(names).map((row) => [`  --${flagOfSetting(row.env)} <value>`, row.env, row.help] as const)
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2
  const envWidth = Math.max(...rows.map(([, env]) => env.length)) + 2
  return rows.map(([flag, env, help]) => `${flag.padEnd(width)}${env.padEnd(envWidth)}${help}`)
}

/** The environment with the flags given put over it, as the record `serverConfig` reads. */
export const environmentWith = (parsed: Parsed, io: Io, names?: ReadonlyArray<SettingName>): Record<string, string | undefined> => {
  const env: Record<string, string | undefined> = { ...io.env }
  for (const row of rowsOf(names)) {
    const value = parsed.values[flagOfSetting(row.env)]
    if (typeof value === "string") env[row.env] = value
  }
  return env
}
