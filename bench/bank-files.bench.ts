import { OrganisationId } from "@paykit/core"
/**
 * Bank files at scale (issue 42): writing a 100,000-collection SEPA pain.008 file and a
 * 100,000-entry NACHA file, and applying a 100,000-entry return report through the engine, each
 * compared in the same run with the day's charging of as many items (the daily run's charges a
 * second), as a ratio that must be at least 1x. The peak RSS is recorded at 10k, 50k and 100k
 * items: it must stay flat as the file grows (the writers and readers stream).
 *
 *   npm run bench -- bank-files       (BANK_FILES_SIZES=10000,50000,100000 by default)
 *
 * Each measurement runs in a process of its own, so its peak RSS is its own:
 * - `pain.008` and `nacha`: the format's writer (`schemeFilesFor(scheme).submission.writer`) handed
 *   the items one at a time, its text written to a temporary file in 64 KiB chunks (the engine's
 *   chunk size) and hashed as the engine hashes it. The process's peak RSS (`maxRSS`) is the figure.
 * - `report`: an engine (the sandbox's, on a real store) with N payments submitted (cloned from one
 *   the services submitted, with its bank item), handed a camt.054 of N returns (`AM04`) made as it
 *   is read, never whole: `BankReports.receive` checks it, stores it (a second read), then resolves and applies it
 *   a page at a time, each payment failed through its machine. The RSS is sampled while it runs,
 *   from a full collection just before it (the loading's garbage is not counted), and the heap in use
 *   after a full collection before and after it is printed (what the work keeps); PGlite keeps its data in a temporary directory, so the
 *   database's pages are not the process's heap.
 * - the peer, `charge`: one daily run charging `BANK_FILES_PEER` (default 3,000) subscriptions due,
 *   on one mandate, on the same kind of store: charges a second (after a warm-up day of 300 on a
 *   store of its own; the report has none, so its ratio is if anything low).
 *
 * PGlite always; PostgreSQL too when DATABASE_URL is set (a schema of its own, dropped after).
 *   BANK_FILES_STORES=PostgreSQL       one store only for the report and the peer (PGlite, PostgreSQL)
 *   BANK_FILES_REPORT_SIZES=1000,10000 the report's sizes, when they differ from the files'
 *   BANK_FILES_PEER=3000               subscriptions the peer's day charges
 *   BANK_FILES_HEAP_MB=256             every measuring process (the peer's too) run with this old-space
 *                                      limit: V8 lets a busy heap grow towards its own limit before it
 *                                      collects, so an unbounded run's peak RSS shows how far it let it
 *                                      grow; the same work under a fixed limit shows what it needs
 */
import { spawnSync } from "node:child_process"
import { createHash, randomUUID } from "node:crypto"
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

const SIZES = (process.env["BANK_FILES_SIZES"] ?? "10000,50000,100000").split(",").map(Number)
/** The report's sizes, when they differ from the files' (applying takes far longer than writing). */
const REPORT_SIZES = (process.env["BANK_FILES_REPORT_SIZES"] ?? SIZES.join(",")).split(",").map(Number)
const PEER = Number(process.env["BANK_FILES_PEER"] ?? 3_000)
const HEAP_MB = process.env["BANK_FILES_HEAP_MB"]
const HEAP_LIMIT = HEAP_MB === undefined ? [] : [`--max-old-space-size=${Number(HEAP_MB)}`]
const ORG = OrganisationId("OR000000000001")
/** Monday 23 November 2026, 09:00 UTC. */
const START = Date.UTC(2026, 10, 23, 9)
const DAY = 86_400_000
const CHUNK_BYTES = 64 * 1024
/** Subscriptions charged by the peer's warm-up day. */
const WARM_UP_DUE = 300
/** How often the RSS is sampled while the engine applies a report. */
const SAMPLE_MS = 20

