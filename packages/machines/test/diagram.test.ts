import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { MACHINES, mermaidOf, outboundPaymentMachine, renderStateMachinesDoc } from "../src/index.ts"

const DOC = fileURLToPath(new URL("../../../docs/state-machines.md", import.meta.url))

describe("docs/state-machines.md", () => {
  it("is what the tables generate today", () => {
    const onDisk = readFileSync(DOC, "utf8")
    expect(
      onDisk === renderStateMachinesDoc(MACHINES),
      "docs/state-machines.md is stale: run `cd packages/machines && npx tsx --conditions=@paykit/source scripts/write-diagrams.ts`"
    ).toBe(true)
  })

  it("draws one edge per source state of every rule", () => {
    const diagram = mermaidOf(outboundPaymentMachine)
    const edges = diagram.split("\n").filter((l) => /^\s+\w+ --> \w+ :/.test(l))
    expect(edges.length).toBe(outboundPaymentMachine.transitions.reduce((n, r) => n + r.from.length, 0))
    expect(diagram).toContain("scheduled --> executing : execution_date_reached [execution_date_reached] / set_to_executing")
  })
})
