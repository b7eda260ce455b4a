import { type Command, EXIT, type ExitCode, type Io, reportError, UsageError } from "./args.ts"
import { listenCommand } from "./listen.ts"
import { logsCommand } from "./logs.ts"
import { sandboxCommand } from "./sandbox.ts"
import { advanceCommand, triggerCommand } from "./simulate.ts"
import { startCommand } from "./start.ts"
import { tokenCommand } from "./token.ts"

/** The `paykit` command: its subcommands, and which one an argument list runs (docs/cli.md). */

export const COMMANDS: ReadonlyArray<Command> = [startCommand, tokenCommand, sandboxCommand, advanceCommand, triggerCommand, listenCommand, logsCommand]

export const HELP = [
  "paykit: the paykit server and its sandbox tools",
  "",
  "usage: paykit <command> [options]      paykit <command> --help for its options",
  "",
  "commands:",
  ...COMMANDS.map((c) => `  ${c.name.padEnd(9)}${c.summary}`),
  "",
  "exit codes: 0 done, 1 failed, 2 wrong usage"
].join("\n")

/** Runs the subcommand `argv` names; its exit code (a subcommand that follows until stopped resolves when stopped). */
export const runCli = async (argv: ReadonlyArray<string>, io: Io): Promise<ExitCode> => {
  const [name, ...rest] = argv
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    const asked = name !== undefined
    ;(asked ? io.out : io.err)(HELP)
    return asked ? EXIT.ok : EXIT.usage
  }
  const command = COMMANDS.find((c) => c.name === name)
  if (command === undefined) return reportError(io, argv.includes("--json"), new UsageError(`unknown command "${name}"`), HELP)
  return command.run(rest, io)
}
