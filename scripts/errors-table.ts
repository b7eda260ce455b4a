/**
 * The table of docs/errors.md, "Every operation": each engine service's operations and the error
 * tags their types declare, read from the services' interfaces (the `Context.Service` classes of
 * packages/engine/src). `packages/engine/test/errors-doc.test.ts` keeps the doc equal to it;
 * `npx tsx --conditions=@paykit/source scripts/errors-table.ts --write` (the sources; without the condition, the last build) rewrites the doc's table after a service changes.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import ts from "typescript"

const ROOT = join(import.meta.dirname, "..")
const ENGINE_SRC = join(ROOT, "packages/engine/src")
export const ERRORS_DOC = join(ROOT, "docs/errors.md")
export const BEGIN = "<!-- operations:begin (scripts/errors-table.ts) -->"
export const END = "<!-- operations:end -->"

/** `@paykit/core`'s unions, as the services name them. */
const CORE_ALIASES: Readonly<Record<string, ReadonlyArray<string>>> = {
  OperationError: ["ValidationFailed", "InvalidState", "NotFound", "StorageError", "DuplicateId"],
  StorageFailure: ["StorageError", "DuplicateId"],
  PaykitError: ["ValidationFailed", "InvalidState", "NotFound", "InvalidApiUsage", "Forbidden", "RateLimited", "FeatureNotInstalled", "StorageError", "DuplicateId"]
}

export interface ServiceOperations {
  /** The service's key, `@paykit/engine/<Name>`. */
  readonly key: string
  readonly name: string
  readonly file: string
  readonly operations: ReadonlyArray<{ readonly name: string; readonly errors: ReadonlyArray<string> }>
}

const sourceFiles = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "domain" || entry.name === "testing" ? [] : sourceFiles(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

/** The error tags of a type's text: its union's members, local and core aliases expanded. */
const tagsOf = (text: string, aliases: ReadonlyMap<string, string>, seen: ReadonlySet<string> = new Set()): ReadonlyArray<string> =>
  text.split("|").map((part) => part.trim()).filter((part) => part !== "" && part !== "never").flatMap((part) => {
    const core = CORE_ALIASES[part]
    if (core !== undefined) return core
    const local = aliases.get(part)
    if (local !== undefined && !seen.has(part)) return tagsOf(local, aliases, new Set([...seen, part]))
    // A type parameter (`E`) is the caller's own error, passed through.
    return /^[A-Z]$/.test(part) ? [] : [part]
  })

/** The error type of an operation's type: `Effect.Effect<A, E>`'s `E`, a `Stream.Stream<A, E>`'s, or none. */
const errorTextOf = (type: ts.TypeNode | undefined, sf: ts.SourceFile): string | undefined => {
  if (type === undefined) return undefined
  const result = ts.isFunctionTypeNode(type) ? type.type : type
  if (!ts.isTypeReferenceNode(result)) return undefined
  const name = result.typeName.getText(sf)
  if (name !== "Effect.Effect" && name !== "Stream.Stream") return undefined
  return result.typeArguments?.[1]?.getText(sf) ?? "never"
}

const servicesIn = (file: string): ReadonlyArray<ServiceOperations> => {
  const text = readFileSync(file, "utf8")
  if (!text.includes("Context.Service<")) return []
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const aliases = new Map<string, string>()
  sf.forEachChild((node) => {
    if (ts.isTypeAliasDeclaration(node)) aliases.set(node.name.text, node.type.getText(sf))
  })
  const found: Array<ServiceOperations> = []
  sf.forEachChild((node) => {
    if (!ts.isClassDeclaration(node) || node.name === undefined) return
    const heritage = node.heritageClauses?.[0]?.types[0]
    // `Context.Service<Self, Shape>()("key")`: the key is the outer call's argument.
    const call = heritage?.expression
    if (call === undefined || !ts.isCallExpression(call) || !ts.isCallExpression(call.expression)) return
    if (call.expression.expression.getText(sf) !== "Context.Service") return
    const [keyArg] = call.arguments
    const shape = call.expression.typeArguments?.[1]
    if (keyArg === undefined || !ts.isStringLiteral(keyArg) || shape === undefined || !ts.isTypeLiteralNode(shape)) return
    const operations = shape.members.flatMap((member) => {
      if (!ts.isPropertySignature(member) || member.name === undefined) return []
      const errorText = errorTextOf(member.type, sf)
      if (errorText === undefined) return []
      return [{ name: member.name.getText(sf), errors: [...new Set(tagsOf(errorText, aliases))].sort() }]
    })
    found.push({ key: keyArg.text, name: node.name.text, file: relative(ROOT, file), operations })
  })
  return found
}

/** Every engine service with operations, by name. */
export const engineServices = (): ReadonlyArray<ServiceOperations> =>
  sourceFiles(ENGINE_SRC).flatMap(servicesIn).filter((s) => s.operations.length > 0).sort((a, b) => a.name.localeCompare(b.name))

/** The keys of the services a module exports (a service class carries its key). */
export const exportedKeysOf = (module: object): ReadonlySet<string> =>
  new Set(Object.values(module).flatMap((value: unknown) => {
    const key: unknown = typeof value === "function" ? Reflect.get(value, "key") : undefined
    return typeof key === "string" && key.startsWith("@paykit/engine/") ? [key] : []
  }))

/** The services `@paykit/engine` exports, as `engineServices` reads them. */
export const exportedServices = (module: object, services: ReadonlyArray<ServiceOperations> = engineServices()): ReadonlyArray<ServiceOperations> => {
  const keys = exportedKeysOf(module)
  return services.filter((service) => keys.has(service.key))
}

/** The doc's table: one row per operation. */
export const errorsTable = (services: ReadonlyArray<ServiceOperations>): string =>
  [
    "| service | operation | can fail with |",
    "|---|---|---|",
    ...services.flatMap((service) =>
      service.operations.map((op) =>
        `| \`${service.name}\` | \`${op.name}\` | ${op.errors.length === 0 ? "nothing (never fails)" : op.errors.map((e) => `\`${e}\``).join(", ")} |`))
  ].join("\n")

/** The doc with its table replaced by `table`. */
export const withTable = (doc: string, table: string): string => {
  const begin = doc.indexOf(BEGIN)
  const end = doc.indexOf(END)
  if (begin < 0 || end < begin) throw new Error(`${ERRORS_DOC}: no ${BEGIN} ... ${END} block`)
  return `${doc.slice(0, begin + BEGIN.length)}\n${table}\n${doc.slice(end)}`
}

if (process.argv.includes("--write")) {
  const table = errorsTable(exportedServices(await import("@paykit/engine")))
  writeFileSync(ERRORS_DOC, withTable(readFileSync(ERRORS_DOC, "utf8"), table))
}
