/**
 * The packages as an app meets them: every workspace package packed with `npm pack`, installed
 * from its tarball into a scratch app that has effect already, then checked. One line per check,
 * "ok" or "FAIL"; exits 1 when any fails. `.ci/run` runs it after the build (docs/packaging.md).
 *
 *   npx tsx scripts/pack-check.ts            (builds first; KEEP=1 keeps the scratch directory)
 */
import { execFileSync, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import type { PaykitBin } from "../packages/server/test/cli-journey.ts"

const ROOT = join(import.meta.dirname, "..")

/**
 * The largest tarball (bytes, gzipped) each package may ship: about a fifth above its size when set.
 * Raise one knowingly (a dataset, a new room), never just to pass. The server's and http's were
 * raised on 2026-11-27 when `createPaykitApp`, the sandbox organisations, the reference and the
 * testing subpath landed (server 156 KB, http 254 KB then); the server's again when the `paykit`
 * command (195 KB) and the dashboard landed (248 KB merged with main as it
 * stood at 15:30 UTC, before the command and the recorded reference examples); store-sql's when its
 * unit of work came to hold writes and read ahead (86 KB before it), and again when its PGlite
 * client came to name its statements (101.5 KB with them, 100 KB the budget).
 */
const TARBALL_BUDGET: Readonly<Record<string, number>> = {
  "@paykit/core": 80_000,
  "@paykit/machines": 80_000,
  "@paykit/money": 56_000,
  "@paykit/schedule": 70_000,
  "@paykit/validation": 95_000,
  "@paykit/engine": 1_000_000,
  "@paykit/store-sql": 120_000,
  "@paykit/http": 310_000,
  "@paykit/server": 300_000
}

/** What an embedder without mandate PDFs or logos installs; none of the heavy packages may follow. */
const LIGHT_APP = ["@paykit/core", "@paykit/schedule", "@paykit/engine", "@paykit/store-sql"]
const HEAVY = ["sharp", "pdfkit", "dejavu-fonts-ttf"]

let failures = 0
const started = Date.now()
/** One line per check, with the seconds since the start; what went wrong follows a failure only. */
const check = (name: string, ok: boolean, detail = ""): void => {
  if (!ok) failures += 1
  const at = `${String(Math.round((Date.now() - started) / 1000)).padStart(4)}s`
  console.log(`${ok ? "ok  " : "FAIL"} ${at} ${name}${ok || detail === "" ? "" : `\n${detail}`}`)
}

const run = (cmd: string, args: ReadonlyArray<string>, cwd: string): string =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 })

interface Outcome { readonly ok: boolean; readonly out: string }

/** A command whose failure is a finding, not a crash: whether it exited 0, and its outputs. */
const attempt = (cmd: string, args: ReadonlyArray<string>, cwd: string, timeoutMs = 120_000): Promise<Outcome> =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, timeout: timeoutMs, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()))
    child.on("error", (e) => resolve({ ok: false, out: e.message }))
    child.on("close", (code) => resolve({ ok: code === 0, out: out.trim() }))
  })

/** The node devDependency's binary: the Node 22 the workspace runs on, whatever the machine's is. */
let nodeBinary: string | undefined
const workspaceNode = (): string => (nodeBinary ??= run("npm", ["exec", "--", "node", "-p", "process.execPath"], ROOT).trim())

const lastLines = (text: string, n = 12): string => text.split("\n").slice(-n).join("\n")

interface PackedFile { readonly path: string }
interface Packed { readonly name: string; readonly filename: string; readonly size: number; readonly files: ReadonlyArray<PackedFile> }

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"))
const rootManifest = readJson(join(ROOT, "package.json")) as { workspaces: Array<string>; devDependencies: Record<string, string> }

/** The peers every app installs first, at the versions the workspace tests with. */
const peersFirst = (): Array<string> =>
  Object.entries(rootManifest.devDependencies)
    .filter(([name]) => name === "effect" || (name.startsWith("@effect/") && name !== "@effect/vitest") || name === "@types/node")
    .map(([name, version]) => `${name}@${version}`)

