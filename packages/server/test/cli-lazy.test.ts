import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { COMMANDS } from "../src/cli/commands.ts"

/**
 * `paykit` loads per command (docs/cli.md, "How it starts fast"): the bin, the registry and every
 * command's module reach, by their static imports, nothing of effect, the engine, the store or
 * the HTTP package; what an action needs beyond that it imports when it runs. Read from the
 * sources' import statements (dynamic `import()` is what loads later), so a heavy import added to
 * a light module fails here, before a benchmark notices.
 */

const PACKAGES = fileURLToPath(new URL("../../", import.meta.url))
const CLI = fileURLToPath(new URL("../src/cli/", import.meta.url))

/** `import ... from "x"`, `export ... from "x"` and `import "x"`, but not `import type`/`export type` (erased) nor `import("x")`. */
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\s)(?:[^"';]*?\sfrom\s+)?"([^"]+)"/gm

/** A workspace package's export for `@paykit/<name>[/subpath]`, as the `@paykit/source` condition resolves it. */
const resolvePaykit = (specifier: string): string => {
  const [, name = "", subpath] = /^@paykit\/([^/]+)(?:\/(.+))?$/.exec(specifier) ?? []
  const manifest = JSON.parse(readFileSync(join(PACKAGES, name, "package.json"), "utf8")) as { exports: Record<string, Record<string, string>> }
  const target = manifest.exports[subpath === undefined ? "." : `./${subpath}`]?.["@paykit/source"]
  if (target === undefined) throw new Error(`${specifier} is no export of @paykit/${name}`)
  return join(PACKAGES, name, target)
}

interface Graph {
  readonly files: ReadonlySet<string>
  /** Bare specifiers outside the workspace (node: builtins left out). */
  readonly external: ReadonlySet<string>
}

/** Every module `entry` loads by static imports, and the packages it reaches outside the workspace. */
const staticGraph = (entry: string): Graph => {
  const files = new Set<string>()
  const external = new Set<string>()
  const visit = (file: string): void => {
    if (files.has(file)) return
    files.add(file)
    for (const [, specifier = ""] of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
      if (specifier.startsWith("node:")) continue
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier))
      else if (specifier.startsWith("@paykit/")) visit(resolvePaykit(specifier))
      else external.add(specifier)
    }
  }
  visit(entry)
  return { files, external }
}

const relativeNames = (graph: Graph): ReadonlyArray<string> => [...graph.files].map((f) => f.slice(PACKAGES.length)).sort()

/** The modules `commands.ts` loads lazily, one per command. */
const commandModules = (): ReadonlyArray<string> =>
  [...readFileSync(join(CLI, "commands.ts"), "utf8").matchAll(/import\("(\.\/[^"]+)"\)/g)].map(([, path = ""]) => join(CLI, path))

describe("paykit loads per command", () => {
  it("the bin and --help reach only the registry and the argument parsing", () => {
    const graph = staticGraph(join(CLI, "paykit.ts"))
    expect(relativeNames(graph)).toEqual(["server/src/cli/args.ts", "server/src/cli/commands.ts", "server/src/cli/paykit.ts", "server/src/cli/run.ts"])
    expect([...graph.external]).toEqual([])
  })

  it("names one module per command, each loaded only when its command runs", () => {
    expect(commandModules()).toHaveLength(COMMANDS.length)
    expect(readdirSync(CLI).filter((f) => f.endsWith(".ts")).length).toBeGreaterThan(COMMANDS.length)
  })

  it.each(commandModules().map((path) => [path.slice(CLI.length), path]))("%s reaches no package outside the workspace and no package's main entry", (_name, path) => {
    const graph = staticGraph(path)
    expect([...graph.external]).toEqual([])
    // Only files made to load fast: the CLI's own, the settings table, the sandbox paths, core's limits, the engine's catalogue and signing.
    const outsideCli = relativeNames(graph).filter((f) => !f.startsWith("server/src/cli/"))
    for (const file of outsideCli) {
      expect(["server/src/server-settings.ts", "server/src/sandbox-paths.ts", "core/src/limits.ts", "engine/src/scenarios/catalogue.ts", "engine/src/webhooks/signing.ts"]).toContain(file)
    }
  })
})
