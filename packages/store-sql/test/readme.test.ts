import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, expect, it, vi } from "vitest"

// The README's example, run as written (its import of the package pointed at the sources).
const here = import.meta.dirname
const readme = readFileSync(join(here, "..", "README.md"), "utf8")
const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? ""
const dir = mkdtempSync(join(here, "readme-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it("the README example runs and prints what it says", { timeout: 60_000 }, async () => {
  expect(example).toContain("PgliteStorage")
  const file = join(dir, "example.ts")
  writeFileSync(file, example.replace(`from "@paykit/store-sql"`, `from "../../src/index.ts"`))
  const log = vi.spyOn(console, "log").mockImplementation(() => undefined)
  try {
    await import(file)
    expect(log.mock.calls.map((call) => call.join(" "))).toContain("1 payer1@example.com")
  } finally {
    log.mockRestore()
  }
})