/** What a measuring process prints, as one JSON line. */
interface Measured {
  readonly items: number
  readonly seconds: number
  /** The highest RSS seen while the work ran, in bytes. */
  readonly peakRss: number
  /** The RSS as the work began. */
  readonly startRss: number
  /** The report's: the heap in use after a full collection just before it and just after it (what the work keeps). */
  readonly heapKept?: { readonly before: number; readonly after: number }
}

/** The heap in use after a full collection (the measuring process runs with `--expose-gc`). */
const heapAfterFullGc = (): number => {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) throw new Error("the measuring process needs --expose-gc")
  gc()
  return process.memoryUsage().heapUsed
}

const MEASURED = "BANK_FILES_MEASURED "

// The measuring processes ------------------------------------------------------------------

/** The writer of `scheme`'s submission files handed `items` collections, into a temporary file. */
const writeFile = async (scheme: "sepa_core" | "ach", items: number): Promise<Measured> => {
  const { schemeFilesFor, isFileFormatError } = await import("@paykit/bank-files")
  const { unsafeLocalDate } = await import("@paykit/core")
  const { abaCheckDigit } = await import("@paykit/validation")
  const sepa = scheme === "sepa_core"
  const debtor = (i: number) => {
    if (sepa) return { account_holder_name: `Payer number ${i}`, iban: "NL91ABNA0417164300", bic: "ABNANL2A" }
    const eight = `0${String(1_000_000 + (i % 9_000_000)).padStart(7, "0")}`
    return { account_holder_name: `Payer number ${i}`, routing_number: `${eight}${abaCheckDigit(eight)}`, account_number: String(10_000 + i), account_type: "checking" as const }
  }
  const amountOf = (i: number) => 1000 + (i % 9000)
  let total = 0
  for (let i = 0; i < items; i++) total += amountOf(i)
  const files = schemeFilesFor(scheme)
  const writer = files.submission.writer({
    id: "BS000000000001",
    scheme,
    format: files.submission.format,
    currency: sepa ? "EUR" : "USD",
    processing_date: unsafeLocalDate("2026-12-01"),
    created_at: "2026-11-29T09:00:00.000Z" as import("@paykit/core").Timestamp,
    originator: sepa
      ? { creditor: "CR000000000001", name: "Acme GmbH", scheme_identifier: "DE98ZZZ09999999999", account: { account_holder_name: "Acme GmbH", iban: "DE89370400440532013000", bic: "COBADEFFXXX" } }
      : { creditor: "CR000000000002", name: "Acme Payments Inc", scheme_identifier: "1234567890", account: { account_holder_name: "Acme Payments Inc", routing_number: "121000358", account_number: "000123456789", account_type: "checking" } },
    item_count: items,
    total_amount: total
  })
  const dir = mkdtempSync(join(tmpdir(), "paykit-bank-files-"))
  const fd = openSync(join(dir, `file.${files.submission.extension}`), "w")
  const hash = createHash("sha256")
  const encoder = new TextEncoder()
  let pending = ""
  const out = (text: string, last = false) => {
    pending += text
    if (pending.length < CHUNK_BYTES && !last) return
    const bytes = encoder.encode(pending)
    hash.update(bytes)
    writeSync(fd, bytes)
    pending = ""
  }
  const startRss = process.memoryUsage.rss()
  const t0 = performance.now()
  out(writer.begin())
  for (let i = 0; i < items; i++) {
    out(writer.item({
      kind: "collection",
      payment: `PM${String(i).padStart(12, "0")}`,
      amount: amountOf(i),
      currency: sepa ? "EUR" : "USD",
      charge_date: unsafeLocalDate("2026-12-01"),
      sequence: "recurring",
      mandate: `MD${String(i).padStart(12, "0")}`,
      mandate_reference: `MD${String(i).padStart(12, "0")}`,
      mandate_signed_on: unsafeLocalDate("2026-11-01"),
      authorisation_source: "web",
      debtor: debtor(i),
      remittance: `Invoice ${i}`
    }))
  }
  const end = writer.end()
  if (isFileFormatError(end)) throw new Error(`${end.location}: ${end.message}`)
  out(end, true)
  hash.digest("hex")
  const seconds = (performance.now() - t0) / 1000
  closeSync(fd)
  rmSync(dir, { recursive: true, force: true })
  return { items, seconds, peakRss: process.resourceUsage().maxRSS * 1024, startRss }
}