const pack = (into: string): ReadonlyArray<Packed> => {
  const out = run("npm", ["pack", "--workspaces", "--json", "--pack-destination", into], ROOT)
  // npm prints its JSON after any lifecycle output; the array is the last top-level value.
  return JSON.parse(out.slice(out.indexOf("[\n"))) as ReadonlyArray<Packed>
}

const checkTarballs = (packed: ReadonlyArray<Packed>): void => {
  for (const p of packed) {
    const budget = TARBALL_BUDGET[p.name]
    check(`${p.name}: tarball ${p.size} bytes within its budget ${budget ?? "(none set)"}`, budget !== undefined && p.size <= budget)
    const buildInfo = p.files.filter((f) => f.path.endsWith(".tsbuildinfo"))
    check(`${p.name}: no .tsbuildinfo in the tarball`, buildInfo.length === 0, buildInfo.map((f) => f.path).join(", "))
    check(`${p.name}: LICENSE and README.md in the tarball`, ["LICENSE", "README.md"].every((f) => p.files.some((x) => x.path === f)))
  }
}

interface Manifest {
  readonly license?: string
  readonly engines?: { readonly node?: string }
  readonly sideEffects?: unknown
  readonly peerDependencies?: Readonly<Record<string, string>>
  readonly repository?: unknown
}

/** A `repository` field's URL (the string form or `{url}`), and the `directory` of the object form. */
const urlOf = (repository: unknown): string | undefined =>
  typeof repository === "string" ? repository
    : typeof repository === "object" && repository !== null && "url" in repository && typeof repository.url === "string" ? repository.url
    : undefined
const directoryOf = (repository: unknown): unknown =>
  typeof repository === "object" && repository !== null && "directory" in repository ? repository.directory : undefined

/**
 * What each package's `package.json` declares (docs/packaging.md, "Package hygiene"): no key twice
 * at its top level (JSON.parse keeps the last, so a second `peerDependencies` silently dropped
 * `effect` from three packages once), `license`, `engines.node`, `sideEffects`, `effect` as a peer,
 * and `repository` exactly when the root has one: the root's URL with the package's directory.
 */
const checkManifests = (): void => {
  const root = readJson(join(ROOT, "package.json")) as Manifest
  for (const workspace of rootManifest.workspaces) {
    const text = readFileSync(join(ROOT, workspace, "package.json"), "utf8")
    const manifest = JSON.parse(text) as Manifest & { readonly name: string }
    const keys = [...text.matchAll(/^ {2}"([^"]+)":/gm)].map((m) => m[1])
    const twice = keys.filter((key, i) => keys.indexOf(key) !== i)
    check(`${manifest.name}: package.json names each top-level key once`, twice.length === 0, twice.join(", "))
    const missing = [
      ...(manifest.license === undefined ? ["license"] : []),
      ...(manifest.engines?.node === undefined ? ["engines.node"] : []),
      ...(manifest.sideEffects === undefined ? ["sideEffects"] : []),
      ...(manifest.peerDependencies?.["effect"] === undefined ? ["peerDependencies.effect"] : [])
    ]
    check(`${manifest.name}: declares license, engines, sideEffects and effect as a peer`, missing.length === 0, missing.join(", "))
    const expected = urlOf(root.repository) === undefined ? undefined : `${urlOf(root.repository)} ${workspace}`
    const found = urlOf(manifest.repository) === undefined ? undefined : `${urlOf(manifest.repository)} ${directoryOf(manifest.repository)}`
    check(`${manifest.name}: repository ${expected === undefined ? "absent, as the root has none" : "is the root's URL with its directory"}`,
      found === expected, JSON.stringify(manifest.repository))
  }
}

