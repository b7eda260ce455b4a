import { spawnSync } from "node:child_process"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/**
 * Standard output's lines are written a turn at a time, yet none is lost or reordered: the lines
 * of a process that ends at once (`process.exit`, an uncaught error) in the turn it wrote them
 * still reach its reader, in order, as do those of one whose loop runs dry.
 */
const tsx = createRequire(import.meta.url).resolve("tsx")
const child = fileURLToPath(new URL("stdout-lines-child.ts", import.meta.url))

const run = (ending: string) =>
  spawnSync(process.execPath, ["--import", new URL("loader.mjs", `file://${tsx}`).href, "--conditions=@paykit/source", child, ending], { encoding: "utf8" })

const expected = Array.from({ length: 1000 }, (_, i) => `line ${i}`)

describe("standard output's lines", () => {
  for (const ending of ["drain", "exit", "throw"]) {
    it(`all reach the reader, in order, when the process ends by ${ending}`, () => {
      const result = run(ending)
      expect(result.stdout.split("\n").filter((l) => l !== "")).toEqual(expected)
      expect(result.status).toBe(ending === "throw" ? 1 : 0)
    })
  }
})
