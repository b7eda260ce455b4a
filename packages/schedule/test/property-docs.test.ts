import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

/**
 * docs/property-testing.md as a reader follows it: each block marked `<!-- file: ... -->` is that
 * file of `examples/property-testing/`, every such file is on the page, and each runs its
 * properties to the end (a property that fails throws at import, with its shrunk counterexample).
 * The pack check runs the same files from the packed tarballs.
 */

const ROOT = join(import.meta.dirname, "..", "..", "..")
const DIR = "examples/property-testing"
const page = readFileSync(join(ROOT, "docs", "property-testing.md"), "utf8")
const blocks = [...page.matchAll(/<!-- file: (\S+) -->\n```ts\n([\s\S]*?)```/g)].map((m) => ({ path: m[1] ?? "", text: m[2] ?? "" }))

describe("docs/property-testing.md", () => {
  it("shows every file of examples/property-testing, each block equal to its file", () => {
    expect(blocks.map((b) => b.path).sort()).toEqual(readdirSync(join(ROOT, DIR)).map((f) => `${DIR}/${f}`).sort())
    for (const block of blocks) expect(block.text, block.path).toBe(readFileSync(join(ROOT, block.path), "utf8"))
  })

  for (const file of readdirSync(join(ROOT, DIR))) {
    it(`${file}: its properties hold`, { timeout: 120_000 }, async () => {
      const logged: Array<string> = []
      const log = console.log
      console.log = (...args: Array<unknown>) => void logged.push(args.map(String).join(" "))
      try {
        await import(join(ROOT, DIR, file))
      } finally {
        console.log = log
      }
      expect(logged.at(-1)).toMatch(/held|shrunk to/)
    })
  }
})