const install = (app: string, specs: ReadonlyArray<string>): Promise<Outcome> =>
  attempt("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...specs], app, 300_000)

const makeApp = async (label: string, dir: string, tarballs: ReadonlyArray<string>): Promise<boolean> => {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "scratch-app", private: true, type: "module" }, null, 2))
  const first = await install(dir, peersFirst())
  check(`${label}: effect installed first (${peersFirst().join(" ")})`, first.ok, lastLines(first.out))
  const rest = await install(dir, tarballs)
  check(`${label}: ${tarballs.length} tarballs installed`, rest.ok, lastLines(rest.out))
  return first.ok && rest.ok
}

/** Every copy of a package in an app, by walking its node_modules (npm ls's view, without its dedupe notes). */
const copiesOf = (app: string, name: string): Array<string> => {
  const found: Array<string> = []
  const walk = (modules: string): void => {
    let entries: Array<string>
    try {
      entries = readdirSync(modules)
    } catch {
      return
    }
    for (const entry of entries) {
      const dirs = entry.startsWith("@") ? readdirSync(join(modules, entry)).map((n) => `${entry}/${n}`) : [entry]
      for (const pkg of dirs) {
        if (pkg === name) found.push(relative(app, join(modules, pkg)))
        walk(join(modules, pkg, "node_modules"))
      }
    }
  }
  walk(join(app, "node_modules"))
  return found
}

/** `npm ls <name> --all --parseable`: the paths npm resolves the package at. */
const npmLs = (app: string, names: ReadonlyArray<string>): Promise<Outcome> => attempt("npm", ["ls", ...names, "--all", "--parseable"], app)

/** The first TypeScript block of a README: its example, the package's first use. */
const exampleOf = (readme: string): string | undefined => /```ts\n([\s\S]*?)```/.exec(readFileSync(readme, "utf8"))?.[1]

