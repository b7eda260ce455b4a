import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { DISPLAY_PREFIX_LENGTH } from "@paykit/http"
import { EXIT, type Io } from "../src/cli/args.ts"
import { runCli } from "../src/cli/run.ts"
import { nodeArgs } from "./child-server.ts"
import { JOURNEY_TOKEN, listenJourney, type PaykitBin, runPaykit, startWithFlags, stopPaykit, webhookReceiver } from "./cli-journey.ts"
import { tempDataDir } from "./harness.ts"

/**
 * The `paykit` command from source (the packed bin runs the same journey in scripts/pack-check.ts):
 * `start` with flags only, `listen` forwarding a mandate's `created` event signed for the
 * receiver (and saying it disabled its endpoint), a second `listen` keeping the events `--events`
 * names, then the other subcommands in this process against that server and its store: `trigger`
 * listing a resource's scenarios, answering a typo with the nearest name.
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
      expect(journey.stopped).toEqual({ stopped: true, webhook_endpoint: at(journey.endpoint, "webhook_endpoints", "id"), disabled: true })

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
      // A minute, not an hour: the journey's mandate is read below as not yet submitted, and an
      // hour's advance from 05:00 UTC crosses the daily run at 06:00 (DAILY_RUN_OFFSET_MS), which submits it.
      const ownClock = await paykit(["advance", "PT1M", "--json"], env)
      expect(at(ownClock.json(), "simulator_clock", "offset")).toBe("PT1M")
      const backwards = await paykit(["advance", "2020-01-01"], env)
      expect(backwards.code).toBe(EXIT.failure)
      expect(backwards.err.join("\n")).toMatch(/^paykit: 422 .*only moves forward/)

      // A listener of the mandates' `active` events alone: mandate_activated's `submitted` is not sent on.
      const secret = "filtered_receiver_secret_01"
      const filtered = await webhookReceiver(secret)
      const only = runPaykit(SOURCE_BIN, ["listen", "--forward-to", filtered.url, "--secret", secret, "--events", "mandates.active", "--url", url, "--token", JOURNEY_TOKEN, "--json"])
      try {
        expect(JSON.parse((await only.waitFor(/^\{"ready":true.*\}$/m))[0])).toMatchObject({ events: "mandates.active", forward_to: filtered.url })
        const before = await paykit(["trigger", journey.mandate, "--json"], env)
        expect(before.json()).toMatchObject({ resource: { id: journey.mandate, collection: "mandates", status: "pending_submission", scheme: "bacs" } })
        expect(at(before.json(), "scenarios")).toContain("mandate_activated")

        const triggered = await paykit(["trigger", "mandate_activated", journey.mandate, "--json"], env)
        expect(triggered.code, triggered.err.join("\n")).toBe(EXIT.ok)
        const line = JSON.parse((await only.waitFor(new RegExp(`^\\{.*"action":"active","resource":"${journey.mandate}".*\\}$`, "m"), 60_000))[0]) as unknown
        expect(at(line, "events")).toEqual([expect.objectContaining({ resource_type: "mandates", action: "active" })])
        expect(await stopPaykit(only)).toBe(EXIT.ok)
        const forwarded = filtered.received.flatMap((r) => (JSON.parse(r.body) as { events: ReadonlyArray<{ resource_type: string; action: string }> }).events)
        expect(forwarded.length).toBeGreaterThan(0)
        expect(forwarded.every((e) => e.resource_type === "mandates" && e.action === "active")).toBe(true)
        expect(filtered.received.every((r) => r.signatureValid)).toBe(true)
      } finally {
        await stopPaykit(only)
        filtered.close()
      }

      // A misspelt scenario is answered with the nearest name; a scenario that cannot start says which can.
      const typo = await paykit(["trigger", "mandate_activatd", journey.mandate], env)
      expect(typo.code).toBe(EXIT.failure)
      expect(typo.err.join("\n")).toMatch(/^paykit: 404 .*did you mean mandate_activated\?/)
      const again = await paykit(["trigger", "mandate_activated", journey.mandate], env)
      expect(again.err.join("\n")).toMatch(/^paykit: 422 .*is active; no mandate scenario starts from active$/)
      const listedNow = await paykit(["trigger", journey.mandate], env)
      expect(listedNow.out.join("\n")).toMatch(/is a bacs mandate in active\.\nNo scenario starts from active\./)
      expect(listedNow.out.join("\n")).toMatch(/mandate_suspended_by_payer +active; pay_to mandates only/)
      const logs = await paykit(["logs", "--once", "--tail", "50", "--json"], env)
      const lines = logs.out.map((l) => JSON.parse(l) as unknown)
      expect(lines.filter((l) => at(l, "type") === "event" && at(l, "links", "mandate") === journey.mandate).map((l) => at(l, "action")))
        .toEqual(expect.arrayContaining(["created", "submitted", "active"]))
      expect(lines.some((l) => at(l, "type") === "webhook" && at(l, "successful") === true)).toBe(true)
      const text = await paykit(["logs", "--once", "--tail", "3"], env)
      expect(text.out.join("\n")).toMatch(/ event {4}EV\w+ {2}mandates\.\w+ {2}MD\w+/)

      expect((await paykit(["sandbox", "delete", organisation], env)).code).toBe(EXIT.ok)
      const deletedTwice = await paykit(["sandbox", "delete", organisation, "--json"], env)
      expect(deletedTwice.code).toBe(EXIT.failure)
      expect(JSON.parse(deletedTwice.err.join(""))).toMatchObject({ error: { type: "failure" } })
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
