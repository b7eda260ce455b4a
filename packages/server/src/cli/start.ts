import type { CommandBody } from "./args.ts"
import { environmentWith, settingOptions, settingsHelp } from "./settings.ts"

/**
 * `paykit start`: the server, exactly as `npm start` runs it (`main.ts`), each environment variable
 * also a flag (`--port 8000` is `PORT=8000`; a flag wins over the variable). The flags are put into
 * this process's environment before `main.ts` loads, so `serverConfig` checks them with the
 * variables' own messages, and any process the server starts inherits them. It runs until SIGINT
 * or SIGTERM; its output is the server's JSON lines whether or not `--json` is given, after one of
 * its own, at once: loading the server and opening its database take seconds.
 */
export const command: CommandBody = {
  usage: ["start [--port <port>] [--data-dir <dir>] [...]"],
  options: settingOptions(),
  optionsHelp: settingsHelp(),
  maxPositionals: 0,
  action: async (parsed, io) => {
    Object.assign(process.env, environmentWith(parsed, io))
    // The server's own line format (server-log.ts), without loading it.
    io.out(JSON.stringify({ time: new Date().toISOString(), level: "info", msg: "starting: loading the server and opening its database", pid: process.pid }))
    // `runMain` in main.ts ends the process: 130 when stopped by a signal, 1 (one line saying why) when the start fails.
    await import("../main.ts")
    await new Promise<never>(() => undefined)
  }
}
