import { runServer } from "../serve.ts"
import { defineCommand } from "./args.ts"
import { configProviderWith, settingOptions, settingsHelp } from "./settings.ts"

/**
 * `paykit start`: the server, as `npm start` runs it, each environment variable also a flag
 * (`--port 8000` is `PORT=8000`; a flag wins over the variable). It runs until SIGINT or SIGTERM;
 * its output is the server's JSON lines whether or not `--json` is given.
 */
export const startCommand = defineCommand({
  name: "start",
  summary: "run the server (each environment variable also a flag; the flag wins)",
  usage: ["start [--port <port>] [--data-dir <dir>] [...]"],
  options: settingOptions(),
  optionsHelp: settingsHelp(),
  maxPositionals: 0,
  // `runMain` ends the process when the server stops (0) or fails to start (1, one line saying why).
  action: (parsed, io) => new Promise<void>(() => runServer(configProviderWith(parsed, io)))
})
