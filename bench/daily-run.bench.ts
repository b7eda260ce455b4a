import { OrganisationId } from "@paykit/core"
/**
 * The daily run at scale (issue 17): one organisation's daily run with N subscriptions of which
 * about 1/30 fall due, on top of H payments paid out long ago, against a run with the same number
 * due on a small store (max(1k, due) subscriptions, no history). The jobs read only what is due,
 * so the ratio should stay within 2x as N and H grow.
 *
 *   npm run bench -- daily-run        (DAILY_RUN_SIZES=1000,10000,100000 and DAILY_RUN_HISTORY=100000 by default)
 *
 * Data is loaded through the store (`insertAll`, one statement per 1,000 rows), the rows cloned
 * from a subscription, its schedule record and a payment the services made (so each is what the
 * services' own Schemas write, with fresh ids): the subscriptions due carry today's `due_on`, the
 * others a day in the next 29; the history's payments are `paid_out`. After loading, `ANALYZE`
 * runs (PGlite never does by itself). The timed part is the simulator's advance over one daily
 * run (every job of the registry, for the organisation), on the test clock. PGlite runs in
 * memory; PostgreSQL runs when DATABASE_URL is set, in a schema of its own.
 *
 * The bare peer: on a store loaded the same way, the same rows a charge writes (the
 * payment; its history row and `created` event; the subscription's history row, `payment_created`
 * event and next version; the schedule record's next due date) written by hand: the due records
 * read 500 at a time, and each 500 charged in one transaction of four multi-row statements, the
 * rows cloned from those the services wrote. Both runs print the events and history rows they
 * appended per charge, so the two are seen to write the same. (Until 2026-11-27 the peer wrote
 * four of the seven rows: the payment's three and the schedule record.) It runs in the same process on the
 * same database kind right after paykit's run, so the ratio holds on a loaded machine. On PGlite
 * the run also counts the statements paykit sent per charge.
 *
 *   DAILY_RUN_STORES=PostgreSQL       one store only (PGlite, PostgreSQL)
 *   DAILY_RUN_RATE_RUNS=5             days timed on each side, alternately (default 3): the rates are the medians
 *   DAILY_RUN_MANDATES=each           every subscription on a mandate of its own (default: all on one)
 *   DAILY_RUN_PROFILE=/some/dir       a CPU profile of each timed paykit run, and on PGlite its
 *                                     statements listed by total time (docs/benchmarks.md; sent
 *                                     unnamed then, so each is timed by its text)
 */
import { performance } from "node:perf_hooks"
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

const { Effect, Layer, Redacted } = await import("effect")
const { TestClock } = await import("effect/testing")
const { SqlClient } = await import("effect/sql")
const { PgClient } = await import("@effect/sql-pg")
const { PGlite } = await import("@electric-sql/pglite")
const { Session } = await import("node:inspector/promises")
const { writeFileSync } = await import("node:fs")
const { addDays, unsafeAmount, unsafeLocalDate } = await import("@paykit/core")
const engine = await import("@paykit/engine")
const engineTesting = await import("@paykit/engine/testing")
const store = await import("@paykit/store-sql")
const { cloneId, inChunks } = await import("./support/clone-rows.ts")

const SIZES = (process.env["DAILY_RUN_SIZES"] ?? "1000,10000,100000").split(",").map(Number)
const HISTORY = Number(process.env["DAILY_RUN_HISTORY"] ?? 100_000)
/** Where to write a CPU profile of each timed paykit run (`DAILY_RUN_PROFILE=dir`), for the profile of a charge. */
const PROFILE = process.env["DAILY_RUN_PROFILE"]
/**
 * `DAILY_RUN_MANDATES=each`: every subscription on a mandate of its own (cloned from the payer's,
 * with its last-use record), as a business's subscriptions are, so a batch reads a hundred
 * mandates; by default all are on one mandate, as the measurement had them.
 */