type Client = import("effect").Layer.Layer<import("effect/sql").SqlClient.SqlClient, unknown>

/** The store a measuring process runs on: PGlite in a temporary directory, or a fresh schema of DATABASE_URL's PostgreSQL. */
const storeOf = async (kind: string): Promise<{ readonly client: Client; readonly close: () => Promise<void> }> => {
  const { Effect, Redacted } = await import("effect")
  const { SqlClient } = await import("effect/sql")
  const { PgClient } = await import("@effect/sql-pg")
  const store = await import("@paykit/store-sql")
  if (kind === "PGlite") {
    const dir = mkdtempSync(join(tmpdir(), "paykit-bank-files-"))
    return { client: store.PgliteClient.layer({ dataDir: dir }), close: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const base = process.env["DATABASE_URL"]
  if (base === undefined) throw new Error("PostgreSQL needs DATABASE_URL")
  const schema = `bench_bank_files_${randomUUID().replaceAll("-", "").slice(0, 12)}`
  const admin = (statement: string) =>
    Effect.runPromise(Effect.provide(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)), PgClient.layer({ url: Redacted.make(base), maxConnections: 1 })))
  await admin(`CREATE SCHEMA ${schema}`)
  return {
    client: PgClient.layer({ url: Redacted.make(base), startupParameters: { search_path: schema, application_name: "bench_bank_files" }, maxConnections: 4 }),
    close: () => admin(`DROP SCHEMA ${schema} CASCADE`).then(() => undefined)
  }
}

/** The highest RSS seen from now until `stop` is called. */
const rssSampler = () => {
  let peak = process.memoryUsage.rss()
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, SAMPLE_MS)
  return () => {
    clearInterval(timer)
    return Math.max(peak, process.memoryUsage.rss())
  }
}

/** An engine of the sandbox on `kind`'s store, on a test clock at `START`, running `work`. */
const onEngine = async <A>(kind: string, work: import("effect").Effect.Effect<A, unknown, unknown>): Promise<A> => {
  const { Effect, Layer } = await import("effect")
  const { TestClock } = await import("effect/testing")
  const engine = await import("@paykit/engine")
  const store = await import("@paykit/store-sql")
  const { client, close } = await storeOf(kind)
  try {
    return await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const storage = store.SqlStorage.pipe(Layer.provide(client), Layer.orDie)
      const context = yield* Layer.build(engine.sandboxEngineOn(storage, { seed: 7 }).pipe(Layer.provideMerge(storage), Layer.provideMerge(client), Layer.merge(TestClock.layer())))
      return yield* Effect.provideContext(Effect.andThen(TestClock.setTime(START), work), context as import("effect").Context.Context<unknown>)
    })) as import("effect").Effect.Effect<A>)
  } finally {
    await close()
  }
}

