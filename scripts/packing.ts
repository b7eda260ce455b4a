/**
 * The workspace's packages as an app gets them: packed with `npm pack`, installed from their
 * tarballs into a directory of the app's own, after the peers every app installs first. Shared by
 * `scripts/pack-check.ts` (which checks what arrives) and `bench/cli.bench.ts` (which times the
 * installed `paykit`).
 */
import { execFileSync, spawn } from "node:child_process"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

export const ROOT = join(import.meta.dirname, "..")

export const run = (cmd: string, args: ReadonlyArray<string>, cwd: string): string =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 })

export interface Outcome { readonly ok: boolean; readonly out: string }

/** A command whose failure is a finding, not a crash: whether it exited 0, and its outputs. */
export const attempt = (cmd: string, args: ReadonlyArray<string>, cwd: string, timeoutMs = 120_000, env: NodeJS.ProcessEnv = process.env): Promise<Outcome> =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, timeout: timeoutMs, stdio: ["ignore", "pipe", "pipe"], env })
    let out = ""
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()))
    child.on("error", (e) => resolve({ ok: false, out: e.message }))
    child.on("close", (code) => resolve({ ok: code === 0, out: out.trim() }))
  })

/** The node devDependency's binary: the Node 22 the workspace runs on, whatever the machine's is. */
let nodeBinary: string | undefined
export const workspaceNode = (): string => (nodeBinary ??= run("npm", ["exec", "--", "node", "-p", "process.execPath"], ROOT).trim())

export const lastLines = (text: string, n = 12): string => text.split("\n").slice(-n).join("\n")

interface PackedFile { readonly path: string }
export interface Packed { readonly name: string; readonly filename: string; readonly size: number; readonly files: ReadonlyArray<PackedFile> }

export const readJson = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"))
export const rootManifest = readJson(join(ROOT, "package.json")) as { workspaces: Array<string>; devDependencies: Record<string, string> }

/** The peers every app installs first, at the versions the workspace tests with. */
export const peersFirst = (): Array<string> =>
  Object.entries(rootManifest.devDependencies)
    .filter(([name]) =>
      name === "effect" || (name.startsWith("@effect/") && name !== "@effect/vitest") || name === "@types/node" || name === "@types/emscripten")
    .map(([name, version]) => `${name}@${version}`)

/** Every workspace package packed into `into` (built first by the caller). */
export const pack = (into: string): ReadonlyArray<Packed> => {
  const out = run("npm", ["pack", "--workspaces", "--json", "--pack-destination", into], ROOT)
  // npm prints its JSON after any lifecycle output; the array is the last top-level value.
  return JSON.parse(out.slice(out.indexOf("[\n"))) as ReadonlyArray<Packed>
}

export const install = (app: string, specs: ReadonlyArray<string>): Promise<Outcome> =>
  attempt("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...specs], app, 300_000)

/** An app directory with a package.json of its own, as `npm init` leaves one. */
export const scratchApp = (dir: string): void => {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "scratch-app", private: true, type: "module" }, null, 2))
}
