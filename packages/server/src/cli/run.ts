import { type Command, defineCommand, EXIT, type ExitCode, type Io, reportError, UsageError } from "./args.ts"
import { COMMANDS, type CommandEntry } from "./commands.ts"

/** The `paykit` command: its subcommands, and which one an argument list runs (docs/cli.md). */

export { COMMANDS } from "./commands.ts"

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

/** The command of a registry row, its module loaded. */
export const loadCommand = async (entry: CommandEntry): Promise<Command> => defineCommand({ name: entry.name, summary: entry.summary, ...(await entry.load()).command })

/** Runs the subcommand `argv` names; its exit code (a subcommand that follows until stopped resolves when stopped). */
export const runCli = async (argv: ReadonlyArray<string>, io: Io): Promise<ExitCode> => {
  const [name, ...rest] = argv
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    const asked = name !== undefined
    ;(asked ? io.out : io.err)(HELP)
    return asked ? EXIT.ok : EXIT.usage
  }
  const entry = COMMANDS.find((c) => c.name === name)
  if (entry === undefined) return reportError(io, argv.includes("--json"), new UsageError(`unknown command "${name}"`), HELP)
  return (await loadCommand(entry)).run(rest, io)
}
