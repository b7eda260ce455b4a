/**
 * The guides as an app follows them, for the pack check (`pack-check.ts`): each guide's install
 * lines and its code, read from the page as written. A block marked `<!-- file: path -->` is that
 * file of the app; a block marked `<!-- snippet: name -->` is `snippets/<name>.ts`, which a driver
 * of the check runs; `<!-- tsconfig -->` in docs/packaging.md is the app's tsconfig.
 */
import { readFileSync } from "node:fs"
import { builtinModules } from "node:module"
import { join } from "node:path"

export interface GuideFile {
  readonly path: string
  readonly text: string
}

export interface Guide {
  readonly doc: string
  /** The guide's directory in the app. */
  readonly slug: string
  readonly files: ReadonlyArray<GuideFile>
  /** The arguments of each `npm install` line, in the page's order. */
  readonly installs: ReadonlyArray<ReadonlyArray<string>>
  /** What the check runs with node, relative to the guide's directory. */
  readonly runs: ReadonlyArray<string>
}

interface GuideSpec {
  readonly doc: string
  readonly slug: string
  /** The files to run; `"every file"` runs each marked file, `"every snippet"` a driver per snippet. */
  readonly runs: ReadonlyArray<string> | "every file" | "every snippet"
}

/** The guides an embedder follows, in the order the check installs them (the tsconfig's own packages first). */
export const GUIDE_SPECS: ReadonlyArray<GuideSpec> = [
  { doc: "docs/packaging.md", slug: "packaging", runs: [] },
  { doc: "docs/embedding-the-engine.md", slug: "engine", runs: ["examples/engine-run.ts"] },
  { doc: "docs/property-testing.md", slug: "properties", runs: "every file" },
  { doc: "docs/embedding-http.md", slug: "http", runs: "every snippet" },
  // The contract suite as a vitest file, run by the vitest the guide installs.
  { doc: "docs/storage-adapters.md", slug: "storage", runs: ["../../node_modules/vitest/vitest.mjs run"] }
]

const MARKED_FILE = /<!-- file: (\S+) -->\n```ts\n([\s\S]*?)```/g
const SNIPPET = /<!-- snippet: (\S+) -->\n```ts\n([\s\S]*?)```/g
const INSTALL_LINE = /^npm install (.+)$/gm
const SH_BLOCK = /```sh\n([\s\S]*?)```/g

/** The bindings a snippet's driver reads, exported from the snippet as the server tests do. */
const snippetExports = (text: string): string =>
  ["paykit", "server", "app"].filter((name) => new RegExp(`^const ${name} =`, "m").test(text)).join(", ")

export const readGuide = (root: string, spec: GuideSpec): Guide => {
  const page = readFileSync(join(root, spec.doc), "utf8")
  const marked = [...page.matchAll(MARKED_FILE)].map((m) => ({ path: m[1] ?? "", text: m[2] ?? "" }))
  const snippets = [...page.matchAll(SNIPPET)].map((m) => ({
    path: `snippets/${m[1] ?? ""}.ts`,
    text: `${m[2] ?? ""}\nexport { ${snippetExports(m[2] ?? "")} }\n`
  }))
  const installs = [...page.matchAll(SH_BLOCK)].flatMap((block) =>
    [...(block[1] ?? "").matchAll(INSTALL_LINE)].map((line) => (line[1] ?? "").split(" ").filter((s) => s !== "")))
  const runs = spec.runs === "every file" ? marked.map((f) => f.path)
    : spec.runs === "every snippet" ? snippets.map((s) => `${SNIPPET_DRIVER} ${s.path}`)
    : spec.runs
  return { doc: spec.doc, slug: spec.slug, files: [...marked, ...snippets, ...(snippets.length > 0 ? [driverFile] : [])], installs, runs }
}

/** The tsconfig docs/packaging.md states, with the files the app checks. */
export const appTsconfig = (root: string, include: ReadonlyArray<string>): string => {
  const block = /<!-- tsconfig -->\n```json\n([\s\S]*?)```/.exec(readFileSync(join(root, "docs", "packaging.md"), "utf8"))?.[1]
  if (block === undefined) throw new Error("docs/packaging.md states no tsconfig (a json block marked <!-- tsconfig -->)")
  return JSON.stringify({ ...(JSON.parse(block) as object), include }, null, 2)
}

// ---------------------------------------------------------------------------------------------
// What a guide's install lines must name

