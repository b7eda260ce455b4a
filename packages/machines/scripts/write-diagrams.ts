// Writes docs/state-machines.md from the transition tables.
// Run from packages/machines: npx tsx --conditions=@paykit/source scripts/write-diagrams.ts
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { MACHINES, renderStateMachinesDoc } from "../src/index.ts"

const target = fileURLToPath(new URL("../../../docs/state-machines.md", import.meta.url))
writeFileSync(target, renderStateMachinesDoc(MACHINES))
console.log(`wrote ${target}`)