/** The packages an example imports (bare specifiers, reduced to the package name). */
const importedPackages = (code: string): Array<string> =>
  [...code.matchAll(/from "([^".][^"]*)"/g)].map((m) => {
    const parts = (m[1] ?? "").split("/")
    return (parts[0]?.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/")
  })

/** The README's install command: `npm install ...` in a sh block. */
const installLine = (readme: string): Array<string> =>
  (/```sh\nnpm install ([^\n]*)\n/.exec(readFileSync(readme, "utf8"))?.[1] ?? "").split(" ").filter((s) => s !== "")

const checkExamples = async (app: string): Promise<void> => {
  const dir = join(app, "examples")
  mkdirSync(dir)
  const readmes = [
    ...rootManifest.workspaces.map((w) => ({ name: w.replace("packages/", "@paykit/"), file: join(ROOT, w, "README.md") })),
    { name: "root README", file: join(ROOT, "README.md") }
  ]
  const node = workspaceNode()
  const runs: Array<() => Promise<void>> = []
  for (const { name, file } of readmes) {
    const code = exampleOf(file)
    check(`${name}: README has a TypeScript example`, code !== undefined)
    if (code === undefined) continue
    if (name !== "root README") {
      const missing = importedPackages(code).filter((p) => !installLine(file).includes(p))
      check(`${name}: README begins with an install line naming every package its example imports`, missing.length === 0, missing.join(", "))
    }
    const slug = name === "root README" ? "root" : name.replace("@paykit/", "")
    writeFileSync(join(dir, `${slug}.ts`), code)
    // Node 22 strips the types itself: the example runs as written, from the installed packages.
    runs.push(() => attempt(node, ["--disable-warning=ExperimentalWarning", join(dir, `${slug}.ts`)], app, 300_000).then((ran) =>
      check(`${name}: example runs on Node ${run(node, ["-v"], app).trim()} from the installed packages`, ran.ok, lastLines(ran.out))))
  }
  writeFileSync(join(app, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      target: "ES2023", lib: ["ES2023"], module: "NodeNext", moduleResolution: "NodeNext", strict: true,
      verbatimModuleSyntax: true, allowImportingTsExtensions: true, noEmit: true, types: ["node"], skipLibCheck: false
    },
    include: ["examples/*.ts", "property/*.ts"]
  }, null, 2))
  const tsc = await attempt(join(ROOT, "node_modules", ".bin", "tsc"), ["-p", app, "--pretty", "false"], app, 300_000)
  // skipLibCheck is off, so every declaration file is checked; errors in third-party ones (effect's, pglite's) are theirs.
  const errors = tsc.out.split("\n").filter((l) => / error TS\d+/.test(l))
  const ours = errors.filter((l) => !l.startsWith("node_modules/") || l.startsWith("node_modules/@paykit/"))
  check(`README examples and the property test type-check against the installed .d.ts (skipLibCheck: false; ${errors.length - ours.length} errors in third-party files ignored)`,
    ours.length === 0, ours.slice(0, 15).join("\n"))
  await inTurn(runs, 2)
}

/** Runs the tasks at most `width` at a time (the examples start databases and servers; CI machines are small). */
const inTurn = async (tasks: ReadonlyArray<() => Promise<void>>, width: number): Promise<void> => {
  const queue = [...tasks]
  const lane = async (): Promise<void> => {
    for (let task = queue.shift(); task !== undefined; task = queue.shift()) await task()
  }
  await Promise.all(Array.from({ length: width }, lane))
}

/** The `@paykit/*` packages a set needs (not on a registry yet, so their tarballs are installed too). */
const withPaykitDependencies = (names: ReadonlyArray<string>): Array<string> => {
  const all = new Set<string>()
  const visit = (name: string): void => {
    if (all.has(name)) return
    all.add(name)
    const manifest = readJson(join(ROOT, "packages", name.replace("@paykit/", ""), "package.json")) as { dependencies?: Record<string, string> }
    for (const dep of Object.keys(manifest.dependencies ?? {})) if (dep.startsWith("@paykit/")) visit(dep)
  }
  names.forEach(visit)
  return [...all]
}

/**
 * A property test as an embedder writes one, without vitest: plain `fc.assert` over the arbitraries
 * of `@paykit/schedule/testing` and `@paykit/machines/testing`, and effect's `Arbitrary` derived
 * from the Schemas of dates and amounts (they carry the constraints that build values, so the
 * derivation does not discard its way to a failure). Run by node and type-checked with the examples.
 */
const PROPERTY_TEST = `
import assert from "node:assert/strict"
import { Arbitrary, Effect, Result, Schema } from "effect"
import fc from "fast-check"
import { Amount, LocalDate, makeLocalDate, PositiveAmount } from "@paykit/core"
import { CASES, eventPathArb } from "@paykit/machines/testing"
import { planSubscription } from "@paykit/schedule"
import { CALENDARS, schemeDateArb, subscriptionRequestArb } from "@paykit/schedule/testing"

fc.assert(fc.property(subscriptionRequestArb, ({ context, request }) => Result.isSuccess(planSubscription(request, context))), { numRuns: 200 })
for (const calendar of CALENDARS) {
  fc.assert(fc.property(schemeDateArb(calendar, makeLocalDate(2020, 1, 1), makeLocalDate(2030, 12, 31)), (d) => calendar.isBusinessDay(d)), { numRuns: 100 })
}
for (const machineCase of CASES) {
  fc.assert(fc.property(eventPathArb(machineCase), ({ initial, entries }) =>
    entries.every((entry, i) => entry.from === (i === 0 ? initial : entries[i - 1]?.to) && machineCase.machine.states.includes(entry.to))), { numRuns: 50 })
}
const derived = [["LocalDate", LocalDate], ["Amount", Amount], ["PositiveAmount", PositiveAmount]] as const
for (const [name, schema] of derived) {
  const values = await Effect.runPromise(Arbitrary.sampleEffect(Arbitrary.schema(schema), { count: 200 }))
  assert.equal(values.length, 200, name)
  for (const value of values) assert.ok(Schema.is(schema)(value), \`\${name}: \${String(value)}\`)
}
console.log(\`properties held: subscription requests, scheme dates, \${CASES.length} machines' event paths, \${derived.length} derived Schemas\`)
`

/** fast-check at the workspace's version (the kits' optional peer), and the property test written where the type check reads it. */
const preparePropertyTest = async (app: string): Promise<boolean> => {
  const fastCheck = await install(app, [`fast-check@${rootManifest.devDependencies["fast-check"] ?? "missing"}`])
  check("app with every package: fast-check installed (the testing kits' peer)", fastCheck.ok, lastLines(fastCheck.out))
  mkdirSync(join(app, "property"))
  writeFileSync(join(app, "property", "kits.property.ts"), PROPERTY_TEST)
  return fastCheck.ok
}

const runPropertyTest = async (app: string): Promise<void> => {
  const ran = await attempt(workspaceNode(), ["--disable-warning=ExperimentalWarning", join(app, "property", "kits.property.ts")], app, 300_000)
  check("a property test over @paykit/schedule/testing and @paykit/machines/testing runs with plain fast-check", ran.ok && /^properties held/m.test(ran.out), lastLines(ran.out))
}

const checkFullApp = async (app: string, tarballs: ReadonlyArray<string>): Promise<void> => {
  const label = "app with every package"
  if (!(await makeApp(label, app, tarballs))) return
  const effects = copiesOf(app, "effect")
  check(`${label}: exactly one effect`, effects.length === 1, effects.join(", "))
  const ls = await npmLs(app, ["effect"])
  check(`${label}: npm ls effect is clean (no invalid or missing peer)`, ls.ok, lastLines(ls.out))
  const property = await preparePropertyTest(app)
  await checkExamples(app)
  if (property) await runPropertyTest(app)
}

/**
 * A logo upload in the light app: the engine loads without sharp, and the one feature that needs
 * it answers `FeatureNotInstalled` naming it (the image, a 1x1 PNG, passes the request's checks).
 */
const LOGO_WITHOUT_SHARP = `
import { Effect } from "effect"
import { inMemoryEngine, Logos } from "@paykit/engine"
const image = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
const upload = Effect.gen(function*() { return yield* (yield* Logos).upload("OR0000000000AA", { image }) })
const error = await Effect.runPromise(Effect.flip(Effect.provide(upload, inMemoryEngine({ seed: 1 }))))
console.log(error._tag, error.message)
`

const checkLightApp = async (app: string, tarball: (name: string) => string): Promise<void> => {
  const label = `app with ${LIGHT_APP.join(", ")}`
  if (!(await makeApp(label, app, withPaykitDependencies(LIGHT_APP).map(tarball)))) return
  const heavy = HEAVY.flatMap((name) => copiesOf(app, name))
  check(`${label}: no ${HEAVY.join(", ")} installed`, heavy.length === 0, heavy.join(", "))
  const ls = await npmLs(app, HEAVY)
  const listed = ls.out.split("\n").filter((l) => l.includes("node_modules"))
  check(`${label}: npm ls ${HEAVY.join(" ")} lists none`, listed.length === 0, lastLines(ls.out))
  writeFileSync(join(app, "logo.mjs"), LOGO_WITHOUT_SHARP)
  const logo = await attempt(workspaceNode(), [join(app, "logo.mjs")], app)
  check(`${label}: a logo upload fails with FeatureNotInstalled naming sharp`, logo.ok && /^FeatureNotInstalled .*npm install sharp/m.test(logo.out), lastLines(logo.out))
}

/**
 * The `paykit` bin as the app installed it, run as a program on Node 22 (first on the PATH, for
 * its `#!/usr/bin/env node`): `--help`, then `start` with flags serving `GET /`, then `listen
 * --forward-to` delivering a mandate's `created` event to a receiver with a valid signature.
 */
const checkBin = async (app: string): Promise<void> => {
  const label = "app with every package: the paykit bin"
  // Imported once built: the journey's client helpers load the workspace's packages from their dist.
  const { listenJourney, runPaykit, startWithFlags, stopPaykit } = await import("../packages/server/test/cli-journey.ts")
  const bin: PaykitBin = { command: join(app, "node_modules", ".bin", "paykit"), args: [], cwd: app, env: { PATH: `${dirname(workspaceNode())}:${process.env["PATH"] ?? ""}` } }
  const help = runPaykit(bin, ["--help"])
  const helpCode = await help.exited
  check(`${label}: paykit --help exits 0 listing start and listen`, helpCode === 0 && /start/.test(help.output()) && /listen/.test(help.output()), lastLines(help.output()))
  let started: Awaited<ReturnType<typeof startWithFlags>> | undefined
  try {
    started = await startWithFlags(bin, join(app, "paykit-data"))
    check(`${label}: paykit start --port ... serves GET / (${started.rootStatus})`, started.rootStatus === 200)
    const journey = await listenJourney(bin, started.url)
    check(`${label}: paykit listen --forward-to delivered ${journey.mandate}'s created event with a valid signature, exit ${journey.exitCode} on SIGTERM`,
      journey.created?.signatureValid === true && journey.exitCode === 0, lastLines(journey.output))
  } catch (error) {
    check(`${label}: start and listen`, false, error instanceof Error ? error.message : String(error))
  } finally {
    if (started !== undefined) await stopPaykit(started.server)
  }
}

/**
 * The packed server run as `npx <tarball> start`: npm installs the tarballs into its own cache (the
 * `@paykit/*` packages it depends on are tarballs too until they are on a registry, so each is
 * named with `--package`) and runs the bin, which serves `GET /`.
 */
const checkNpx = async (scratch: string, tarballs: ReadonlyArray<string>): Promise<void> => {
  const label = "npx <tarballs> paykit start"
  const empty = join(scratch, "npx-run")
  mkdirSync(empty)
  const cache = join(scratch, "npm-cache")
  const { runPaykit, startWithFlags, stopPaykit } = await import("../packages/server/test/cli-journey.ts")
  const bin: PaykitBin = {
    command: "npx",
    args: ["--yes", "--cache", cache, ...tarballs.flatMap((t) => ["--package", t]), "--", "paykit"],
    cwd: empty,
    env: { PATH: `${dirname(workspaceNode())}:${process.env["PATH"] ?? ""}` }
  }
  const help = runPaykit(bin, ["--help"])
  const helpCode = await help.exited
  check(`${label}: npx ... paykit --help exits 0 (npm installed the tarballs itself)`, helpCode === 0 && /start/.test(help.output()), lastLines(help.output()))
  let started: Awaited<ReturnType<typeof startWithFlags>> | undefined
  try {
    started = await startWithFlags(bin, join(empty, "paykit-data"))
    check(`${label}: serves GET / (${started.rootStatus})`, started.rootStatus === 200)
  } catch (error) {
    check(`${label}: start`, false, error instanceof Error ? error.message : String(error))
  } finally {
    if (started !== undefined) await stopPaykit(started.server)
  }
}

const main = async (): Promise<void> => {
  const scratch = mkdtempSync(join(tmpdir(), "paykit-pack-"))
  try {
    const built = await attempt("npm", ["run", "-s", "build"], ROOT, 600_000)
    check("npm run build", built.ok, lastLines(built.out))
    if (!built.ok) return
    const tarballDir = join(scratch, "tarballs")
    mkdirSync(tarballDir)
    const packed = pack(tarballDir)
    check(`npm pack: ${packed.length} packages packed`, packed.length === rootManifest.workspaces.length)
    checkTarballs(packed)
    checkManifests()
    const tarball = (name: string) => join(tarballDir, packed.find((p) => p.name === name)?.filename ?? `${name}-missing.tgz`)
    await Promise.all([
      checkFullApp(join(scratch, "app-all"), packed.map((p) => tarball(p.name))),
      checkLightApp(join(scratch, "app-light"), tarball)
    ])
    await checkBin(join(scratch, "app-all"))
    await checkNpx(scratch, packed.map((p) => tarball(p.name)))
  } finally {
    if (process.env["KEEP"] === "1") console.log(`scratch kept in ${scratch}`)
    else rmSync(scratch, { recursive: true, force: true })
    console.log(`pack check: ${failures === 0 ? "passed" : `${failures} failed`} in ${Math.round((Date.now() - started) / 1000)} s`)
  }
}

await main()
process.exitCode = failures === 0 ? 0 : 1
