import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { DISPLAY_PREFIX_LENGTH } from "@paykit/http"
import { EXIT, type Io } from "../src/cli/args.ts"
import { runCli } from "../src/cli/run.ts"
import { nodeArgs } from "./child-server.ts"
import { JOURNEY_TOKEN, listenJourney, type PaykitBin, startWithFlags, stopPaykit } from "./cli-journey.ts"
import { tempDataDir } from "./harness.ts"

/**
 * The `paykit` command from source (the packed bin runs the same journey in scripts/pack-check.ts):
 * `start` with flags only, `listen` forwarding a mandate's `created` event signed for the
 * receiver, then the other subcommands in this process against that server and its store.
 */

const SOURCE_BIN: PaykitBin = { command: process.execPath, args: nodeArgs(fileURLToPath(new URL("../src/cli/paykit.ts", import.meta.url))) }

/** Runs `paykit <argv>` in this process: its exit code and its lines. */
const paykit = async (argv: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const out: Array<string> = []
  const err: Array<string> = []
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), env }
  const code = await runCli(argv, io)
  return { code, out, err, json: () => JSON.parse(out.join("\n")) as unknown }
}

/** The value at `path` in parsed JSON (undefined where it stops). */
const at = (value: unknown, ...path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>((current, key) => typeof current === "object" && current !== null ? Reflect.get(current, key) : undefined, value)

const data = tempDataDir()
afterAll(() => data.remove())

describe("the paykit command", () => {
  it("start serves the API from flags; listen, sandbox, advance, trigger, logs reach it; token works on its store", { timeout: 300_000 }, async () => {
    const { server, url, rootStatus, rootBody } = await startWithFlags(SOURCE_BIN, data.dir)
    expect(rootStatus).toBe(200)
    expect(rootBody["name"]).toBe("paykit")
    try {
      const journey = await listenJourney(SOURCE_BIN, url)
      expect(journey.created?.signatureValid, journey.output).toBe(true)
      expect(journey.line).toMatchObject({ ok: true, status: 204, events: expect.arrayContaining([expect.objectContaining({ resource_type: "mandates", action: "created", resource: journey.mandate })]) })
      expect(journey.exitCode).toBe(EXIT.ok)
      expect(journey.endpoint["webhook_endpoints"]).toMatchObject({ enabled: false, disabled_reason: "disabled_by_user" })

      const env = { PAYKIT_URL: url, PAYKIT_TOKEN: JOURNEY_TOKEN }
      const made = await paykit(["sandbox", "create", "--name", "cli suite", "--json"], env)
      expect(made.code, made.err.join("\n")).toBe(EXIT.ok)
      expect(at(made.json(), "organisations")).toMatchObject({ name: "cli suite", made_by_operator: true })
      const organisation = String(at(made.json(), "organisations", "id"))
      const organisationToken = String(at(made.json(), "organisations", "access_token"))
      const listed = await paykit(["sandbox", "list"], env)
      expect(listed.out.join("\n")).toContain(organisation)

      const advanced = await paykit(["advance", "P2D", "--json", "--token", organisationToken], env)
      expect(advanced.code, advanced.err.join("\n")).toBe(EXIT.ok)
      expect(at(advanced.json(), "simulator_clock", "offset")).toBe("P2D")
      const ownClock = await paykit(["advance", "PT1H", "--json"], env)
      expect(at(ownClock.json(), "simulator_clock", "offset")).toBe("PT1H")
      const backwards = await paykit(["advance", "2020-01-01"], env)
      expect(backwards.code).toBe(EXIT.failure)
      expect(backwards.err.join("\n")).toMatch(/^paykit: 422 .*only moves forward/)

      const triggered = await paykit(["trigger", "mandate_activated", journey.mandate, "--json"], env)
      expect(triggered.code, triggered.err.join("\n")).toBe(EXIT.ok)
      const logs = await paykit(["logs", "--once", "--tail", "50", "--json"], env)
      const lines = logs.out.map((l) => JSON.parse(l) as unknown)
      expect(lines.filter((l) => at(l, "type") === "event" && at(l, "links", "mandate") === journey.mandate).map((l) => at(l, "action")))
        .toEqual(expect.arrayContaining(["created", "submitted", "active"]))
      expect(lines.some((l) => at(l, "type") === "webhook" && at(l, "successful") === true)).toBe(true)
      const text = await paykit(["logs", "--once", "--tail", "3"], env)
      expect(text.out.join("\n")).toMatch(/ event {4}EV\w+ {2}mandates\.\w+ {2}MD\w+/)

      expect((await paykit(["sandbox", "delete", organisation], env)).code).toBe(EXIT.ok)
      const again = await paykit(["sandbox", "delete", organisation, "--json"], env)
      expect(again.code).toBe(EXIT.failure)
      expect(JSON.parse(again.err.join(""))).toMatchObject({ error: { type: "failure" } })
      const wrongToken = await paykit(["sandbox", "list", "--token", organisationToken], env)
      expect(wrongToken.code).toBe(EXIT.failure)
    } finally {
      // runMain's exit on an interruption, as `npm start`'s (docs/cli.md).
      expect(await stopPaykit(server)).toBe(130)
    }

    const store = ["--data-dir", data.dir]
    const created = await paykit(["token", "create", ...store, "--json"])
    expect(created.code, created.err.join("\n")).toBe(EXIT.ok)
    const id = String(at(created.json(), "access_tokens", "id"))
    const secret = String(at(created.json(), "access_tokens", "access_token"))
    expect(secret).toMatch(/^paykit_rw_/)
    const list = await paykit(["token", "list", ...store, "--json"])
    const tokens = at(list.json(), "access_tokens")
    expect(Array.isArray(tokens) ? tokens.find((t) => at(t, "id") === id) : undefined).toMatchObject({ status: "active", scope: "read_write" })
    expect(JSON.stringify(tokens)).not.toContain(secret)
    // Its first characters only, and never used: the server was stopped when it was made.
    expect(Array.isArray(tokens) ? tokens.find((t) => at(t, "id") === id) : undefined).toMatchObject({ display_prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH), last_used_at: null })
    expect((await paykit(["token", "list", ...store])).out.find((line) => line.startsWith(id))).toContain(`${secret.slice(0, DISPLAY_PREFIX_LENGTH)}  read_write`)
    expect((await paykit(["token", "revoke", id, ...store, "--json"])).json()).toEqual({ access_tokens: { id, status: "revoked" } })
    expect((await paykit(["token", "revoke", "AT000000000000", ...store])).code).toBe(EXIT.failure)
    const readOnly = await paykit(["token", "create", "--scope", "read_only", ...store])
    expect(readOnly.out.join("\n")).toMatch(/\(read_only\)[^\n]*\npaykit_r/)
  })
})
