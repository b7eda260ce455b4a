import type { CommandBody } from "./args.ts"

/**
 * The `paykit` subcommands: one row each, its name, the line `paykit --help` shows, and its
 * module, loaded only when the command runs (`paykit --help` loads none). A new command is a
 * module exporting `command` (a `CommandBody`, args.ts) and a row here (docs/cli.md, "Adding a
 * command").
 */

export interface CommandEntry {
  readonly name: string
  readonly summary: string
  readonly load: () => Promise<{ readonly command: CommandBody }>
}

export const COMMANDS: ReadonlyArray<CommandEntry> = [
  { name: "start", summary: "run the server (each environment variable also a flag; the flag wins)", load: () => import("./start.ts") },
  { name: "migrate", summary: "migrate the configured store without starting the server (--distribute: move it onto Citus)", load: () => import("./migrate.ts") },
  { name: "token", summary: "make, list and revoke access tokens on the configured store (the server stopped, on PGlite)", load: () => import("./token.ts") },
  { name: "sandbox", summary: "make, list and delete sandbox organisations (each with its own clock and token)", load: () => import("./sandbox.ts") },
  { name: "advance", summary: "move the organisation's sandbox clock forward, running what falls due on the way", load: () => import("./advance.ts") },
  { name: "trigger", summary: "run a scenario simulator on a resource, or list those that apply to it", load: () => import("./trigger.ts") },
  { name: "listen", summary: "receive the organisation's webhooks and forward them, signed with your secret, to a local URL", load: () => import("./listen.ts") },
  { name: "bank", summary: "list the bank submissions, save one's file, post a bank's report (the bank rails)", load: () => import("./bank.ts") },
  { name: "logs", summary: "follow the organisation's events and webhook attempts (--requests: its API requests)", load: () => import("./logs.ts") }
]
