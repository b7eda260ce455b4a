import { type ChildProcess, fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import type { PaykitAppOptions } from "./paykit-app.ts"
import { environmentOf } from "./paykit-app.ts"
import type { ServerLogLine } from "./server-log.ts"

/**
 * `dueWork: "worker-process"`: the due-work worker and the webhook pump in a child process of the
 * host's, on the same PostgreSQL database. The child (`worker-entry.ts`) is a `createPaykitApp`
 * with the default `dueWork`, configured by the environment the options stand for
 * (`environmentOf`, read back by `serverConfig`), so the two processes start from one definition
 * of the settings. Its lines come to the host's `log` over the IPC channel. It serves no request.
 */

/** What the child says over IPC: a log line, that it runs, or why it could not start. */
export type WorkerMessage =
  | { readonly line: ServerLogLine }
  | { readonly ready: true; readonly metricsUrl?: string | undefined }
  | { readonly failed: string }

/** The host's side of it: the child's pid, and the stop that waits for it to end (killing it past `ms`). */
export interface WorkerProcess {
  readonly pid: number | undefined
  /** The child's own `/metrics` (on a free port of 127.0.0.1), with the host's `metricsPort`; the host's scrape reads it. */
  readonly metricsUrl: string | undefined
  readonly stop: (ms: number) => Promise<void>
}

const sourceEntry = import.meta.url.endsWith(".ts")
const ENTRY = fileURLToPath(new URL(sourceEntry ? "./worker-entry.ts" : "./worker-entry.js", import.meta.url))
/** From the sources (tests, `npm start`'s tsx), the child needs tsx's loader and the sources' export condition. */
const EXEC_ARGV = sourceEntry ? ["--import", "tsx", "--conditions=@paykit/source"] : []

/** The host's environment without paykit's settings (its own `DATABASE_URL` must not reach the child), then the options' settings. */
const childEnvironment = (options: PaykitAppOptions): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith("PAYKIT_") && name !== "DATABASE_URL") env[name] = value
  }
  for (const [name, value] of Object.entries(environmentOf(options))) if (value !== undefined) env[name] = value
  // The metrics port is the host's: the child listens on a free one of its own, which the host's scrape reads.
  if (options.metricsPort !== undefined) {
    env["PAYKIT_METRICS_PORT"] = "0"
    env["HOST"] = "127.0.0.1"
  }
  return env
}

const isMessage = (value: unknown): value is WorkerMessage =>
  typeof value === "object" && value !== null && ("line" in value || "ready" in value || "failed" in value)

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once("exit", () => resolve())
  })

/** Forks the worker and resolves once it runs; rejects with its reason if it ends first. */
export const startWorkerProcess = (options: PaykitAppOptions, log: (line: ServerLogLine) => void): Promise<WorkerProcess> =>
  new Promise((resolve, reject) => {
    const child = fork(ENTRY, [], { env: childEnvironment(options), execArgv: EXEC_ARGV, stdio: ["ignore", "inherit", "inherit", "ipc"] })
    let failed = "it ended before it ran"
    let running = false
    let stopping = false
    const ending = exited(child)
    child.on("message", (message: unknown) => {
      if (!isMessage(message)) return
      if ("line" in message) log(message.line)
      else if ("failed" in message) failed = message.failed
      else {
        running = true
        resolve({ pid: child.pid, metricsUrl: message.metricsUrl, stop: (ms) => {
          stopping = true
          return stop(child, ending, ms)
        } })
      }
    })
    // Not restarted (docs/embedding-http.md): said loudly, since due work and webhooks wait meanwhile.
    child.once("exit", (code, signal) => {
      if (running && !stopping) log({ level: "error", msg: "the worker process ended; due work and webhook deliveries wait until paykit is started again", pid: child.pid, code, signal })
    })
    child.once("error", (error) => reject(error))
    void ending.then(() => reject(new Error(`the worker process could not start: ${failed}`)))
  })

/** Asks the child to finish its work in hand and close; past `ms`, kills it. */
const stop = async (child: ChildProcess, ending: Promise<void>, ms: number): Promise<void> => {
  if (child.connected) child.send("stop")
  const timer = setTimeout(() => child.kill("SIGKILL"), ms)
  await ending
  clearTimeout(timer)
}
