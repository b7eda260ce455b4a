import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"

/**
 * The server as `npm start` runs it (`src/main.ts` under tsx, configured by the environment), in a
 * child process the test can signal: SIGKILL for a crash, SIGTERM or SIGINT for a stop.
 */

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url))
/** `npm run token`'s script. */
export const MINT_TOKEN = fileURLToPath(new URL("../src/mint-token.ts", import.meta.url))
const TSX = new URL("../../../node_modules/tsx/dist/", import.meta.url)
/**
 * `tsx main.ts` runs the server in a second process under its own; the test runs that one alone
 * (node with tsx's hooks, as tsx starts it), so its pid is the server's and a SIGKILL reaches it.
 */
export const nodeArgs = (script: string) => ["--require", fileURLToPath(new URL("preflight.cjs", TSX)), "--import", new URL("loader.mjs", TSX).href, "--conditions=@paykit/source", script]

/** A sandbox token fixed in the environment, so every start of a test's server takes the same one. */
export const CHILD_TOKEN = "sandbox_child_process_token_0001"

export interface ChildServer {
  readonly child: ChildProcess
  /** The address from the `listening` line, or the output so far if the process ended first. */
  readonly listening: Promise<string>
  /** The exit code (null when ended by a signal) and the signal. */
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
  /** Everything the process wrote, stdout and stderr. */
  readonly output: () => string
  /** What it wrote on each stream, apart. */
  readonly streams: () => { readonly stdout: string; readonly stderr: string }
}

export type ChildDatabase = { readonly dataDir: string } | { readonly databaseUrl: string }

/** A port free now on the loopback address (the server's config takes no port 0). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")))
    })
  })

/**
 * `extraEnv`: more settings (the worker's `PAYKIT_WORKER_LEASE_MS`, `PAYKIT_WORKER_POLL_MS`); one
 * set to undefined is left out. `script`: another entry point than the server's (`MINT_TOKEN`).
 */
export const startChild = (database: ChildDatabase, port: number, extraEnv: Readonly<Record<string, string | undefined>> = {}, script: string = MAIN): ChildServer => {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: "127.0.0.1", PAYKIT_MODE: "sandbox", PAYKIT_SANDBOX_TOKEN: CHILD_TOKEN, PAYKIT_CONNECT_PORT: "0", ...extraEnv }
  for (const [name, value] of Object.entries(extraEnv)) if (value === undefined) delete env[name]
  delete env["DATABASE_URL"]
  delete env["PAYKIT_DATA_DIR"]
  if ("dataDir" in database) env["PAYKIT_DATA_DIR"] = database.dataDir
  else env["DATABASE_URL"] = database.databaseUrl
  const child = spawn(process.execPath, nodeArgs(script), { env, stdio: ["ignore", "pipe", "pipe"] })
  let text = ""
  const apart = { stdout: "", stderr: "" }
  child.stdout?.on("data", (chunk: Buffer) => void (apart.stdout += chunk.toString("utf8")))
  child.stderr?.on("data", (chunk: Buffer) => void (apart.stderr += chunk.toString("utf8")))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })))
  const listening = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      text += chunk.toString("utf8")
      const url = /"msg":"listening".*?"url":"([^"]+)"/.exec(text)?.[1]
      if (url !== undefined) resolve(url)
    }
    child.stdout?.on("data", read)
    child.stderr?.on("data", read)
    void exited.then(() => reject(new Error(`the server ended before listening:\n${text}`)))
  })
  // A start expected to fail is awaited through `exited`; its `listening` is not an unhandled failure.
  listening.catch(() => undefined)
  return { child, listening, exited, output: () => text, streams: () => apart }
}

/** Stops a child with `signal` and waits for it to end. */
export const stopChild = async (server: ChildServer, signal: NodeJS.Signals = "SIGTERM") => {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal)
  return server.exited
}

/** Whether a process (a positive pid) or a process group (its leader's pid, negated) still runs. */
export const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