/** The camt.054 of `ids`' returns (`AM04`, `amount` each), made a chunk at a time as it is read. */
const returnsReport = async (ids: (i: number) => string, count: number, amount: number) => {
  const { Stream } = await import("effect")
  const { schemeFilesFor, isFileFormatError } = await import("@paykit/bank-files")
  const { unsafeLocalDate } = await import("@paykit/core")
  const camt = schemeFilesFor("sepa_core").reports.find((r) => r.format === "camt.054.001.02")
  if (camt === undefined) throw new Error("no camt.054")
  const encoder = new TextEncoder()
  const chunks = function*(): Generator<Uint8Array> {
    const writer = camt.writer({
      id: "RETURNS-1", scheme: "sepa_core", format: "camt.054.001.02", created_at: "2026-11-30T06:00:00.000Z" as import("@paykit/core").Timestamp,
      report_date: unsafeLocalDate("2026-11-30"), currency: "EUR",
      originator: { creditor: "CR000000000001", name: "Acme GmbH", scheme_identifier: "DE98ZZZ09999999999", account: { account_holder_name: "Acme GmbH", iban: "DE89370400440532013000" } }
    })
    let pending = writer.begin()
    for (let i = 0; i < count; i++) {
      pending += writer.entry({
        kind: "collection_returned", scheme: "sepa_core", format: "camt.054.001.02", target: { by: "end_to_end", id: ids(i) },
        code: "AM04", amount, currency: "EUR", location: ""
      })
      if (pending.length >= CHUNK_BYTES) {
        yield encoder.encode(pending)
        pending = ""
      }
    }
    const end = writer.end()
    if (isFileFormatError(end)) throw new Error(end.message)
    yield encoder.encode(pending + end)
  }
  // One chunk a pull: `fromIterable` otherwise gathers up to 4,096 elements (the whole report's
  // chunks, 61 MB at 100k) before the first is read, and the report would be held whole.
  return Stream.fromIterable({ [Symbol.iterator]: chunks }, { chunkSize: 1 })
}

/** A SEPA payer's payment submitted through the daily runs, cloned `count` times with its bank item; then the returns of all of them received. */
const applyReturns = async (kind: string, count: number): Promise<Measured> => {
  const { Effect } = await import("effect")
  const { unsafeAmount } = await import("@paykit/core")
  const engine = await import("@paykit/engine")
  const { cloneId, inChunks } = await import("./support/clone-rows.ts")
  return onEngine(kind, Effect.gen(function*() {
    const creditor = yield* (yield* engine.Creditors).create(ORG, { name: "Acme GmbH", country_code: "DE", creditor_type: "company" })
    const customers = yield* engine.Customers
    const customer = yield* customers.create(ORG, { given_name: "Erika", family_name: "Mustermann", country_code: "DE" })
    const account = yield* customers.createBankAccount(ORG, { account_holder_name: "Erika Mustermann", iban: "DE89370400440532013000", links: { customer: customer.id } })
    const mandate = yield* (yield* engine.Mandates).create(ORG, { links: { customer_bank_account: account.id, creditor: creditor.id } })
    const payments = yield* engine.Payments
    const made = yield* payments.create(ORG, { amount: unsafeAmount(1000), currency: "EUR", links: { mandate: mandate.id } })
    const simulator = yield* engine.Simulator
    for (let day = 1; day < 20 && (yield* payments.get(ORG, made.id)).status !== "submitted"; day++) yield* simulator.advanceTo(START + day * DAY)
    const paymentRepo = yield* engine.PaymentRepository
    const itemRepo = yield* engine.BankItemRepository
    const payment = (yield* paymentRepo.get(ORG, made.id)).resource
    const item = (yield* itemRepo.get(ORG, made.id)).resource
    if (payment.status !== "submitted") return yield* Effect.die(`the template payment is ${payment.status}`)
    const idOf = (i: number) => cloneId(payment.id, i)
    yield* inChunks((i) => ({ ...payment, id: idOf(i) }), count, (batch) => paymentRepo.insertAll(ORG, batch))
    yield* inChunks((i) => ({ ...item, id: idOf(i) }), count, (batch) => itemRepo.insertAll(ORG, batch))
    const bytes = yield* Effect.promise(() => returnsReport(idOf, count, payment.amount))
    const reports = yield* engine.BankReports
    const keptBefore = heapAfterFullGc()
    const stop = rssSampler()
    const startRss = process.memoryUsage.rss()
    const t0 = performance.now()
    const received = yield* reports.receive(ORG, { bytes })
    const seconds = (performance.now() - t0) / 1000
    const peakRss = stop()
    const keptAfter = heapAfterFullGc()
    if (process.env["BANK_FILES_STATEMENTS"] !== undefined) yield* yield* Effect.promise(statementTimes)
    const r = received.report
    if (r.entry_count !== count || r.matched_count !== count || r.applied_through !== count) {
      return yield* Effect.die(`the report applied ${r.matched_count} of ${count} (${r.entry_count} read, ${r.unmatched_count} unmatched, ${r.mismatched_count} mismatched)`)
    }
    const failed = yield* paymentRepo.get(ORG, idOf(count - 1))
    if (failed.resource.status !== "failed") return yield* Effect.die(`the last payment is ${failed.resource.status}`)
    return { items: count, seconds, peakRss, startRss, heapKept: { before: keptBefore, after: keptAfter } }
  }))
}

