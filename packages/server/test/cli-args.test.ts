import { ConfigProvider, Effect, Exit } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { flagOfSetting, SERVER_SETTINGS, serverConfig } from "../src/config.ts"
import { EXIT, type Io, parse } from "../src/cli/args.ts"
import { COMMANDS, runCli } from "../src/cli/run.ts"
import { environmentWith, settingOptions } from "../src/cli/settings.ts"
import { advanceBody } from "../src/cli/advance.ts"
import { eventFilterOf, keptBody } from "../src/cli/listen.ts"

/** `paykit`'s argument parsing and exit codes, in this process (cli.test.ts runs the commands against a server). */

const paykit = async (argv: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const out: Array<string> = []
  const err: Array<string> = []
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), env }
  return { code: await runCli(argv, io), out: out.join("\n"), err: err.join("\n") }
}

describe("paykit's exit codes", () => {
  it("no command: the commands on stderr, 2; --help: on stdout, 0", async () => {
    const none = await paykit([])
    expect(none.code).toBe(EXIT.usage)
    expect(none.err).toContain("listen")
    const help = await paykit(["--help"])
    expect(help.code).toBe(EXIT.ok)
    for (const command of COMMANDS) expect(help.out).toContain(`  ${command.name}`)
  })

  it.each(COMMANDS.map((c) => [c.name]))("%s --help prints its usage and options, 0", async (name) => {
    const help = await paykit([name, "--help"])
    expect(help.code).toBe(EXIT.ok)
    expect(help.out).toMatch(new RegExp(`^paykit ${name}: `))
    expect(help.out).toContain(`usage: paykit ${name}`)
    expect(help.out).toContain("--json")
  })

  it.each([
    [["nonsense"], /unknown command "nonsense"/],
    [["advance"], /missing <duration\|date>/],
    [["advance", "P1D", "extra"], /unexpected argument: extra/],
    [["trigger", "mandate_activated"], /missing <resource id>/],
    [["listen"], /--forward-to <url> is required/],
    [["listen", "--forward-to", "ftp://example.com"], /must be an http or https URL/],
    [["sandbox", "frobnicate"], /unknown action "frobnicate"/],
    [["token", "create", "--scope", "admin"], /--scope must be read_write or read_only/],
    [["logs", "--tail", "x"], /--tail must be a whole number/],
    [["start", "--no-such-flag"], /Unknown option '--no-such-flag'/],
    [["advance", "--url"], /--url/]
  ])("%j is a usage error: the message and the usage on stderr, 2", async (argv, message) => {
    const run = await paykit(argv, { PAYKIT_TOKEN: "t".repeat(20) })
    expect(run.code).toBe(EXIT.usage)
    expect(run.err).toMatch(message)
    expect(run.out).toBe("")
  })

  it("with --json a usage error is one JSON line on stderr", async () => {
    const run = await paykit(["advance", "--json"])
    expect(run.code).toBe(EXIT.usage)
    expect(JSON.parse(run.err)).toEqual({ error: { type: "usage", message: "missing <duration|date>" } })
  })

  it("a server that does not answer, or no token, is a failure: one line, 1", async () => {
    const refused = await paykit(["sandbox", "list", "--url", "http://127.0.0.1:1", "--token", "x".repeat(20)])
    expect(refused.code).toBe(EXIT.failure)
    expect(refused.err).toMatch(/^paykit: no answer from http:\/\/127\.0\.0\.1:1/)
    const tokenless = await paykit(["advance", "P1D"])
    expect(tokenless.code).toBe(EXIT.failure)
    expect(tokenless.err).toBe("paykit: no token: give --token, or set PAYKIT_TOKEN")
  })

  it("token on a store with no organisation fails saying to start the server first, 1", async () => {
    const run = await paykit(["token", "create", "--data-dir", ""], { DATABASE_URL: "not a url" })
    expect(run.code).toBe(EXIT.failure)
    expect(run.err).toContain("DATABASE_URL must be a PostgreSQL URL")
  })
})