const MANDATE_EACH = process.env["DAILY_RUN_MANDATES"] === "each"
/** Subscriptions per due one. */
const DUE_EVERY = 30
const ORG = OrganisationId("OR000000000001")
/** Monday 23 November 2026, 09:00 UTC. */
const START = Date.UTC(2026, 10, 23, 9)
const DAY = 86_400_000
/** Charges per transaction of the bare peer. */
const PEER_BATCH = 500

/** How to run the day measured: paykit's simulator, or the bare peer's statements. */
type Runner = "paykit" | "peer"

type Client = import("effect").Layer.Layer<import("effect/sql").SqlClient.SqlClient, unknown>

/** Starts the CPU profiler; the answer stops it and writes the profile to a file. */
const startProfile = async () => {
  const session = new Session()
  session.connect()
  await session.post("Profiler.enable")
  await session.post("Profiler.start")
  return async (file: string) => {
    const { profile } = await session.post("Profiler.stop")
    writeFileSync(file, JSON.stringify(profile))
    session.disconnect()
  }
}

/** A row as the driver answers it: `json` columns parsed or as text, depending on the driver. */
type RawRow = Record<string, unknown>
const jsonOf = (value: unknown): Record<string, unknown> =>
  (typeof value === "string" ? JSON.parse(value) : value) as Record<string, unknown>

/** `n` placeholders' tuples of `width` from `$first`: `($1,$2),($3,$4)`. */
const tuples = (rows: number, width: number, first: number) =>
  Array.from({ length: rows }, (_, r) => `(${Array.from({ length: width }, (_, c) => `$${first + r * width + c}`).join(",")})`).join(",")

/** The rows a charge clones: the payment's, and the subscription's own history row and event. */
interface PeerTemplates {
  readonly payment: RawRow
  readonly paymentHistory: RawRow
  readonly paymentEvent: RawRow
  readonly subscriptionHistory: RawRow
  readonly subscriptionEvent: RawRow
}

/** The template rows the services wrote: a payment's three, and a subscription's history row and event. */
const peerTemplates = (sql: import("effect/sql").SqlClient.SqlClient, paymentId: string, subscriptionId: string) =>
  Effect.gen(function*() {
    const [payment] = yield* sql<RawRow>`SELECT * FROM resources WHERE organisation_id = ${ORG} AND resource_type = 'payments' AND id = ${paymentId}`
    const [paymentHistory] = yield* sql<RawRow>`SELECT * FROM transitions WHERE organisation_id = ${ORG} AND filters->>'resource_id' = ${paymentId}`
    const [paymentEvent] = yield* sql<RawRow>`SELECT * FROM events WHERE organisation_id = ${ORG} AND filters->>'payment' = ${paymentId} AND filters->>'action' = 'created'`
    const [subscriptionHistory] = yield* sql<RawRow>`SELECT * FROM transitions WHERE organisation_id = ${ORG} AND filters->>'resource_id' = ${subscriptionId}`
    const [subscriptionEvent] = yield* sql<RawRow>`SELECT * FROM events WHERE organisation_id = ${ORG} AND filters->>'subscription' = ${subscriptionId} AND filters->>'action' = 'created'`
    if (payment === undefined || paymentHistory === undefined || paymentEvent === undefined || subscriptionHistory === undefined || subscriptionEvent === undefined) {
      return yield* Effect.die("the template payment or subscription has no rows")
    }
    return { payment, paymentHistory, paymentEvent, subscriptionHistory, subscriptionEvent } satisfies PeerTemplates
  })

/** The cause of a subscription's `payment_created` event, as the daily run writes it. */
const SUBSCRIPTION_CHARGED = { origin: "gocardless", cause: "payment_created", description: "Payment created by a subscription." }

/** `row` with a new id, its filters merged with `filters` and its data changed by `change`. */
const cloneRow = (row: RawRow, rowId: string, change: (data: Record<string, unknown>) => Record<string, unknown>, filters: Record<string, unknown>) => ({
  ...row,
  id: rowId,
  filters: JSON.stringify({ ...jsonOf(row["filters"]), ...filters }),
  data: JSON.stringify(change(jsonOf(row["data"])))
})