/**
 * Where the database time went (`BANK_FILES_STATEMENTS=1`): each statement's total and mean
 * time from `paykit_db_statement_duration_seconds` (the process's registry), the heaviest first.
 */
const statementTimes = async () => {
  const { Effect } = await import("effect")
  const { PrometheusMetrics } = await import("effect/observability")
  return Effect.map(PrometheusMetrics.format(), (text) => {
    const totals = new Map<string, { sum: number; count: number }>()
    for (const match of text.matchAll(/^paykit_db_statement_duration_seconds_(sum|count)\{statement="([^"]+)"\} ([0-9.e+-]+)$/gm)) {
      const [, part = "", name = "", value = "0"] = match
      const t = totals.get(name) ?? { sum: 0, count: 0 }
      totals.set(name, part === "sum" ? { ...t, sum: Number(value) } : { ...t, count: Number(value) })
    }
    for (const [name, t] of [...totals].sort((a, b) => b[1].sum - a[1].sum).slice(0, 15)) {
      console.log(`  ${name}: ${t.sum.toFixed(2)} s in ${t.count} (${((t.sum / Math.max(1, t.count)) * 1000).toFixed(3)} ms each)`)
    }
  })
}

/** The peer: one daily run charging `due` subscriptions due on one mandate (cloned from one the services made). */
const chargeDay = async (kind: string, due: number): Promise<Measured> => {
  const { Effect } = await import("effect")
  const { addDays, unsafeAmount, unsafeLocalDate } = await import("@paykit/core")
  const engine = await import("@paykit/engine")
  const { setUpPayer } = await import("@paykit/engine/testing")
  const { cloneId, inChunks } = await import("./support/clone-rows.ts")
  return onEngine(kind, Effect.gen(function*() {
    const { mandate } = yield* setUpPayer(ORG, { verifyCreditor: true })
    const simulator = yield* engine.Simulator
    yield* simulator.advanceTo(START + 4 * DAY)
    const template = yield* (yield* engine.Subscriptions).create(ORG, { amount: unsafeAmount(1000), currency: "GBP", interval_unit: "monthly", links: { mandate: mandate.id } })
    const subscriptionRepo = yield* engine.SubscriptionRepository
    const scheduleRepo = yield* engine.SubscriptionScheduleRepository
    const sub = (yield* subscriptionRepo.get(ORG, template.id)).resource
    const record = (yield* scheduleRepo.get(ORG, template.id)).resource
    const runDay = addDays(record.due_on ?? unsafeLocalDate(record.created_at.slice(0, 10)), 1)
    yield* inChunks((i) => ({ ...sub, id: cloneId(sub.id, i) }), due - 1, (batch) => subscriptionRepo.insertAll(ORG, batch))
    yield* inChunks((i) => ({ ...record, id: cloneId(sub.id, i), due_on: runDay }), due - 1, (batch) => scheduleRepo.insertAll(ORG, batch))
    const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
    const stop = rssSampler()
    const startRss = process.memoryUsage.rss()
    const t0 = performance.now()
    yield* simulator.advanceTo(engine.nextDailyRunAfter(now) + 1)
    const seconds = (performance.now() - t0) / 1000
    const peakRss = stop()
    const charged = (yield* (yield* engine.PaymentRepository).scan(ORG, { subscription: { op: "range" } })).length
    if (charged !== due) return yield* Effect.die(`the day charged ${charged} of ${due}`)
    return { items: charged, seconds, peakRss, startRss }
  }))
}

