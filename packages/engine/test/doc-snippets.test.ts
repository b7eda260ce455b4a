import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")

/**
 * A block of the docs marked `<!-- file: path -->` is that file of the repository, which the
 * type check compiles (`tsconfig.json` includes `examples/`) and tests run: the block must be the
 * file, so the docs show what compiles.
 */
const MARKED = /<!-- file: (\S+) -->\n```ts\n([\s\S]*?)```/g

const markedBlocks = (doc: string) =>
  [...readFileSync(join(ROOT, doc), "utf8").matchAll(MARKED)].map((m) => ({ path: m[1] ?? "", text: m[2] ?? "" }))

describe("the docs' code blocks are the files the type check compiles", () => {
  for (const [doc, expected] of [["docs/engine.md", 1], ["docs/embedding-the-engine.md", 5], ["docs/bank-rails.md", 1]] as const) {
    it(`${doc}: each marked block equals its file`, () => {
      const blocks = markedBlocks(doc)
      expect(blocks.length).toBe(expected)
      for (const block of blocks) expect(block.text, block.path).toBe(readFileSync(join(ROOT, block.path), "utf8"))
    })
  }
})