/**
 * The bare peer's day: what the charges of `day` write, by hand, the same rows paykit writes. The
 * due schedule records are read `PEER_BATCH` at a time in id order, with their subscriptions; each
 * batch is one transaction of four multi-row statements: the payments (cloned from the template
 * payment, linked to their subscription); the history rows and events, two of each a charge (the
 * payment's `created`, and the subscription's `payment_created`, cloned from the template
 * subscription's rows); and one update moving both the subscription (its next version) and its
 * schedule record (the next due date and occurrence).
 */
const barePeer = (sql: import("effect/sql").SqlClient.SqlClient, day: string, paymentId: string, subscriptionId: string) =>
  Effect.orDie(Effect.gen(function*() {
    const t = yield* peerTemplates(sql, paymentId, subscriptionId)
    const next = addDays(unsafeLocalDate(day), 30)
    let after = ""
    let n = 0
    while (true) {
      const due = yield* sql<RawRow>`SELECT id, version, data FROM (SELECT id, version, data FROM resources
        WHERE organisation_id = ${ORG} AND resource_type = 'subscription_schedules' AND filters ? 'due_on'
        AND (filters->>'due_on') COLLATE "C" <= ${day} AND id > ${after} OFFSET 0) AS matching ORDER BY id LIMIT ${PEER_BATCH}`
      if (due.length === 0) return
      const subscriptions = new Map((yield* sql<RawRow>`SELECT id, version, data FROM resources WHERE organisation_id = ${ORG}
        AND resource_type = 'subscriptions' AND id IN ${sql.in(due.map((r) => String(r["id"])))}`).map((row) => [String(row["id"]), row]))
      const payments: Array<RawRow> = []
      const histories: Array<RawRow> = []
      const events: Array<RawRow> = []
      const moved: Array<unknown> = []
      for (const record of due) {
        const subscription = String(record["id"])
        const current = subscriptions.get(subscription)
        if (current === undefined) return yield* Effect.die(`no subscription ${subscription}`)
        const id = cloneId(String(t.payment["id"]), 50_000_000 + n)
        payments.push(cloneRow(t.payment, id, (d) => ({ ...d, id, links: { ...(d["links"] as object), subscription } }), { subscription }))
        const historyId = cloneId(String(t.paymentHistory["id"]), n)
        histories.push(cloneRow(t.paymentHistory, historyId, (d) => ({ ...d, id: historyId, resource_id: id }), { resource_id: id }))
        const subscriptionHistoryId = cloneId(String(t.subscriptionHistory["id"]), 20_000_000 + n)
        histories.push(cloneRow(t.subscriptionHistory, subscriptionHistoryId, (d) => ({ ...d, id: subscriptionHistoryId, resource_id: subscription }), { resource_id: subscription }))
        const eventId = cloneId(String(t.paymentEvent["id"]), n)
        events.push(cloneRow(t.paymentEvent, eventId, (d) => ({ ...d, id: eventId, links: { ...(d["links"] as object), payment: id, subscription } }), { payment: id, subscription }))
        const subscriptionEventId = cloneId(String(t.subscriptionEvent["id"]), 20_000_000 + n)
        events.push(cloneRow(t.subscriptionEvent, subscriptionEventId, (d) => ({ ...d, id: subscriptionEventId, action: "payment_created", links: { ...(d["links"] as object), payment: id, subscription }, details: SUBSCRIPTION_CHARGED }), { action: "payment_created", payment: id, subscription }))
        const data = jsonOf(record["data"])
        const schedule = data["schedule"] as Record<string, unknown>
        moved.push("subscriptions", subscription, Number(current["version"]), "{}", JSON.stringify(jsonOf(current["data"])))
        moved.push("subscription_schedules", subscription, Number(record["version"]), JSON.stringify({ due_on: next }), JSON.stringify({ ...data, due_on: next, schedule: { ...schedule, fromIndex: Number(schedule["fromIndex"]) + 1 } }))
        n++
      }
      yield* sql.withTransaction(Effect.gen(function*() {
        for (const [table, rows] of [["resources", payments], ["transitions", histories], ["events", events]] as const) {
          const [first, ...rest] = rows
          if (first !== undefined) yield* sql`INSERT INTO ${sql(table)} ${sql.insert([first, ...rest])}`
        }
        yield* sql.unsafe(`UPDATE resources AS r SET version = r.version + 1, filters = r.filters || v.filters::jsonb, data = v.data::json
          FROM (VALUES ${tuples(due.length * 2, 5, 2)}) AS v(resource_type, id, version, filters, data)
          WHERE r.organisation_id = $1 AND r.resource_type = v.resource_type AND r.id = v.id AND r.version = v.version::int`, [ORG, ...moved])
      }))
      after = String(due[due.length - 1]?.["id"])
    }
  }))