const child = process.env["BANK_FILES_CHILD"]
if (child !== undefined) {
  const [task = "", store = "", size = "0"] = child.split(":")
  const n = Number(size)
  const measured = task === "pain.008" ? await writeFile("sepa_core", n)
    : task === "nacha" ? await writeFile("ach", n)
    : task === "report" ? await applyReturns(store, n)
    // The peer's first day (on a store of its own) warms the code up, so its figure is not the JIT's.
    : await chargeDay(store, WARM_UP_DUE).then(() => chargeDay(store, n))
  console.log(MEASURED + JSON.stringify(measured))
  process.exit(0)
}

// The run ----------------------------------------------------------------------------------

/** `task` measured in a process of its own. */
const measure = (task: string, store: string, size: number): Measured => {
  const r = spawnSync(process.execPath, [...process.execArgv, "--expose-gc", ...HEAP_LIMIT, process.argv[1] ?? ""], {
    env: { ...process.env, BANK_FILES_CHILD: `${task}:${store}:${size}` },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024
  })
  const line = r.stdout.split("\n").find((l) => l.startsWith(MEASURED))
  if (r.status !== 0 || line === undefined) throw new Error(`${task} ${store} ${size} failed:\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-4000)}`)
  return JSON.parse(line.slice(MEASURED.length)) as Measured
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const rate = (m: Measured) => m.items / m.seconds

const wanted = process.env["BANK_FILES_STORES"]?.split(",")
const stores = ["PGlite", ...(process.env["DATABASE_URL"] === undefined ? [] : ["PostgreSQL"])].filter((s) => wanted === undefined || wanted.includes(s))
const load = () => loadavg().map((x) => x.toFixed(1)).join(" ")

console.log(`load average ${load()}${HEAP_MB === undefined ? "" : `; every measuring process's old space limited to ${HEAP_MB} MB`}`)
for (const store of stores) {
  const peer = measure("charge", store, PEER)
  console.log(`${store}: the peer, a daily run charging ${peer.items} subscriptions: ${rate(peer).toFixed(0)} charges/s (${peer.seconds.toFixed(2)} s, peak RSS ${mb(peer.peakRss)})`)
  const tasks = store === stores[0] ? ["pain.008", "nacha", "report"] : ["report"]
  for (const task of tasks) {
    const runs = (task === "report" ? REPORT_SIZES : SIZES).map((size) => measure(task, store, size))
    const what = task === "report" ? `a camt.054 return report applied (${store})` : `a ${task} file written`
    for (const m of runs) {
      console.log(
        `${what}, ${m.items} items: ${m.seconds.toFixed(2)} s, ${rate(m).toFixed(0)} items/s, ` +
          `${(rate(m) / rate(peer)).toFixed(2)}x the day's charging; peak RSS ${mb(m.peakRss)} (${mb(m.startRss)} as it began)` +
          (m.heapKept === undefined ? "" : `; heap after a full collection ${mb(m.heapKept.before)} before, ${mb(m.heapKept.after)} after`)
      )
    }
    const peaks = runs.map((m) => m.peakRss - (task === "report" ? m.startRss : 0))
    console.log(`${what}: peak RSS ${task === "report" ? "above the start " : ""}by size ${runs.map((m, i) => `${m.items}: ${mb(peaks[i] ?? 0)}`).join(", ")}`)
  }
}
console.log(`load average ${load()}`)
