import { randomBytes } from "node:crypto"
import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import type { GoCardlessClient } from "gocardless-nodejs"
import { RequestLog, serverUrl, silentRequestLog } from "@paykit/http"
import { SANDBOX_ORGANISATIONS_PATH } from "./sandbox-organisations.ts"
import { makeServer } from "./server.ts"
import { ServerLog } from "./server-log.ts"

/**
 * `@paykit/server/testing`: a sandbox organisation of its own for each test (or suite), made on a
 * sandbox server through `POST /sandbox/organisations` and deleted after, so that tests running at
 * once neither see each other's resources nor move each other's clock. For vitest, jest or any
 * runner: `withSandbox` is a plain async function.
 */

/** A sandbox server to make organisations on, and the bearer that may (its sandbox token or admin secret). */
export interface SandboxServer {
  readonly url: string
  readonly operatorToken: string
}

export interface SandboxOptions {
  /**
   * The server: absent, `PAYKIT_URL` (default `http://127.0.0.1:8000`) with `PAYKIT_ADMIN_SECRET`
   * or else `PAYKIT_SANDBOX_TOKEN` from the environment.
   */
  readonly server?: SandboxServer
  /** The organisation's name, as listed by `GET /sandbox/organisations`. */
  readonly name?: string
  /** The instant its clock starts at (now or later); absent, now. */
  readonly startAt?: Date
}

/** What the test is given: its organisation, its token, the official client on it, and its clock. */
export interface Sandbox {
  readonly organisation: { readonly id: string; readonly creditor: string }
  readonly token: string
  readonly url: string
  readonly client: GoCardlessClient
  /**
   * Moves this organisation's clock, and only its: by an ISO 8601 duration (`"P1D"`, `"PT36H"`)
   * or a number of seconds, or to an instant. Its due work up to there runs first. Answers the
   * clock's new time.
   */
  readonly advance: (by: string | number | Date) => Promise<Date>
  /** This organisation's clock's time. */
  readonly now: () => Promise<Date>
}

const DEFAULT_URL = "http://127.0.0.1:8000"

const serverFromEnvironment = (): SandboxServer => {
  const operatorToken = process.env["PAYKIT_ADMIN_SECRET"] ?? process.env["PAYKIT_SANDBOX_TOKEN"]
  if (operatorToken === undefined || operatorToken === "") {
    throw new Error("withSandbox: set PAYKIT_ADMIN_SECRET or PAYKIT_SANDBOX_TOKEN (the server's), or pass options.server")
  }
  return { url: (process.env["PAYKIT_URL"] ?? DEFAULT_URL).replace(/\/+$/, ""), operatorToken }
}

/** A JSON call to the server, failing with the server's answer when it is not a success. */
const call = async (url: string, bearer: string, path: string, method: string, body?: object): Promise<unknown> => {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return text === "" ? undefined : JSON.parse(text)
}

/** A field of a JSON answer, checked to be a string. */
const stringAt = (value: unknown, ...path: ReadonlyArray<string>): string => {
  let at = value
  for (const key of path) at = typeof at === "object" && at !== null && key in at ? (at as Record<string, unknown>)[key] : undefined
  if (typeof at !== "string") throw new Error(`the server's answer has no ${path.join(".")}`)
  return at
}

const advanceBody = (by: string | number | Date): object =>
  by instanceof Date ? { to: by.toISOString() } : { by }

/** The official client on a paykit server: its base URL has no option of its own (docs/http.md). */
const clientFor = async (token: string, url: string): Promise<GoCardlessClient> => {
  const { GoCardlessClient } = await import("gocardless-nodejs")
  const client = new GoCardlessClient(token)
  ;(client as unknown as { _api: { _baseUrl: string } })._api._baseUrl = url
  return client
}

/**
 * Runs `test` with an organisation of its own on a sandbox server, then deletes the organisation
 * (and everything it owns) whether the test passed or not.
 */
export const withSandbox = async <A>(test: (sandbox: Sandbox) => Promise<A>, options: SandboxOptions = {}): Promise<A> => {
  const server = options.server ?? serverFromEnvironment()
  const made = await call(server.url, server.operatorToken, SANDBOX_ORGANISATIONS_PATH, "POST", {
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.startAt === undefined ? {} : { start_at: options.startAt.toISOString() })
  })
  const id = stringAt(made, "organisations", "id")
  try {
    const token = stringAt(made, "organisations", "access_token")
    return await test({
      organisation: { id, creditor: stringAt(made, "organisations", "links", "creditor") },
      token,
      url: server.url,
      client: await clientFor(token, server.url),
      advance: async (by) => new Date(stringAt(await call(server.url, token, "/sandbox/simulator/advance", "POST", advanceBody(by)), "simulator_clock", "now")),
      now: async () => new Date(stringAt(await call(server.url, token, "/sandbox/simulator/clock", "GET"), "simulator_clock", "now"))
    })
  } finally {
    await call(server.url, server.operatorToken, `${SANDBOX_ORGANISATIONS_PATH}/${id}`, "DELETE")
  }
}

/** An in-process sandbox server, for `withSandbox` when no server runs: stop it with `close`. */
export interface InProcessSandboxServer extends SandboxServer {
  readonly close: () => Promise<void>
}

/**
 * Starts a sandbox server in this process (in-memory PGlite, a free port on 127.0.0.1, a random
 * admin secret, its logs silenced): one per test file or per run (vitest's `globalSetup`), shared
 * by every `withSandbox` in it.
 */
export const startSandboxServer = async (): Promise<InProcessSandboxServer> => {
  const operatorToken = randomBytes(24).toString("base64url")
  const layer = makeServer({
    port: 0,
    host: "127.0.0.1",
    mode: "sandbox",
    database: { _tag: "Pglite", dataDir: undefined },
    sandboxToken: Option.none(),
    adminSecret: Option.some(Redacted.make(operatorToken))
  }).pipe(Layer.provide(Layer.mergeAll(Layer.succeed(RequestLog, silentRequestLog), Layer.succeed(ServerLog, () => {}))))
  const runtime = ManagedRuntime.make(layer)
  const url = await runtime.runPromise(Effect.orDie(serverUrl))
  return { url, operatorToken, close: () => runtime.dispose() }
}
