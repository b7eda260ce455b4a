/**
 * Writes `packages/http/src/openapi/reference-sources.ts`, what the OpenAPI document's
 * descriptions and error lists are read from when the server has neither the specification nor
 * the engine's sources at hand:
 *
 * - `fields`: the API reference's own notes on each resource's fields (the tables of
 *   "Resources and their fields" in the specification, `/work/shared/spec/payments-api.md` or
 *   `PAYKIT_SPEC`), keyed by the resource's list key and the dotted field name;
 * - `reasons`: the error reasons the engine's code can raise for each resource, found by reading
 *   the engine's sources: every string in a resource's files that is a reason of the catalogue
 *   (`ERROR_REASONS`), split into those of its creating files (`*-create*.ts`), of its actions
 *   (`*-actions.ts`, `*-action.ts`) and of the rest.
 *
 * Run `npx tsx --conditions=@paykit/source scripts/reference-sources.ts`; the reference test
 * regenerates it in memory and fails when the committed file is stale.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"
import { ERROR_REASONS } from "@paykit/core"
import { PAYKIT_ROUTES } from "@paykit/http"

const ROOT = fileURLToPath(new URL("..", import.meta.url))
/** The specification: `PAYKIT_SPEC`, else the team's shared copy, else `shared/` beside the checkout (as CI lays it). */
export const SPEC_FILE = process.env["PAYKIT_SPEC"] ??
  ["/work/shared/spec/payments-api.md", join(ROOT, "../shared/spec/payments-api.md")].find((file) => existsSync(file)) ?? "/work/shared/spec/payments-api.md"
export const SOURCES_FILE = join(ROOT, "packages/http/src/openapi/reference-sources.ts")
const ENGINE = join(ROOT, "packages/engine/src")

interface FieldNote {
  readonly text: string
  readonly source: string
}

/** "Outbound payment import" → `outbound_payment_imports`; a heading's parenthesis dropped. */
const listKeyOf = (heading: string): string => {
  const words = heading.replace(/\(.*\)/, "").trim().toLowerCase().replace(/\s+/g, "_")
  return words.endsWith("s") ? words : words.endsWith("y") ? `${words.slice(0, -1)}ies` : `${words}s`
}

const cells = (line: string): ReadonlyArray<string> => line.split("|").slice(1, -1).map((c) => c.trim())

/** The field tables of the specification's "Resources and their fields", with the conventions that hold for all. */
export const specFields = (spec: string): Record<string, Record<string, FieldNote>> => {
  const section = spec.split("\n## ").find((s) => s.startsWith("Resources and their fields")) ?? ""
  const out: Record<string, Record<string, FieldNote>> = {}
  for (const part of section.split("\n### ").slice(1)) {
    const [heading = "", ...lines] = part.split("\n")
    const key = listKeyOf(heading)
    for (const line of lines) {
      const [field = "", type = "", notes = ""] = cells(line)
      if (!line.startsWith("|") || field === "Field" || field.startsWith("---") || field === "") continue
      const text = notes === "" ? `A ${type}.` : `${notes.charAt(0).toUpperCase()}${notes.slice(1)} (${type}).`
      ;(out[key] ??= {})[field] = { text, source: `payments-api.md, Resources and their fields: ${heading.trim()}` }
    }
  }
  return out
}

/**
 * The rows of the specification's endpoint tables ("Endpoints"), keyed `METHOD /path` as the
 * document writes paths (`{id}` for every identifier; `.../actions/x` under its section's resource).
 */
