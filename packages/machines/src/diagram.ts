import type { AnyMachine } from "./registry.ts"

/**
 * Diagrams derive from the tables, never the other way round: `docs/state-machines.md` is this
 * module's output (written by `scripts/write-diagrams.ts`), and a test fails when it is stale.
 */

const edgeLabel = (event: string, guardName: string | undefined, emits: string | null): string =>
  [event, guardName === undefined ? "" : ` [${guardName}]`, emits === null ? "" : ` / ${emits}`].join("")

/** The Mermaid `stateDiagram-v2` of one machine: creation, every rule's edges, terminal exits. */
export const mermaidOf = (machine: AnyMachine): string => {
  const lines: Array<string> = ["stateDiagram-v2"]
  for (const s of machine.initial) {
    lines.push(`    [*] --> ${s}${machine.created === null ? "" : ` : create / ${machine.created}`}`)
  }
  for (const rule of machine.transitions) {
    for (const from of rule.from) {
      lines.push(`    ${from} --> ${rule.to} : ${edgeLabel(rule.event, rule.guard?.name, rule.emits)}`)
    }
  }
  for (const s of machine.terminal) lines.push(`    ${s} --> [*]`)
  return lines.join("\n")
}

const cell = (s: string): string => s.replace(/\|/g, "\\|")

/** The transition table of one machine as Markdown. */
export const tableOf = (machine: AnyMachine): string => {
  const rows = machine.transitions.map((r) =>
    `| ${r.from.map((f) => `\`${f}\``).join(", ")} | \`${r.event}\` | ${r.guard === undefined ? "" : cell(r.guard.name)} | \`${r.to}\` | ${
      r.emits === null ? "(none)" : `\`${r.emits}\``
    } | \`${r.reason}\` |`
  )
  return ["| from | event | guard | to | emits | refused with |", "|---|---|---|---|---|---|", ...rows].join("\n")
}

const sectionOf = (machine: AnyMachine): string =>
  [
    `## ${machine.noun.charAt(0).toUpperCase()}${machine.noun.slice(1)} (\`${machine.name}\`)`,
    "",
    `States: ${machine.states.map((s) => `\`${s}\``).join(", ")}. Created as ${
      machine.initial.map((s) => `\`${s}\``).join(" or ")
    }${machine.created === null ? " (no event)" : `, emitting \`${machine.created}\``}. Terminal: ${
      machine.terminal.length === 0 ? "none" : machine.terminal.map((s) => `\`${s}\``).join(", ")
    }.`,
    "",
    "```mermaid",
    mermaidOf(machine),
    "```",
    "",
    tableOf(machine),
    ""
  ].join("\n")

/** The whole of `docs/state-machines.md`. */
export const renderStateMachinesDoc = (machines: ReadonlyArray<AnyMachine>): string =>
  [
    "# State machines",
    "",
    "<!-- Generated from the transition tables of @paykit/machines; do not edit by hand. -->",
    "<!-- Regenerate: cd packages/machines && npx tsx --conditions=@paykit/source scripts/write-diagrams.ts -->",
    "",
    "Each resource's life is one declared table in `packages/machines/src`. An edge reads",
    "`event [guard] / emitted API event action`; an event outside the table, or whose guard refuses,",
    "is answered with `invalid_state` and the reason in the last column (or the guard's own reason).",
    "",
    ...machines.map(sectionOf)
  ].join("\n")
