import { type ChildProcess, spawn } from "node:child_process"
import { createHmac, timingSafeEqual } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { freePort, isRunning } from "./child-server.ts"
import { fulfilledMandateRequest, localClient } from "./harness.ts"

/**
 * The `paykit` command as a user runs it, in child processes: `start` serving the API, and
 * `listen` forwarding a mandate's `created` event to a receiver that checks the signature with its
 * own secret. Shared by `cli.test.ts` (the command from source, under tsx) and
 * `scripts/pack-check.ts` (the bin of the packed `@paykit/server`, installed into an app).
 */

/** How to run `paykit`: a program and the arguments before the subcommand's. */
export interface PaykitBin {
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly env?: NodeJS.ProcessEnv
  readonly cwd?: string
}

export interface Running {
  readonly child: ChildProcess
  readonly output: () => string
  /** Resolves with the first match of `pattern` in the output; rejects if the process ends first or after `ms`. */
  readonly waitFor: (pattern: RegExp, ms?: number) => Promise<RegExpExecArray>
  readonly exited: Promise<number | null>
}

export const runPaykit = (bin: PaykitBin, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = {}): Running => {
  // Its own process group: a wrapper (npx, tsx) runs paykit as its child, and stopping the wrapper
  // alone left that child serving, holding our pipes open, so the caller never ended (a CI run
  // timed out in the pack check so). `stopPaykit` signals the whole group.
  const child = spawn(bin.command, [...bin.args, ...args], { cwd: bin.cwd, env: { ...process.env, ...bin.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true })
  let text = ""
  const listeners = new Set<() => void>()
  const onData = (chunk: Buffer) => {
    text += chunk.toString("utf8")
    listeners.forEach((l) => l())
  }
  child.stdout.on("data", onData)
  child.stderr.on("data", onData)
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const waitFor = (pattern: RegExp, ms = 90_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const found = pattern.exec(text)
        if (found === null) return
        listeners.delete(check)
        clearTimeout(timer)
        resolve(found)
      }
      const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${ms} ms:\n${text}`)), ms)
      listeners.add(check)
      void exited.then(() => {
        check()
        clearTimeout(timer)
        reject(new Error(`paykit ${args[0]} ended (${child.exitCode}) before ${pattern}:\n${text}`))
      })
      check()
    })
  return { child, output: () => text, waitFor, exited }
}

/** How long a stopped command's process group may take to end on SIGTERM before it is killed, and how often it is looked at. */
const GROUP_GRACE_MS = 10_000
const GROUP_POLL_MS = 100

/** Stops a following command with SIGTERM and answers its exit code. */
export const stopPaykit = async (running: Running): Promise<number | null> => {
  const group = running.child.pid
  if (running.child.exitCode === null && running.child.signalCode === null) signalGroup(group, "SIGTERM")
  const code = await running.exited
  // What the wrapper left behind gets a moment to end on its SIGTERM, then is killed.
  for (let waited = 0; group !== undefined && isRunning(-group) && waited < GROUP_GRACE_MS; waited += GROUP_POLL_MS) await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS))
  signalGroup(group, "SIGKILL")
  running.child.stdout?.destroy()
  running.child.stderr?.destroy()
  return code
}

/** Sends `signal` to the process group led by `pid` (spawned `detached`); a group already gone is no error. */
const signalGroup = (pid: number | undefined, signal: NodeJS.Signals): void => {
  if (pid === undefined) return
  try {
    process.kill(-pid, signal)
  } catch {
    // ESRCH: every process of the group has ended.
  }
}


export const JOURNEY_TOKEN = "sandbox_cli_journey_token_01"

/** `paykit start` on a free port with flags only (no environment variable): its URL once listening, and `GET /`'s status. */
export const startWithFlags = async (bin: PaykitBin, dataDir: string) => {
  const port = await freePort()
  const server = runPaykit(bin, ["start", "--port", String(port), "--host", "127.0.0.1", "--data-dir", dataDir, "--sandbox-token", JOURNEY_TOKEN, "--connect-port", "0"], {
    PORT: undefined, HOST: undefined, DATABASE_URL: undefined, PAYKIT_DATA_DIR: undefined, PAYKIT_SANDBOX_TOKEN: undefined
  })
  const url = (await server.waitFor(/"msg":"listening".*?"url":"([^"]+)"/))[1] ?? ""
  const root = await fetch(`${url}/`)
  return { server, url, rootStatus: root.status, rootBody: await root.json() as Record<string, unknown> }
}

interface Received { readonly body: string; readonly signatureValid: boolean }

/** A receiver of webhooks on a loopback port: every request, and whether `Webhook-Signature` is right for `secret`. */
export const webhookReceiver = async (secret: string) => {
  const received: Array<Received> = []
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (c: Buffer) => chunks.push(c))
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const expected = Buffer.from(createHmac("sha256", secret).update(body).digest("hex"))
      const given = Buffer.from(String(request.headers["webhook-signature"] ?? ""))
      received.push({ body, signatureValid: expected.length === given.length && timingSafeEqual(expected, given) })
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, received, close: () => server.close() }
}

/**
 * `paykit listen --forward-to` a receiver, then a mandate made through the official client: what
 * the receiver got (each body and its signature's validity), the line `listen` printed for it,
 * `listen`'s exit code on SIGTERM, and the endpoint it made, as the API shows it after.
 */
export const listenJourney = async (bin: PaykitBin, url: string, token = JOURNEY_TOKEN) => {
  const secret = "receiver_own_secret_0001"
  const target = await webhookReceiver(secret)
  const listen = runPaykit(bin, ["listen", "--forward-to", target.url, "--secret", secret, "--url", url, "--token", token, "--json"])
  try {
    const ready = JSON.parse((await listen.waitFor(/^\{"ready":true.*\}$/m))[0]) as { webhook_endpoint: string }
    const { mandate } = await fulfilledMandateRequest(localClient(token, url))
    const line = (await listen.waitFor(new RegExp(`^\\{.*"action":"created","resource":"${mandate}".*\\}$`, "m"), 60_000))[0]
    const exitCode = await stopPaykit(listen)
    const endpoints = await fetch(`${url}/webhook_endpoints/${ready.webhook_endpoint}`, { headers: { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06" } })
    const created = target.received.find((r) => r.body.includes(`"resource_type":"mandates","action":"created"`) && r.body.includes(mandate))
    // Its last line, once stopped: the endpoint it disabled.
    const stopped = /^\{"stopped":true.*\}$/m.exec(listen.output())?.[0]
    return {
      mandate, created, line: JSON.parse(line) as Record<string, unknown>, exitCode, endpoint: await endpoints.json() as Record<string, unknown>, output: listen.output(),
      stopped: stopped === undefined ? undefined : JSON.parse(stopped) as Record<string, unknown>
    }
  } finally {
    await stopPaykit(listen)
    target.close()
  }
}
