import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src")

const sourcesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourcesUnder(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

/** The top-level folder (or file) of `src` each relative import of `room`'s files lands in, other than `room` itself. */
const roomsImportedBy = (room: string): ReadonlyArray<string> => {
  const found = new Set<string>()
  for (const file of sourcesUnder(join(SRC, room))) {
    const source = readFileSync(file, "utf8")
    for (const match of source.matchAll(/from "(\.\.?\/[^"]+)"/g)) {
      const target = relative(SRC, resolve(dirname(file), match[1] ?? ""))
      const top = target.split("/")[0] ?? target
      if (top !== room) found.add(top)
    }
  }
  return [...found].sort()
}

describe("arrows between the engine's lower rooms", () => {
  it("the kernel imports no other room and not the engine's composition", () => {
    expect(roomsImportedBy("kernel")).toEqual([])
  })

  it("due work and the in-memory adapters import only the kernel", () => {
    expect(roomsImportedBy("due-work")).toEqual(["kernel"])
    expect(roomsImportedBy("memory")).toEqual(["kernel"])
  })
})
