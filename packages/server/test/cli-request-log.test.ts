import { Effect } from "effect"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CurrentRequestRecorder, DISPLAY_PREFIX_LENGTH, issueAccessToken } from "@paykit/http"
import { EXIT, type Io } from "../src/cli/args.ts"
import { runCli } from "../src/cli/run.ts"
import { nodeArgs } from "./child-server.ts"
import { type PaykitBin, runPaykit, stopPaykit } from "./cli-journey.ts"
import { api, startServer, type TestServer } from "./harness.ts"

/**
 * `paykit logs --requests`: the stored request log's tail, one line per request (or its JSON), and
 * then each new request as it is stored, from a `paykit` child process following it.
 */

const SOURCE_BIN: PaykitBin = { command: process.execPath, args: nodeArgs(fileURLToPath(new URL("../src/cli/paykit.ts", import.meta.url))) }

const paykit = async (argv: ReadonlyArray<string>, env: Record<string, string>) => {
  const out: Array<string> = []
  const err: Array<string> = []
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), env }
  return { code: await runCli(argv, io), out, err }
}

let server: TestServer
let token = ""
const flushed = () =>
  server.runtime.runPromise(Effect.gen(function*() {
    const recorder = yield* CurrentRequestRecorder
    yield* Effect.promise(() => recorder?.flush() ?? Promise.resolve())
  }))

beforeAll(async () => {
  server = await startServer()
  token = await server.runtime.runPromise(issueAccessToken({ id: "AT_cli_log", organisation: server.boot.organisation.id, scope: "read_write" }))
  expect((await api(server.url, token, "/customers")).status).toBe(200)
  expect((await api(server.url, token, "/payments/PM0000000000ZZ")).status).toBe(404)
  await flushed()
}, 60_000)
afterAll(() => server.close())

describe("paykit logs --requests", () => {
  it("prints the tail of the stored request log, oldest first, as lines or JSON", async () => {
    const env = { PAYKIT_URL: server.url, PAYKIT_TOKEN: token }
    const text = await paykit(["logs", "--requests", "--once", "--tail", "2"], env)
    expect(text.code, text.err.join("\n")).toBe(EXIT.ok)
    expect(text.out).toHaveLength(2)
    expect(text.out[0]).toMatch(new RegExp(`^\\S+Z {2}request {2}GET /customers -> 200 {2}[\\d.]+ ms {2}[0-9a-f-]{36} {2}AT_cli_log ${token.slice(0, DISPLAY_PREFIX_LENGTH)}…$`))
    expect(text.out[1]).toContain("GET /payments/PM0000000000ZZ -> 404")
    const json = await paykit(["logs", "--requests", "--once", "--tail", "1", "--json"], env)
    expect(JSON.parse(json.out[0] ?? "{}")).toMatchObject({ type: "request", method: "GET", path: "/payments/PM0000000000ZZ", status: 404 })
  })

  it("follows it: a request made after it started is printed once stored", { timeout: 120_000 }, async () => {
    const follower = runPaykit(SOURCE_BIN, ["logs", "--requests", "--tail", "1", "--interval", "100", "--url", server.url, "--token", token])
    try {
      // Its tail printed, it has its cursor: the next request is new to it.
      await follower.waitFor(/GET \/payments\/PM0000000000ZZ -> 404/, 60_000)
      expect((await api(server.url, token, "/mandates")).status).toBe(200)
      await flushed()
      const [line] = await follower.waitFor(/^.*GET \/mandates -> 200.*$/m, 60_000)
      expect(line).toContain("request  GET /mandates -> 200")
    } finally {
      // A stop ends the loop: the command finishes as asked.
      expect(await stopPaykit(follower)).toBe(EXIT.ok)
    }
  })
})
