import { OrganisationId } from "@paykit/core"
/**
 * Starts on in-memory PGlite: how long an embedder waits for `createPaykitApp` to listen, for the
 * test engine's first write, and for the storage contract suite.
 *
 *   npx tsx bench/start.bench.ts          (or `npm run bench start`; BENCH_SAMPLES=5, BENCH_SUITES=5)
 *
 * Each sample is a process of its own, as a test run or a restart is: in it, the first in-memory
 * database is migrated and kept as store-sql's template (`migratedPglite`), and the next starts
 * from it. A sample measures, for the test engine on `PgliteStorage()` (built, then one creditor
 * written) and for `createPaykitApp` (resolved, then a node:http server on it listening): the first
 * start (cold), the second (from the template), and, for the test engine, the peer of the code
 * before the template, an empty PGlite that `initdb`s and migrates (`PgliteClient.layer({})`). A
 * last process runs the whole storage contract (`StorageContract.cases` and `productionCases`) on
 * a fresh store per case (`freshPgliteStorage`: a schema of its own in the process's PGlite),
 * BENCH_SUITES times, and the peer's cost per case (an empty PGlite each, as the guide once showed)
 * on three cases. Medians; each figure beside its peer as a ratio.
 */
import { spawnSync } from "node:child_process"
import { createServer } from "node:http"
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

const SAMPLES = Number(process.env["BENCH_SAMPLES"] ?? 5)
const SUITES = Number(process.env["BENCH_SUITES"] ?? 5)
const START = Date.UTC(2026, 10, 23, 9)
const ORG = OrganisationId("OR000000000001")

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const timed = async (f: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now()
  await f()
  return performance.now() - t0
}

/** The test engine on `storage`, built, and one creditor written: an embedder's test's first step. */
const engineFirstWrite = async (storage: "template" | "schema" | "empty"): Promise<number> => {
  const { Effect, Layer } = await import("effect")
  const { Creditors, testEngine } = await import("@paykit/engine")
  const { PgliteClient, PgliteStorage, SqlStorage } = await import("@paykit/store-sql")
  const { freshPgliteStorage } = await import("@paykit/store-sql/testing")
  const layer = storage === "template" ? PgliteStorage()
    : storage === "schema" ? freshPgliteStorage()
    : SqlStorage.pipe(Layer.provideMerge(PgliteClient.layer({})))
  const write = Effect.gen(function*() {
    yield* (yield* Creditors).create(ORG, { name: "Acme", country_code: "GB", creditor_type: "company" })
  })
  return timed(() => Effect.runPromise(Effect.scoped(Effect.provide(write, testEngine({ seed: 1, start: START, storage: layer })))))
}

/** `createPaykitApp` in memory, resolved and served by a node:http server that listens; closed after. */
const appListening = async (): Promise<number> => {
  const { createPaykitApp } = await import("@paykit/server")
  let close = async () => {}
  const ms = await timed(async () => {
    const paykit = await createPaykitApp({ log: () => {} })
    const server = createServer((request, response) => paykit.handleNode(request, response))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    close = async () => {
      server.close()
      await paykit.close()
    }
  })
  await close()
  return ms
}

const sample = async () => {
  const engineCold = await engineFirstWrite("template")
  const engineWarm = await engineFirstWrite("template")
  const enginePeer = await engineFirstWrite("empty")
  // The first fresh schema opens the process's PGlite; the second is what each later test pays.
  await engineFirstWrite("schema")
  const engineSchema = await engineFirstWrite("schema")
  const appCold = await appListening()
  const appWarm = await appListening()
  console.log(JSON.stringify({ engineCold, engineWarm, engineSchema, enginePeer, appCold, appWarm }))
}

/** The whole storage contract on a fresh in-memory database per case, SUITES times; the peer per case on three cases. */
const contract = async () => {
  const { Effect, Layer } = await import("effect")
  const { StorageContract } = await import("@paykit/engine/testing")
  const { PgliteClient, ProductionSqlStorage } = await import("@paykit/store-sql")
  const { freshPgliteStorage } = await import("@paykit/store-sql/testing")
  const cases = [...StorageContract.cases, ...StorageContract.productionCases]
  const first = await timed(() => Effect.runPromise(Effect.scoped(Layer.build(freshPgliteStorage()))))
  const suites: Array<number> = []
  for (let i = 0; i < SUITES; i++) {
    suites.push(await timed(async () => {
      for (const contractCase of cases) await StorageContract.run(contractCase, freshPgliteStorage())
    }))
  }
  const peer: Array<number> = []
  for (const contractCase of cases.slice(0, 3)) {
    peer.push(await timed(() => StorageContract.run(contractCase, ProductionSqlStorage.pipe(Layer.provide(PgliteClient.layer({}))))))
  }
  console.log(JSON.stringify({ cases: cases.length, first, suites, peerPerCase: median(peer) }))
}

const child = (flag: string): unknown => {
  const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1] ?? "", flag], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 })
  const line = r.stdout.trim().split("\n").at(-1) ?? ""
  if (r.status !== 0 || !line.startsWith("{")) throw new Error(`${flag} failed: ${r.stderr.slice(-2000)}`)
  return JSON.parse(line)
}

if (process.argv.includes("--sample")) await sample()
else if (process.argv.includes("--contract")) await contract()
else {
  const samples = Array.from({ length: SAMPLES }, () => child("--sample") as Record<"engineCold" | "engineWarm" | "engineSchema" | "enginePeer" | "appCold" | "appWarm", number>)
  const of = (key: keyof (typeof samples)[number]) => median(samples.map((s) => s[key]))
  console.log(`${SAMPLES} processes, medians (two-core machine, shared with other work):`)
  const before = of("enginePeer")
  console.log(`test engine on PGlite, first write: an empty PGlite migrated (before) ${seconds(before)}; from the template ${seconds(of("engineWarm"))} ` +
    `(${(of("engineWarm") / before).toFixed(2)}x); on a fresh schema of the process's PGlite ${seconds(of("engineSchema"))} (${(of("engineSchema") / before).toFixed(2)}x); ` +
    `the process's first (template made) ${seconds(of("engineCold"))}`)
  console.log(`createPaykitApp in memory, listening: from the template ${seconds(of("appWarm"))}; the process's first ${seconds(of("appCold"))}: ` +
    `${(of("appWarm") / of("appCold")).toFixed(2)}x of the first`)
  const suite = child("--contract") as { cases: number; first: number; suites: ReadonlyArray<number>; peerPerCase: number }
  console.log(`storage contract on PGlite (${suite.cases} cases, a fresh database each): ${seconds(median(suite.suites))} a suite (median of ${suite.suites.length}); ` +
    `the process's PGlite opened in ${seconds(suite.first)}; before, a case's empty PGlite cost ${seconds(suite.peerPerCase)}: ` +
    `${seconds(suite.peerPerCase * suite.cases)} a suite by that, ${(median(suite.suites) / (suite.peerPerCase * suite.cases)).toFixed(2)}x`)
}
