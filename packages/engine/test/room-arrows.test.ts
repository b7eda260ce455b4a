import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const SRC = join(dirname(fileURLToPath(import.meta.url)), "..", "src")

/**
 * The engine's rooms, lowest first: a room may import only from rooms before it, so no two rooms
 * need each other (docs/architecture.md, "Rooms", draws the same order). Where a lower room must
 * reach a higher one it declares a port the higher one implements (the customers' `BlockScreen`,
 * `AccountMandates`, `PayerRecordEraser`, `BankDetailsVault`; the mandates' `MandateEndings`).
 * The top-level files (`engine.ts`, `index.ts`, `rooms.ts`, ...) are the centre: they may import
 * any room, and no room imports them but `testing` (the tests' support, which builds engines).
 * The lowest rooms are the engine's machinery rather than features: the kernel (ports,
 * definitions, the unit of work), due work, the in-memory adapters and the registry's room shape.
 */
const ROOM_ORDER = [
  "kernel",
  "due-work",
  "memory",
  "registry",
  "creditors",
  "ledger",
  "customers",
  "bank-submissions",
  "mandates",
  "refunds",
  "payments",
  "subscriptions",
  "instalments",
  "payouts",
  "payment-accounts",
  "outbound-payments",
  "institutions",
  "billing-requests",
  "bank-authorisations",
  "payer-authorisations",
  "flows",
  "bank-account-holder-verifications",
  "customer-notifications",
  "webhooks",
  "documents",
  "mandate-pdfs",
  "blocks",
  "mandate-imports",
  "exports",
  "retention",
  "bank-reports",
  "scenarios",
  "testing"
] as const

/** No room holds more source lines than a reader takes in at once. */
const ROOM_LINES_MAX = 1500

const CENTRE = "(centre)"

const sourceFiles = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [])

const roomOf = (file: string): string => {
  const parts = relative(SRC, file).split(sep)
  return parts.length === 1 ? CENTRE : parts[0] ?? CENTRE
}

/** Every relative import, re-export and type import of a file, resolved to the file it names. */
const importsOf = (file: string): ReadonlyArray<string> =>
  [...readFileSync(file, "utf8").matchAll(/(?:from\s+|import\()"(\.{1,2}\/[^"]+)"/g)].flatMap((m) => m[1] === undefined ? [] : [resolve(dirname(file), m[1])])

interface Arrow {
  readonly from: string
  readonly to: string
  readonly file: string
}

const arrows: ReadonlyArray<Arrow> = sourceFiles(SRC).flatMap((file) =>
  importsOf(file).map((target) => ({ from: roomOf(file), to: roomOf(target), file: relative(SRC, file) })).filter((a) => a.from !== a.to))

const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)

/** A cycle among the rooms, as the rooms along it, or undefined. */
const cycleOf = (edges: ReadonlyArray<Arrow>): ReadonlyArray<string> | undefined => {
  const next = new Map<string, Set<string>>()
  for (const a of edges) next.set(a.from, (next.get(a.from) ?? new Set()).add(a.to))
  const done = new Set<string>()
  const visit = (room: string, path: ReadonlyArray<string>): ReadonlyArray<string> | undefined => {
    if (path.includes(room)) return [...path.slice(path.indexOf(room)), room]
    if (done.has(room)) return undefined
    for (const to of next.get(room) ?? []) {
      const found = visit(to, [...path, room])
      if (found !== undefined) return found
    }
    done.add(room)
    return undefined
  }
  for (const room of next.keys()) {
    const found = visit(room, [])
    if (found !== undefined) return found
  }
  return undefined
}

describe("the engine's rooms", () => {
  it("are the folders of src, each placed in the order", () => {
    expect([...folders].sort()).toEqual([...ROOM_ORDER].sort())
  })

  it("are listed in the README's layout table in the same order", () => {
    const readme = readFileSync(join(SRC, "..", "README.md"), "utf8")
    const listed = [...readme.matchAll(/^\| `src\/([a-z-]+)\/` \|/gm)].map((m) => m[1])
    expect(listed).toEqual([...ROOM_ORDER])
  })

  it("import only from rooms below them, and never from the centre", () => {
    const rank = (room: string) => ROOM_ORDER.findIndex((r) => r === room)
    const upward = arrows
      .filter((a) => a.from !== CENTRE && (a.to === CENTRE ? a.from !== "testing" : rank(a.to) > rank(a.from)))
      .map((a) => `${a.file}: ${a.from} -> ${a.to}`)
    expect(upward).toEqual([])
  })

  it("start from a kernel that imports no other room, with due work on the kernel alone (it owns its storage port) and the in-memory adapters and the registry on both", () => {
    const targets = (room: string) => [...new Set(arrows.filter((a) => a.from === room).map((a) => a.to))].sort()
    expect(targets("kernel")).toEqual([])
    expect(targets("due-work")).toEqual(["kernel"])
    expect(targets("memory")).toEqual(["due-work", "kernel"])
    expect(targets("registry")).toEqual(["due-work", "kernel"])
  })

  it("form no cycle", () => {
    expect(cycleOf(arrows.filter((a) => a.from !== CENTRE))).toBeUndefined()
  })

  it(`hold at most ${ROOM_LINES_MAX} lines each`, () => {
    const lines = new Map<string, number>()
    for (const file of sourceFiles(SRC)) {
      const room = roomOf(file)
      if (room !== CENTRE) lines.set(room, (lines.get(room) ?? 0) + readFileSync(file, "utf8").split("\n").length - 1)
    }
    const over = [...lines].filter(([, n]) => n > ROOM_LINES_MAX).map(([room, n]) => `${room}: ${n}`)
    expect(over).toEqual([])
  })
})

describe("the rooms' checks", () => {
  it("find a cycle and miss none", () => {
    const a = (from: string, to: string): Arrow => ({ from, to, file: "" })
    expect(cycleOf([a("payments", "payouts"), a("payouts", "ledger"), a("ledger", "payments")])).toEqual(["payments", "payouts", "ledger", "payments"])
    expect(cycleOf([a("payments", "ledger"), a("payouts", "ledger"), a("payouts", "payments")])).toBeUndefined()
  })
})
