import { OrganisationId } from "@paykit/core"
/**
 * Outbound payment imports, create to executed, at 1k and 10k entries on PGlite (in memory) and on
 * PostgreSQL (when DATABASE_URL is set; a fresh schema per run), through the engine's services on
 * `@paykit/store-sql`: each import is created, validated (the `import_validation` work), authorised
 * and its payments executed (the daily run's execution step). The ratio 10k/1k is the figure: cost
 * linear in the entries means about 10x (target <= 12x, issue 17).
 *
 *   npm run bench -- imports          (BENCH_IMPORT_SIZES=1000,10000 by default; BENCH_IMPORT_STORES)
 *
 * An import holds at most `OUTBOUND_PAYMENT_IMPORT_MAX_ENTRIES` (1,000, GoCardless's cap), so N
 * entries are N/1,000 imports of one creditor, one after another: what a partner sending 10k
 * payments does, and what the creditor's one payment account row sees.
 */
import { performance } from "node:perf_hooks"
import { randomUUID } from "node:crypto"
import type { Layer as LayerType } from "effect"
import type { SqlClient as SqlClientModule } from "effect/sql"
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

const { Effect, Layer, ManagedRuntime, Redacted } = await import("effect")
const { TestClock } = await import("effect/testing")
const { PgClient } = await import("@effect/sql-pg")
const { SqlClient } = await import("effect/sql")
const core = await import("@paykit/core")
const engine = await import("@paykit/engine")
const engineTesting = await import("@paykit/engine/testing")
const store = await import("@paykit/store-sql")

const ORG = OrganisationId("OR00000000001M")
const START = Date.UTC(2026, 10, 23, 9, 0, 0)
const AMOUNT = 10
const SIZES = (process.env["BENCH_IMPORT_SIZES"] ?? "1000,10000").split(",").map(Number)
const PER_IMPORT = core.OUTBOUND_PAYMENT_IMPORT_MAX_ENTRIES

/** `entries` entries as imports of at most the cap, created, validated, authorised and executed. */
const importsOf = (entries: number) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(START)
    const { creditor, account } = yield* engineTesting.setUpPayer(ORG, { verifyCreditor: true, linkCreditor: false })
    const fund = yield* engine.decodeCommand(engine.PaymentAccountFundRequest, "payment_accounts")({ amount: entries * AMOUNT, links: { creditor: creditor.id } })
    yield* (yield* engine.PaymentAccounts).fund(ORG, fund)
    const imports = yield* engine.OutboundPaymentImports
    const outbound = yield* engine.OutboundPayments
    const decode = engine.decodeCommand(engine.OutboundPaymentImportCreateRequest, "outbound_payment_imports")
    const t0 = performance.now()
    for (let done = 0; done < entries; done += PER_IMPORT) {
      const size = Math.min(PER_IMPORT, entries - done)
      const item = { scheme: "faster_payments", amount: AMOUNT, recipient_bank_account_id: account.id }
      const command = yield* decode({ entry_items: Array.from({ length: size }, () => item), links: { creditor: creditor.id } })
      const created = yield* imports.create(ORG, command)
      yield* imports.validatePending(ORG)
      const processed = yield* imports.authorise(ORG, created.id, "bench@paykit.example")
      if (processed.entry_counts.processed !== size) return yield* Effect.die(new Error(`processed ${processed.entry_counts.processed} of ${size}`))
    }
    const executed = yield* outbound.executeDue(ORG, yield* core.today("Europe/London"))
    if (executed.length !== entries) return yield* Effect.die(new Error(`executed ${executed.length} of ${entries}`))
    return (performance.now() - t0) / 1000
  })

const onClient = async (client: LayerType.Layer<SqlClientModule.SqlClient, unknown>, entries: number): Promise<number> => {
  const layer = Layer.mergeAll(engine.sandboxEngineOn(store.SqlStorage.pipe(Layer.provide(client), Layer.orDie), { seed: 17 }), TestClock.layer())
  const runtime = ManagedRuntime.make(layer)
  try {
    return await runtime.runPromise(importsOf(entries).pipe(Effect.orDie))
  } finally {
    await runtime.dispose()
  }
}

/** A schema of its own on DATABASE_URL's PostgreSQL, dropped after the run. */
const onPostgres = async (url: string, entries: number): Promise<number> => {
  const schema = `bench_imports_${randomUUID().replaceAll("-", "").slice(0, 12)}`
  const admin = (statement: string) =>
    Effect.runPromise(Effect.provide(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)), PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
  await admin(`CREATE SCHEMA ${schema}`)
  try {
    return await onClient(PgClient.layer({ url: Redacted.make(url), startupParameters: { search_path: schema }, maxConnections: 4 }), entries)
  } finally {
    await admin(`DROP SCHEMA ${schema} CASCADE`)
  }
}

/** `BENCH_IMPORT_STORES=pglite` or `=postgres` runs one of the two (default both, PostgreSQL when DATABASE_URL is set). */
const STORES = (process.env["BENCH_IMPORT_STORES"] ?? "pglite,postgres").split(",")
const databases: ReadonlyArray<readonly [string, (entries: number) => Promise<number>]> = [
  ...(STORES.includes("pglite") ? [["PGlite (in memory)", (entries: number) => onClient(store.PgliteClient.layer({}), entries)] as const] : []),
  ...(process.env["DATABASE_URL"] === undefined || !STORES.includes("postgres") ? [] : [["PostgreSQL", (entries: number) => onPostgres(process.env["DATABASE_URL"] ?? "", entries)] as const])
]

const rows: Array<string> = []
for (const [name, run] of databases) {
  const seconds = new Map<number, number>()
  for (const size of SIZES) seconds.set(size, await run(size))
  const first = seconds.get(SIZES[0] ?? 0) ?? Number.NaN
  const last = seconds.get(SIZES[SIZES.length - 1] ?? 0) ?? Number.NaN
  rows.push(`| ${name} | ${SIZES.map((s) => `${(seconds.get(s) ?? Number.NaN).toFixed(2)} s`).join(" | ")} | ${(last / first).toFixed(1)}x |`)
}
console.log(`Outbound payment imports, create to executed (imports of at most ${PER_IMPORT} entries), Node ${process.version}\n`)
console.log(`| database | ${SIZES.map((s) => `${s} entries`).join(" | ")} | ratio ${SIZES[SIZES.length - 1]}/${SIZES[0]} (target <= 12x) |`)
console.log(`|---|${SIZES.map(() => "---|").join("")}---|`)
for (const r of rows) console.log(r)