/** One store: `subscriptions` of which `due` fall due at the next run, `history` paid-out payments; answers the run's seconds. */
const measure = (client: Client, subscriptions: number, due: number, history: number, runner: Runner = "paykit") =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const storage = store.SqlStorage.pipe(Layer.provide(client), Layer.orDie)
    const context = yield* Layer.build(engine.sandboxEngineOn(storage, { seed: 7 }).pipe(Layer.provideMerge(storage), Layer.provideMerge(client), Layer.merge(TestClock.layer())))
    return yield* Effect.provideContext(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const { mandate } = yield* engineTesting.setUpPayer(ORG, { verifyCreditor: true })
      const simulator = yield* engine.Simulator
      // The mandate goes live, so the subscriptions can charge.
      yield* simulator.advanceTo(START + 4 * DAY)
      const template = yield* (yield* engine.Subscriptions).create(ORG, { amount: unsafeAmount(1000), currency: "GBP", interval_unit: "monthly", links: { mandate: mandate.id } })
      const paid = yield* (yield* engine.Payments).create(ORG, { amount: unsafeAmount(2500), currency: "GBP", links: { mandate: mandate.id } })
      const subscriptionRepo = yield* engine.SubscriptionRepository
      const scheduleRepo = yield* engine.SubscriptionScheduleRepository
      const paymentRepo = yield* engine.PaymentRepository
      const sub = (yield* subscriptionRepo.get(ORG, template.id)).resource
      const record = (yield* scheduleRepo.get(ORG, template.id)).resource
      const payment = (yield* paymentRepo.get(ORG, paid.id)).resource
      // The run measured is tomorrow's: the due ones are due by then, the others on one of the 29 days after.
      const runDay = addDays(record.due_on ?? unsafeLocalDate(record.created_at.slice(0, 10)), 1)
      // The template is one of the due ones.
      const clones = subscriptions - 1
      const dueOf = (i: number) => (i < due - 1 ? runDay : addDays(runDay, 1 + (i % (DUE_EVERY - 1))))
      // With a mandate each, every subscription is on a mandate (and last-use record) cloned from the payer's.
      const mandateOf = (i: number) => (MANDATE_EACH ? cloneId(mandate.id, i) : mandate.id)
      if (MANDATE_EACH) {
        const mandateRepo = yield* engine.MandateRepository
        const dormancyRepo = yield* engine.MandateDormancyRepository
        const mandateRow = (yield* mandateRepo.get(ORG, mandate.id)).resource
        const dormancy = (yield* dormancyRepo.get(ORG, mandate.id)).resource
        yield* inChunks((i) => ({ ...mandateRow, id: mandateOf(i) }), clones, (batch) => mandateRepo.insertAll(ORG, batch))
        yield* inChunks((i) => ({ ...dormancy, id: mandateOf(i) }), clones, (batch) => dormancyRepo.insertAll(ORG, batch))
      }
      yield* inChunks((i) => ({ ...sub, id: cloneId(sub.id, i), links: { ...sub.links, mandate: mandateOf(i) } }), clones, (batch) => subscriptionRepo.insertAll(ORG, batch))
      yield* inChunks((i) => ({ ...record, id: cloneId(sub.id, i), due_on: dueOf(i) }), clones, (batch) => scheduleRepo.insertAll(ORG, batch))
      yield* inChunks((i) => ({ ...payment, id: cloneId(payment.id, i), status: "paid_out" as const }), history, (batch) => paymentRepo.insertAll(ORG, batch))
      const sql = yield* SqlClient.SqlClient
      yield* Effect.orDie(sql`ANALYZE`)
      const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
      const rowsBefore = yield* appendedRows(sql)
      const statementsBefore = sent.count
      sent.byText.clear()
      const profiler = PROFILE === undefined || runner !== "paykit" ? undefined : yield* Effect.promise(() => startProfile())
      const t0 = performance.now()
      if (runner === "paykit") yield* simulator.advanceTo(engine.nextDailyRunAfter(now) + 1)
      else yield* barePeer(sql, runDay, paid.id, template.id)
      const seconds = (performance.now() - t0) / 1000
      const statements = sent.count - statementsBefore
      const rowsAfter = yield* appendedRows(sql)
      if (PROFILE !== undefined && runner === "paykit") {
        for (const [text, { count, ms }] of [...sent.byText].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25)) {
          console.log(`  ${ms.toFixed(0).padStart(6)} ms ${String(count).padStart(6)}x ${text}`)
        }
      }
      if (profiler !== undefined && PROFILE !== undefined) yield* Effect.promise(() => profiler(`${PROFILE}/daily-run-${subscriptions}-${due}-${Date.now()}.cpuprofile`))
      const made = yield* paymentRepo.scan(ORG, { subscription: { op: "range" } })
      const perCharge = (n: number) => made.length === 0 ? "0" : (n / made.length).toFixed(2)
      const written = `${perCharge(rowsAfter.events - rowsBefore.events)} events and ${perCharge(rowsAfter.transitions - rowsBefore.transitions)} history rows a charge`
      return { seconds, charged: made.length, statements, written }
    }), context)
  })))

