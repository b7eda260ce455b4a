import { parseArgs, type ParseArgsConfig } from "node:util"

/**
 * What every `paykit` subcommand shares: its exit codes, its output (text for people, one JSON
 * document per line with `--json`), and the parsing of its arguments with `node:util`'s
 * `parseArgs`, whose refusals become usage errors (exit 2) with the subcommand's usage.
 */

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const
export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** Where a command writes: stdout and stderr, one line per call (tests collect them). */
export interface Io {
  readonly out: (line: string) => void
  readonly err: (line: string) => void
  readonly env: Readonly<Record<string, string | undefined>>
}

export const processIo: Io = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
  env: process.env
}

/** Arguments the command cannot run with: printed with the usage, exit 2. */
export class UsageError extends Error {}

/** A failure the command reports in one line (an API error, a refused connection): exit 1. */
export class CommandFailure extends Error {
  /** The API's error body, when the API refused. */
  readonly detail: unknown
  /** The API's HTTP status, when the API refused. */
  readonly status: number | undefined
  constructor(message: string, detail?: unknown, status?: number) {
    super(message)
    this.detail = detail
    this.status = status
  }
}

export type Options = NonNullable<ParseArgsConfig["options"]>

/** `--help` and `--json`, which every subcommand takes. */
export const COMMON_OPTIONS = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" }
} as const satisfies Options

export interface Parsed {
  readonly values: Readonly<Record<string, string | boolean | undefined>>
  readonly positionals: ReadonlyArray<string>
}

/** `parseArgs` in strict mode; its refusal (an unknown flag, a missing value) is a `UsageError`. */
export const parse = (argv: ReadonlyArray<string>, options: Options, maxPositionals: number): Parsed => {
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args: [...argv], options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  if (parsed.positionals.length > maxPositionals && parsed.values["help"] !== true) {
    throw new UsageError(`unexpected argument: ${parsed.positionals.slice(maxPositionals).join(" ")}`)
  }
  const values: Record<string, string | boolean | undefined> = {}
  for (const [name, value] of Object.entries(parsed.values)) values[name] = Array.isArray(value) ? value.at(-1) : value
  return { values, positionals: parsed.positionals }
}

/** A string flag's value, if given. */
export const stringOf = (parsed: Parsed, name: string): string | undefined => {
  const value = parsed.values[name]
  return typeof value === "string" ? value : undefined
}

export const flagOf = (parsed: Parsed, name: string): boolean => parsed.values[name] === true

/** The positional at `index`, required: its absence is a usage error naming it. */
export const positionalOf = (parsed: Parsed, index: number, name: string): string => {
  const value = parsed.positionals[index]
  if (value === undefined || value === "") throw new UsageError(`missing <${name}>`)
  return value
}

/** Prints a result: its JSON on one line with `--json`, else the text lines. */
export const printResult = (io: Io, parsed: Parsed, json: unknown, text: ReadonlyArray<string>): void => {
  if (flagOf(parsed, "json")) io.out(JSON.stringify(json))
  else text.forEach((line) => io.out(line))
}

/** One `paykit` subcommand: its `--help` text and what it does. */
export interface Command {
  readonly name: string
  readonly summary: string
  readonly help: string
  readonly run: (argv: ReadonlyArray<string>, io: Io) => Promise<ExitCode>
}

/**
 * What a command's module exports as `command`: how it is used and what it does. Its name and
 * summary are its row in the registry (commands.ts), which `paykit --help` lists without loading
 * any command's module. The module imports only what its usage needs; what the action needs
 * beyond that (the engine, the store, effect) it imports when it runs.
 */
export interface CommandBody {
  /** The usage line(s) after `paykit `, then the options' lines. */
  readonly usage: ReadonlyArray<string>
  readonly options: Options
  readonly optionsHelp: ReadonlyArray<string>
  /** Lines after the options in `--help` (what it lists, examples). */
  readonly notes?: ReadonlyArray<string>
  readonly maxPositionals: number
  /** Resolves when done (a command that runs until stopped resolves on its stop). */
  readonly action: (parsed: Parsed, io: Io) => Promise<void>
}

export interface CommandSpec extends CommandBody {
  readonly name: string
  readonly summary: string
}

const COMMON_HELP = ["  --json           machine-readable output: one JSON document per line", "  -h, --help       this help"]

/** A `Command` from its spec: `--help` prints the help (0), a usage error the help on stderr (2), a failure one line (1). */
export const defineCommand = (spec: CommandSpec): Command => {
  const help = [
    `paykit ${spec.name}: ${spec.summary}`,
    "",
    ...spec.usage.map((line) => `usage: paykit ${line}`),
    "",
    "options:",
    ...spec.optionsHelp,
    ...COMMON_HELP,
    ...(spec.notes === undefined ? [] : ["", ...spec.notes])
  ].join("\n")
  return {
    name: spec.name,
    summary: spec.summary,
    help,
    run: async (argv, io) => {
      let parsed: Parsed
      try {
        parsed = parse(argv, spec.options, spec.maxPositionals)
        if (flagOf(parsed, "help")) {
          io.out(help)
          return EXIT.ok
        }
        await spec.action(parsed, io)
        return EXIT.ok
      } catch (error) {
        return reportError(io, argv.includes("--json"), error, help)
      }
    }
  }
}

/** The exit code of an error, reported on stderr (as `{"error": ...}` with `--json`). */
export const reportError = (io: Io, json: boolean, error: unknown, help: string): ExitCode => {
  const usage = error instanceof UsageError
  const message = error instanceof Error ? error.message : String(error)
  if (json) io.err(JSON.stringify({ error: { type: usage ? "usage" : "failure", message, ...(error instanceof CommandFailure && error.detail !== undefined ? { detail: error.detail } : {}) } }))
  else io.err(usage ? `paykit: ${message}\n\n${help}` : `paykit: ${message}`)
  return usage ? EXIT.usage : EXIT.failure
}

/** Resolves on the first SIGINT or SIGTERM: how a following command (`listen`, `logs`) is stopped, then exits 0. */
export const stopRequested = (): Promise<NodeJS.Signals> =>
  new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop)
      process.off("SIGTERM", stop)
      resolve(signal)
    }
    process.on("SIGINT", stop)
    process.on("SIGTERM", stop)
  })