interface Manifest {
  readonly dependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>
}

const manifestOf = (root: string, name: string): Manifest =>
  JSON.parse(readFileSync(join(root, "packages", name.replace("@paykit/", ""), "package.json"), "utf8")) as Manifest

/** The packages a file imports (bare specifiers reduced to the package, Node's own left out). */
export const importedPackages = (code: string): Array<string> =>
  [...code.matchAll(/(?:from|import)\s+"([^".][^"]*)"/g)].map((m) => {
    const parts = (m[1] ?? "").split("/")
    return (parts[0]?.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/")
  }).filter((name) => !name.startsWith("node:") && !builtinModules.includes(name))

/**
 * What an install line must name for the guide to work from tarballs: every package its code
 * imports, every `@paykit/*` package those depend on (npm installs a tarball's dependencies only
 * from a registry), and their peers that are not optional (effect, the `@effect/*` clients).
 */
export const neededPackages = (root: string, guide: Guide): Set<string> => {
  const needed = new Set<string>()
  const visit = (name: string): void => {
    if (needed.has(name)) return
    needed.add(name)
    if (!name.startsWith("@paykit/")) return
    const manifest = manifestOf(root, name)
    for (const dep of Object.keys(manifest.dependencies ?? {})) if (dep.startsWith("@paykit/")) visit(dep)
    for (const peer of Object.keys(manifest.peerDependencies ?? {})) if (manifest.peerDependenciesMeta?.[peer]?.optional !== true) visit(peer)
  }
  const named = guide.installs.flat().filter((a) => !a.startsWith("-"))
  for (const name of [...guide.files.flatMap((f) => importedPackages(f.text)), ...named.filter((n) => n.startsWith("@paykit/"))]) visit(name)
  return needed
}

/** The packages a guide needs that none of its install lines names. */
export const missingFromInstalls = (root: string, guide: Guide): Array<string> => {
  const named = new Set(guide.installs.flat())
  return [...neededPackages(root, guide)].filter((name) => !named.has(name)).sort()
}

/**
 * An install line's arguments as the check runs them: a `@paykit/*` package as its tarball, a
 * package the workspace pins at that version (what the tests ran with), flags as written.
 */
export const installArguments = (args: ReadonlyArray<string>, tarballOf: (name: string) => string | undefined, pins: Readonly<Record<string, string>>) =>
  args.map((arg) => arg.startsWith("-") ? arg : tarballOf(arg) ?? (pins[arg] === undefined ? arg : `${arg}@${pins[arg]}`))

// ---------------------------------------------------------------------------------------------
// The driver of the HTTP snippets

const SNIPPET_DRIVER = "snippets/drive.ts"

/**
 * Runs one snippet of docs/embedding-http.md as written, on a free port: the host it builds answers
 * `GET /paykit/customers` with the token paykit made (a fetch handler is called directly).
 */
const driverFile: GuideFile = {
  path: SNIPPET_DRIVER,
  text: `import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { PaykitApp } from "@paykit/server"

process.env["PORT"] = "0"
const file = process.argv[2] ?? ""
const host = (await import(new URL(file.replace("snippets/", "./"), import.meta.url).href)) as {
  readonly paykit: PaykitApp
  readonly server?: Server
  readonly app?: { readonly server?: Server; readonly close?: () => Promise<unknown> }
}
const server = host.server ?? host.app?.server
let origin = "http://localhost"
if (server !== undefined) {
  if (!server.listening) await new Promise((resolve) => server.once("listening", resolve))
  const address = server.address() as AddressInfo
  const name = address.address === "::" || address.address === "0.0.0.0" ? "127.0.0.1" : address.family === "IPv6" ? \`[\${address.address}]\` : address.address
  origin = \`http://\${name}:\${address.port}\`
}
const send = server === undefined ? host.paykit.fetch : fetch
const response = await send(new Request(\`\${origin}/paykit/customers?limit=1\`, {
  headers: { authorization: \`Bearer \${host.paykit.accessToken ?? ""}\`, "gocardless-version": "2015-07-06" }
}))
const body = await response.text()
if (host.app?.close !== undefined) await host.app.close()
else server?.close()
await host.paykit.close()
console.log(\`\${file}: GET /paykit/customers \${response.status}\`)
if (response.status !== 200) {
  console.error(body)
  process.exit(1)
}
process.exit(0)
`
}
