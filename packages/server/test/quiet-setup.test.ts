import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, realpathSync } from "node:fs"
import { delimiter, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { freePort } from "./child-server.ts"
import { runPaykit, stopPaykit } from "./cli-journey.ts"
import { tempDataDir } from "./harness.ts"

/**
 * The set-up as a developer meets it (README, "Set-up on a fresh machine"): `npm ci` warns of no
 * engine, on the machine's Node or the workspace's, and `npm start` prints JSON lines only but for
 * npm's own banner, which the README quotes. The engines are still checked, against the Node that
 * runs the scripts: npm run on the workspace's Node 22 finds no package it does not satisfy.
 */

const ROOT = fileURLToPath(new URL("../../../", import.meta.url))
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string; scripts: Record<string, string>; devDependencies: Record<string, string> }

/** The PATH without any node_modules folder: the machine's own `npm` and `node`, as a shell finds them before npm adds its own. */
const machinePath = (process.env["PATH"] ?? "").split(delimiter).filter((dir) => !dir.includes("node_modules")).join(delimiter)

/** The machine's npm, its CLI script (to run it on another Node). */
const machineNpmCli = (): string => {
  const dir = machinePath.split(delimiter).find((d) => existsSync(join(d, "npm")))
  if (dir === undefined) throw new Error("no npm on the PATH")
  return realpathSync(join(dir, "npm"))
}

const dryRunCi = (command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => {
  const ran = spawnSync(command, [...args, "ci", "--dry-run", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: ROOT, env, encoding: "utf8", timeout: 240_000 })
  return { status: ran.status, output: `${ran.stdout}${ran.stderr}` }
}

describe("npm ci", () => {
  it("prints no warning on the machine's Node: .npmrc shows npm's errors only", { timeout: 300_000 }, () => {
    expect(readFileSync(join(ROOT, ".npmrc"), "utf8")).toMatch(/^loglevel=error$/m)
    const ran = dryRunCi("npm", [], { ...process.env, PATH: machinePath })
    expect(ran.status, ran.output).toBe(0)
    expect(ran.output).not.toMatch(/EBADENGINE|npm warn/i)
  })

  it("finds every package's engines satisfied by the workspace's Node, the one the scripts run on", { timeout: 300_000 }, () => {
    // This test runs on the node devDependency's Node (npm's scripts put it first on the PATH).
    expect(process.version).toBe(`v${manifest.devDependencies["node"]}`)
    const ran = dryRunCi(process.execPath, [machineNpmCli(), "--loglevel=warn"], process.env)
    expect(ran.status, ran.output).toBe(0)
    expect(ran.output).not.toContain("EBADENGINE")
  })
})

describe("npm start", () => {
  /** npm's banner before a script: a blank line, the package and script, the command, a blank line. */
  const BANNER = ["", `> ${manifest.name}@${manifest.version} start`, `> ${manifest.scripts["start"] ?? ""}`, ""]

  it("prints JSON lines only, after npm's banner, which the README names line by line", { timeout: 300_000 }, async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8")
    for (const line of BANNER.filter((l) => l !== "")) expect(readme).toContain(`\`${line}\``)
    const data = tempDataDir()
    const started = runPaykit({ command: "npm", args: ["start"], cwd: ROOT, env: { PATH: machinePath } }, [], {
      PORT: String(await freePort()), HOST: "127.0.0.1", PAYKIT_DATA_DIR: data.dir, PAYKIT_CONNECT_PORT: "0", PAYKIT_SANDBOX_TOKEN: "quiet_setup_sandbox_token_01",
      DATABASE_URL: undefined, PAYKIT_MODE: undefined
    })
    try {
      await started.waitFor(/"msg":"listening"/)
    } finally {
      await stopPaykit(started)
      data.remove()
    }
    const lines = started.output().split("\n")
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== "object"
      } catch {
        return true
      }
    })
    // The output ends with a newline: the last "line" is the empty rest.
    expect(notJson).toEqual([...BANNER, ""])
    expect(lines.slice(0, BANNER.length)).toEqual(BANNER)
    expect(lines.filter((line) => line.startsWith("{")).length).toBeGreaterThanOrEqual(2)
  })
})