/** How many events and history rows the store holds: what a run appended, so both runners are seen to write the same. */
const appendedRows = (sql: import("effect/sql").SqlClient.SqlClient) =>
  Effect.map(
    Effect.orDie(sql<{ events: string; transitions: string }>`SELECT (SELECT count(*) FROM events)::text AS events, (SELECT count(*) FROM transitions)::text AS transitions`),
    ([row]) => ({ events: Number(row?.events ?? 0), transitions: Number(row?.transitions ?? 0) })
  )

/**
 * Statements sent to PGlite, for the profile of a charge: how many, and (profiling) their time by
 * text. A named statement's run is counted by its bind; an unnamed one by its `query`.
 */
const sent = { count: 0, byText: new Map<string, { count: number; ms: number }>() }

const BIND = 0x42

/**
 * An in-memory PGlite whose statements are counted. Profiling (`DAILY_RUN_PROFILE`), they are sent
 * unnamed, through `query`, where each is timed by its text; otherwise as the client sends them.
 */
const countedPglite: Client = Layer.unwrap(Effect.map(
  Effect.acquireRelease(Effect.promise(() => PGlite.create()), (db) => Effect.promise(() => db.close())),
  (db) => {
    const exchange = db.execProtocolStream.bind(db)
    db.execProtocolStream = ((...args: Parameters<typeof exchange>) => {
      if (args[0][0] === BIND) sent.count++
      return exchange(...args)
    }) as typeof db.execProtocolStream
    const query = db.query.bind(db)
    db.query = (async (...args: Parameters<typeof query>) => {
      sent.count++
      const t0 = performance.now()
      const result = await query(...args)
      const text = args[0].replace(/\s+/g, " ").slice(0, 140)
      const seen = sent.byText.get(text) ?? { count: 0, ms: 0 }
      sent.byText.set(text, { count: seen.count + 1, ms: seen.ms + performance.now() - t0 })
      return result
    }) as typeof db.query
    return store.PgliteClient.layer({ instance: db, ...(PROFILE === undefined ? {} : { preparedStatements: 0 }) })
  }
))