export const specOperations = (spec: string): Record<string, FieldNote> => {
  const section = spec.split("\n## ").find((s) => s.startsWith("Endpoints")) ?? ""
  const out: Record<string, FieldNote> = {}
  for (const part of section.split("\n### ").slice(1)) {
    const [heading = "", ...lines] = part.split("\n")
    const resource = listKeyOf(heading)
    for (const line of lines) {
      const [route = "", ...rest] = cells(line)
      const match = /^(GET|POST|PUT|DELETE) `([^`]+)`/.exec(route)
      if (match === null) continue
      const path = (match[2] ?? "").replace(/^\.\.\.\//, `/${resource}/{id}/`).replace(/\{[a-z_]+_id\}/g, "{id}")
      const text = rest.filter((c) => c !== "" && c !== "none").join("; ")
      if (text !== "") out[`${match[1]} ${path}`] = { text, source: `payments-api.md, Endpoints: ${heading.trim()}` }
    }
  }
  return out
}

const files = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [])

const singular = (key: string): string => key.replace(/ies$/, "y").replace(/s$/, "")

/** The resource (of `keys`) a file of the engine belongs to: the longest whose singular or plural starts its name, or names its folder. */
const resourceOfFile = (file: string, keys: ReadonlyArray<string>): string | undefined => {
  const name = basename(file, ".ts")
  const folder = basename(join(file, ".."))
  const matches = keys.filter((key) => {
    const hyphened = singular(key).replace(/_/g, "-")
    return name === hyphened || name.startsWith(`${hyphened}-`) || name.startsWith(`${hyphened}s`) || folder === key.replace(/_/g, "-")
  })
  return matches.sort((a, b) => b.length - a.length)[0]
}

type Kind = "create" | "actions" | "any"

const kindOf = (file: string): Kind => {
  const name = basename(file, ".ts")
  return /-create/.test(name) ? "create" : /-actions?$/.test(name) ? "actions" : "any"
}

/** The catalogue's reasons each resource's engine files can raise, by the kind of file. */
export const engineReasons = (keys: ReadonlyArray<string>): Record<string, Record<Kind, ReadonlyArray<string>>> => {
  const known = new Set(Object.keys(ERROR_REASONS).filter((r) => r !== "validation_failed"))
  const found: Record<string, Record<Kind, Set<string>>> = {}
  for (const file of files(ENGINE)) {
    if (file.includes("/testing/") || file.includes("/memory/")) continue
    const key = resourceOfFile(file, keys)
    if (key === undefined) continue
    const text = readFileSync(file, "utf8")
    const reasons = [...text.matchAll(/"([a-z][a-z_]+)"/g)].map((m) => m[1] ?? "").filter((r) => known.has(r))
    if (reasons.length === 0) continue
    const bucket = (found[key] ??= { create: new Set(), actions: new Set(), any: new Set() })
    for (const reason of reasons) bucket[kindOf(file)].add(reason)
  }
  return Object.fromEntries(Object.entries(found).sort(([a], [b]) => a.localeCompare(b)).map(([key, kinds]) => [
    key,
    { create: [...kinds.create].sort(), actions: [...kinds.actions].sort(), any: [...kinds.any].sort() }
  ]))
}

const CLIENT = join(ROOT, "node_modules/gocardless-nodejs/cjs")

/**
 * The official client's method for each operation, `METHOD /path` (identifiers as `{id}`) →
 * `<service>.<method>` as a program calls it (`client.payments.create`), read from the client's
 * own code: each service's getter on the client and each method's `path` and `method`.
 */
export const clientMethods = (): Record<string, string> => {
  const client = readFileSync(join(CLIENT, "client.js"), "utf8")
  const getters = new Map([...client.matchAll(/get (\w+)\(\) \{\s*if \(!this\._\w+\) \{\s*this\._\w+ = new \w+\.(\w+)\(/g)].map((m) => [m[2] ?? "", m[1] ?? ""]))
  const out: Record<string, string> = {}
  for (const file of readdirSync(join(CLIENT, "services")).filter((f) => f.endsWith(".js")).sort()) {
    const code = readFileSync(join(CLIENT, "services", file), "utf8")
    const service = getters.get(/class (\w+)/.exec(code)?.[1] ?? "")
    if (service === undefined) continue
    for (const m of code.matchAll(/async (\w+)\([^)]*\) \{[^]*?path: '([^']+)',\s*method: '(\w+)'/g)) {
      out[`${(m[3] ?? "").toUpperCase()} ${(m[2] ?? "").replace(/:\w+/g, "{id}")}`] = `${service}.${m[1] ?? ""}`
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)))
}

/** The events' causes the engine records, each with its origin and its description, read from the engine's `Cause` literals. */
/**
 * Causes the engine writes that never reach an event's details: a dry run of a machine to test
 * whether an action applies (`check`), and a webhook delivery's own record (`webhook_delivery`).
 */
const INTERNAL_CAUSES: ReadonlySet<string> = new Set(["check", "webhook_delivery"])

export const eventCauses = (): Record<string, { readonly origin: string; readonly description: string }> => {
  const out: Record<string, { readonly origin: string; readonly description: string }> = {}
  for (const file of files(ENGINE)) {
    if (file.includes("/testing/")) continue
    for (const m of readFileSync(file, "utf8").matchAll(/origin: "(\w+)", cause: "([a-z_]+)", description: "([^"]+)"/g)) {
      out[m[2] ?? ""] ??= { origin: m[1] ?? "", description: m[3] ?? "" }
    }
    for (const m of readFileSync(file, "utf8").matchAll(/cause: "([a-z_]+)"/g)) out[m[1] ?? ""] ??= { origin: "", description: "" }
  }
  return Object.fromEntries(Object.entries(out).filter(([cause]) => !INTERNAL_CAUSES.has(cause)).sort(([a], [b]) => a.localeCompare(b)))
}

/** The resources of the API: the first segment of every path its rooms serve. */
const resourceKeys = (): ReadonlyArray<string> =>
  [...new Set(PAYKIT_ROUTES.map(({ endpoint }) => endpoint.path.split("/")[1] ?? ""))].filter((k) => k !== "")

export const referenceSources = () => ({
  fields: specFields(readFileSync(SPEC_FILE, "utf8")),
  operations: specOperations(readFileSync(SPEC_FILE, "utf8")),
  reasons: engineReasons(resourceKeys()),
  client: clientMethods(),
  events: eventCauses()
})

/** The module's text: generated, never edited by hand. */
export const sourcesModule = (): string =>
  `// Generated by scripts/reference-sources.ts from the specification and the engine's sources: do not edit.\n` +
  `export const REFERENCE_SOURCES = ${JSON.stringify(referenceSources(), null, 1)} as const\n`

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SOURCES_FILE, sourcesModule())
  console.log(`wrote ${SOURCES_FILE}`)
}