describe("paykit start's flags come from the settings table", () => {
  /** The names `serverConfig` asks the environment for, seen through a record that notes each read. */
  const namesRead = (): Set<string> => {
    const read = new Set<string>()
    const noting = ConfigProvider.make((path) => {
      read.add(path.join("."))
      return Effect.succeed(undefined)
    })
    Effect.runSyncExit(Effect.provide(serverConfig, ConfigProvider.layer(noting)))
    return read
  }

  it("serverConfig reads exactly the table's variables, and start takes a flag for each", () => {
    expect([...namesRead()].sort()).toEqual(SERVER_SETTINGS.map((s) => s.env).sort())
    expect(Object.keys(settingOptions()).sort()).toEqual(SERVER_SETTINGS.map((s) => flagOfSetting(s.env)).sort())
    expect(flagOfSetting("PAYKIT_DATA_DIR")).toBe("data-dir")
    expect(flagOfSetting("DATABASE_URL")).toBe("database-url")
  })

  it("a flag is put over its variable, and serverConfig checks it as it checks the variable", () => {
    const io: Io = { out: () => undefined, err: () => undefined, env: { PORT: "9000", HOST: "0.0.0.0", PAYKIT_MODE: "live" } }
    const parsed = parse(["--port", "9100", "--data-dir", "/tmp/x", "--worker-poll-ms", "5"], settingOptions(), 0)
    const env = environmentWith(parsed, io)
    expect(env).toMatchObject({ PORT: "9100", HOST: "0.0.0.0", PAYKIT_MODE: "live", PAYKIT_DATA_DIR: "/tmp/x", PAYKIT_WORKER_POLL_MS: "5" })
    const exit = Effect.runSyncExit(Effect.provide(serverConfig, ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))))
    expect(Exit.isFailure(exit)).toBe(true)
    const fixed = environmentWith(parse(["--port", "9100", "--worker-poll-ms", "50"], settingOptions(), 0), io)
    const config = Effect.runSync(Effect.provide(serverConfig, ConfigProvider.layer(ConfigProvider.fromEnvRecord(fixed))))
    expect(config).toMatchObject({ port: 9100, host: "0.0.0.0", mode: "live", worker: { pollMillis: 50 } })
  })
})

describe("advance's argument", () => {
  it("digits are seconds, P... an ISO 8601 duration, anything else a date or date-time", () => {
    fc.assert(fc.property(fc.nat(), (n) => {
      expect(advanceBody(String(n))).toEqual({ by: n })
    }))
    fc.assert(fc.property(fc.nat({ max: 999 }), fc.constantFrom("D", "W"), (n, unit) => {
      expect(advanceBody(`p${n}${unit.toLowerCase()}`)).toEqual({ by: `P${n}${unit}` })
    }))
    fc.assert(fc.property(fc.date({ min: new Date("2000-01-01"), max: new Date("2200-01-01"), noInvalidDate: true }), (d) => {
      expect(advanceBody(d.toISOString())).toEqual({ to: d.toISOString() })
    }))
    expect(advanceBody("2027-01-01")).toEqual({ to: "2027-01-01" })
  })
})

describe("listen --events", () => {
  const TYPES = ["payments", "mandates", "refunds", "payouts"] as const
  const ACTIONS = ["created", "confirmed", "active", "paid_out"] as const
  const eventArb = fc.record({
    id: fc.stringMatching(/^EV[0-9A-Z]{12}$/),
    created_at: fc.date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true }).map((d) => d.toISOString()),
    resource_type: fc.constantFrom(...TYPES),
    action: fc.constantFrom(...ACTIONS)
  })
  const entryArb = fc.tuple(fc.constantFrom(...TYPES), fc.option(fc.constantFrom(...ACTIONS, "*"), { nil: undefined }))
    .map(([type, action]) => action === undefined ? type : `${type}.${action}`)

  it("sends on exactly the events an entry names (its type, or its type and action), with the rest of the body; none, nothing (property)", () => {
    fc.assert(fc.property(fc.array(eventArb, { maxLength: 6 }), fc.array(entryArb, { minLength: 1, maxLength: 3 }), (events, entries) => {
      const body = JSON.stringify({ events, meta: { webhook_id: "WB000000000001" } })
      const named = (e: (typeof events)[number]) => entries.some((entry) => {
        const [type, action] = entry.split(".")
        return type === e.resource_type && (action === undefined || action === "*" || action === e.action)
      })
      const wanted = events.filter(named)
      const sent = keptBody(body, eventFilterOf(entries.join(",")))
      if (wanted.length === 0) {
        expect(sent).toBeUndefined()
        return
      }
      expect(JSON.parse(sent?.body ?? "")).toEqual({ events: wanted, meta: { webhook_id: "WB000000000001" } })
      expect(sent?.events.map((e) => e.id)).toEqual(wanted.map((e) => e.id))
      expect(sent?.time).toBe(wanted.map((e) => e.created_at).sort().at(-1))
    }))
  })

  it("without --events every body goes on unchanged, byte for byte", () => {
    fc.assert(fc.property(fc.array(eventArb, { maxLength: 4 }), (events) => {
      const body = JSON.stringify({ events, meta: {} }, null, 1)
      expect(keptBody(body, undefined)?.body).toBe(body)
    }))
  })

  it.each(["", "payments.", "Payments", "payments.confirmed.twice", "payments;drop"])("refuses %j as a usage error", (text) => {
    expect(() => eventFilterOf(text)).toThrow(/--events/)
  })
})
