import { Context } from "effect"

/**
 * Where the server's own lines go (start-up, shutdown): one JSON object per line on stdout, like the
 * http package's request lines, so one log shipper reads both. Tests replace it.
 */
export type ServerLogLine = { readonly level: "info" | "warn" | "error"; readonly msg: string } & Readonly<Record<string, unknown>>

export const ServerLog = Context.Reference<(line: ServerLogLine) => void>("@paykit/server/ServerLog", {
  defaultValue: () => (line) => void process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`)
})
