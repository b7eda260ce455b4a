#!/usr/bin/env node
// @ts-check
/**
 * `npm run -s paykit -- <command>` in this workspace (docs/cli.md, "In this workspace"): the built
 * `paykit` (packages/server/dist/cli/paykit.js, as an app that installed @paykit/server runs it)
 * when every workspace package's build is newer than its sources, else the sources through tsx,
 * which compiles them on each run and so takes seconds where the build answers at once. Plain
 * JavaScript, checked by the type check (`checkJs`): Node strips no types here, so the launcher
 * costs nothing before the command starts.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { spawn } from "node:child_process"
import { constants } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const ROOT = fileURLToPath(new URL("..", import.meta.url))
const SERVER = join(ROOT, "packages", "server")

/** @param {string} path @returns {number} the modification time, or -1 when the path is missing */
const mtimeOf = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? -1

/**
 * The newest modification under `dir`: every file and folder (a folder changes when a file in it
 * is added, renamed or removed). By hand rather than `readdirSync`'s `recursive`, which costs
 * several times as much on a cold start.
 * @param {string} dir
 * @returns {number}
 */
const newestUnder = (dir) => {
  let newest = mtimeOf(dir)
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : mtimeOf(path))
  }
  return newest
}

/** Whether every workspace package was built after its sources last changed (`tsc -b` writes dist/.tsbuildinfo last). */
const builtAndCurrent = () => {
  /** @type {{ workspaces: ReadonlyArray<string> }} */
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"))
  return manifest.workspaces.every((workspace) => {
    const dir = join(ROOT, workspace)
    const built = mtimeOf(join(dir, "dist", ".tsbuildinfo"))
    return built > 0 && built >= newestUnder(join(dir, "src"))
  })
}

const args = process.argv.slice(2)
if (builtAndCurrent()) {
  // The bin sets process.exitCode itself.
  await import(pathToFileURL(join(SERVER, "dist", "cli", "paykit.js")).href)
} else {
  const tsx = ["--conditions=@paykit/source", "--import", import.meta.resolve("tsx"), join(SERVER, "src", "cli", "paykit.ts"), ...args]
  if (typeof process.execve === "function") {
    // This process becomes the command: signals and the exit code are its own.
    process.execve(process.execPath, [process.execPath, ...tsx], process.env)
  } else {
    const child = spawn(process.execPath, tsx, { stdio: "inherit" })
    // Ctrl-C reaches the child through the terminal; a signal sent to this process alone is passed on.
    process.on("SIGINT", () => undefined)
    process.on("SIGTERM", () => child.kill("SIGTERM"))
    child.on("exit", (code, signal) => {
      process.exitCode = code ?? 128 + (signal === null ? 0 : constants.signals[signal])
    })
  }
}
