import { type CommandBody, positionalOf, UsageError } from "./args.ts"
import { DEFAULT_DATA_DIR } from "../server-settings.ts"
import { settingsHelp, STORAGE_SETTINGS, settingOptions } from "./settings.ts"

/**
 * `paykit token create|list|revoke`: access tokens on the configured store (`DATABASE_URL`, else
 * the PGlite directory), with no server in between; on PGlite the server must be stopped (one
 * process opens a data directory at a time, and its lock says which holds it). `create` prints
 * the token this once. The store's code (token-store.ts) loads when an action runs; until the
 * store is open, one line on stderr says which it is opening.
 */

const ACTIONS = ["create", "list", "revoke"] as const

/** Which store the flags or the environment name, in words, as the server's `database` says it. */
const storeOf = (values: Readonly<Record<string, string | boolean | undefined>>, env: Readonly<Record<string, string | undefined>>): string => {
  const url = values["database-url"] ?? env["DATABASE_URL"]
  if (typeof url === "string" && url.trim() !== "") return "the PostgreSQL database of DATABASE_URL"
  const dir = values["data-dir"] ?? env["PAYKIT_DATA_DIR"]
  return `PGlite in ${typeof dir === "string" && dir.trim() !== "" ? dir : DEFAULT_DATA_DIR}`
}

export const command: CommandBody = {
  usage: ["token create [--organisation <id>] [--scope read_write|read_only]", "token list [--organisation <id>]", "token revoke <token id>"],
  options: { ...settingOptions(STORAGE_SETTINGS), organisation: { type: "string" }, scope: { type: "string" } },
  optionsHelp: [
    "  --organisation <id>   the organisation (default: the first start's)",
    "  --scope <scope>       create: read_write (default) or read_only",
    ...settingsHelp(STORAGE_SETTINGS)
  ],
  maxPositionals: 2,
  action: async (parsed, io) => {
    const action = ACTIONS.find((a) => a === positionalOf(parsed, 0, "create|list|revoke"))
    if (action === undefined) throw new UsageError(`unknown action "${parsed.positionals[0] ?? ""}": create, list or revoke`)
    if (parsed.values["json"] !== true) io.err(`opening the store (${storeOf(parsed.values, io.env)})...`)
    const store = await import("./token-store.ts")
    return store[action](parsed, io)
  }
}