const databaseUrl = process.env["DATABASE_URL"]
const postgres = (url: string): Client =>
  Layer.unwrap<import("effect/sql").SqlClient.SqlClient, unknown, never, unknown, import("effect").Scope.Scope>(Effect.gen(function*() {
    const schema = `bench_daily_${process.pid}_${Date.now()}`
    const admin = yield* Layer.build(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
    const found = yield* Effect.provideContext(Effect.serviceOption(PgClient.PgClient), admin)
    if (found._tag === "None") return yield* Effect.die("no admin client")
    const sql = found.value
    yield* Effect.acquireRelease(sql.unsafe(`CREATE SCHEMA ${schema}`), () => Effect.orDie(sql.unsafe(`DROP SCHEMA ${schema} CASCADE`)))
    return PgClient.layer({ url: Redacted.make(url), startupParameters: { search_path: schema }, maxConnections: 4 })
  }))

const stores: ReadonlyArray<readonly [string, () => Client]> = [
  ["PGlite", () => countedPglite],
  ...(databaseUrl === undefined ? [] : [["PostgreSQL", () => postgres(databaseUrl)] as const])
]

/** `DAILY_RUN_STORES=PostgreSQL` (or `PGlite`) runs one store only. */
const wantedStores = process.env["DAILY_RUN_STORES"]?.split(",")

/**
 * How many times each size's day is timed on paykit and on the peer, alternately, each on a store
 * of its own: the rates are the medians. One day of 1,000 charges lasts under a second, so one
 * timing of each side swung the ratio by a third from run to run (2026-11-27: 0.37 to 0.64 for the
 * same code); the median of three alternating days holds it steadier.
 */
const RATE_RUNS = Number(process.env["DAILY_RUN_RATE_RUNS"] ?? 3)
const medianOf = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN

for (const [name, client] of stores.filter(([name]) => wantedStores === undefined || wantedStores.includes(name))) {
  // A first day of three batches on each side warms the code up, so the first figure is not the JIT's.
  await measure(client(), 1_000, 300, 200)
  await measure(client(), 1_000, 300, 200, "peer")
  for (const size of SIZES) {
    const due = Math.max(1, Math.round(size / DUE_EVERY))
    const reference = await measure(client(), Math.max(1_000, due), due, 0)
    const runs: Array<Awaited<ReturnType<typeof measure>>> = []
    const peers: Array<Awaited<ReturnType<typeof measure>>> = []
    for (let i = 0; i < RATE_RUNS; i++) {
      runs.push(await measure(client(), size, due, HISTORY))
      peers.push(await measure(client(), size, due, HISTORY, "peer"))
    }
    const rates = runs.map((r) => r.charged / r.seconds)
    const peerRates = peers.map((r) => r.charged / r.seconds)
    const rate = medianOf(rates)
    const peerRate = medianOf(peerRates)
    // The scale ratio takes the day of the median rate.
    const run = runs.find((r) => r.charged / r.seconds === rate) ?? runs[0]
    const peer = peers[0]
    if (run === undefined || peer === undefined) throw new Error("DAILY_RUN_RATE_RUNS must be at least 1")
    const listed = (xs: ReadonlyArray<number>) => xs.map((x) => x.toFixed(0)).join(", ")
    console.log(
      `${name}: ${size} subscriptions, ${due} due, ${HISTORY} paid out: ${run.seconds.toFixed(2)} s (${run.charged} charged); ` +
        `${Math.max(1_000, due)} subscriptions, ${due} due, no history: ${reference.seconds.toFixed(2)} s (${reference.charged} charged); ` +
        `ratio ${(run.seconds / reference.seconds).toFixed(2)}`
    )
    console.log(
      `${name}: paykit ${rate.toFixed(0)} charges/s (median of ${listed(rates)})` +
        (run.statements > 0 ? ` (${(run.statements / run.charged).toFixed(1)} statements a charge)` : "") +
        `; bare peer ${peerRate.toFixed(0)} charges/s (median of ${listed(peerRates)}; ${peer.charged} charged a day); ` +
        `paykit/peer ${(rate / peerRate).toFixed(2)} (each pair: ${rates.map((r, i) => (r / (peerRates[i] ?? Number.NaN)).toFixed(2)).join(", ")}); ` +
        `paykit wrote ${run.written}, the peer ${peer.written}`
    )
  }
}
