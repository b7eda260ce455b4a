import { OrganisationId } from "@paykit/core"
/**
 * One daily run on worker processes, as `daily-processes.bench.ts` and `citus.bench.ts` measure
 * it: a fresh schema loaded through the engine's services, `processes` server worker processes
 * started on it, the organisations' clocks set so their daily runs fall due at once, and the day
 * timed until the last of them is done; then every subscription checked charged exactly once.
 * `daily-processes.bench.ts` says how, at length.
 */
import { performance } from "node:perf_hooks"
import { randomBytes } from "node:crypto"
import { availableParallelism } from "node:os"

const { Effect, Layer, ManagedRuntime } = await import("effect")
const { TestClock } = await import("effect/testing")
const { SqlClient } = await import("effect/sql")
const { unsafeAmount, unsafeLocalDate } = await import("@paykit/core")
const engine = await import("@paykit/engine")
const engineTesting = await import("@paykit/engine/testing")
const store = await import("@paykit/store-sql")
const { startWorkerProcess } = await import("../../packages/server/src/worker-process.ts")
const { cloneId, inChunks } = await import("./clone-rows.ts")
const { databaseCpu, readTimes, timeBetween } = await import("./cpu-time.ts")

const DAY = 86_400_000
/** The warm-up day: organisations per process, and subscriptions due in each. */
const WARM_UP_PER_PROCESS = 2
const WARM_UP_DUE = 100
/** How long a day may take before the run is called failed (a daily run that failed is retried only after a backoff). */
const DAY_TIMEOUT_MS = 30 * 60_000
/** Every worker process gets the same key sealing webhook secrets, as processes sharing one PostgreSQL must. */
const WEBHOOK_SECRET_KEY = randomBytes(32).toString("hex")

type Sql = import("effect/sql").SqlClient.SqlClient

/** An organisation's id: `OR` and twelve digits. */
export const organisationId = (n: number) => `OR${String(n).padStart(12, "0")}`

/** The day's figures. */
export interface Day {
  readonly seconds: number
  readonly charges: number
  /** Per organisation: the worker process that ran its daily run and when it ended (seconds into the day). */
  readonly runs: ReadonlyArray<{ readonly organisation: string; readonly pid: string; readonly endedAt: number }>
  /** Samples of `pg_stat_activity` in which a backend waited for a lock, of all samples. */
  readonly lockWaits: number
  readonly samples: number
  /** Time spent meanwhile by the worker processes, by PostgreSQL's processes (every session's) and by the whole machine. */
  readonly cpu: import("./cpu-time.ts").TimeSpent
  /** CPU seconds PostgreSQL spent meanwhile for the target's database alone (`Target.databases`; `databaseCpu`), and by node. */
  readonly databaseCpu: number
  readonly databaseCpuByNode: ReadonlyMap<string, number>
}

/**
 * Loads `due` subscriptions due on the next daily run into each of `organisations`, through the
 * services on a test clock starting a week ahead of real time (so no clock offset is needed for
 * the organisations' time to be after what the services wrote). Answers the run's instant on
 * the organisations' clocks and its key (date).
 */
const load = (sql: import("effect").Layer.Layer<Sql, unknown>, organisations: ReadonlyArray<string>, due: number) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const storage = store.SqlStorage.pipe(Layer.provide(sql), Layer.orDie)
    const context = yield* Layer.build(engine.sandboxEngineOn(storage, { seed: 7 }).pipe(Layer.provideMerge(storage), Layer.provideMerge(sql), Layer.merge(TestClock.layer())))
    return yield* Effect.provideContext(Effect.gen(function*() {
      const start = Math.floor(Date.now() / DAY) * DAY + 7 * DAY + 9 * 3_600_000
      yield* TestClock.setTime(start)
      const mandates = yield* Effect.forEach(organisations, (organisation) => engineTesting.setUpPayer(OrganisationId(organisation), { verifyCreditor: true }))
      // The mandates go live.
      yield* (yield* engine.Simulator).advanceTo(start + 4 * DAY)
      const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
      const dueAt = engine.nextDailyRunAfter(now)
      const runDay = unsafeLocalDate(engine.dailyRunKey(dueAt))
      const subscriptionRepo = yield* engine.SubscriptionRepository
      const scheduleRepo = yield* engine.SubscriptionScheduleRepository
      for (const [o, organisation] of organisations.entries()) {
        const mandate = mandates[o]?.mandate.id ?? ""
        const template = yield* (yield* engine.Subscriptions).create(OrganisationId(organisation), { amount: unsafeAmount(1000), currency: "GBP", interval_unit: "monthly", links: { mandate } })
        const sub = (yield* subscriptionRepo.get(organisation, template.id)).resource
        const record = (yield* scheduleRepo.get(organisation, template.id)).resource
        // The template is due on the run's day too (made today, charged at the next run): checked by the count after the run.
        const dueOn = record.due_on ?? null
        if (dueOn === null || dueOn > runDay) return yield* Effect.die(new Error(`the template subscription is due on ${dueOn}, after ${runDay}`))
        yield* inChunks((i) => ({ ...sub, id: cloneId(sub.id, i) }), due - 1, (batch) => subscriptionRepo.insertAll(organisation, batch))
        yield* inChunks((i) => ({ ...record, id: cloneId(sub.id, i), due_on: runDay }), due - 1, (batch) => scheduleRepo.insertAll(organisation, batch))
      }
      // The schema's tables by name (on Citus, ANALYZE of a distributed table reaches its shards).
      yield* store.analyze
      return { dueAt, key: engine.dailyRunKey(dueAt) }
    }), context)
  })))

/** A row of the day's daily runs as this process reads them while the day runs. */
interface RunRow {
  readonly organisation_id: string
  readonly lease_owner: string | null
  readonly attempt: number | string
}

/** Sets the organisations' clocks so their daily run `dueAt` falls due in real time `leadMs` from now; answers that instant. */
const makeDue = (sql: Sql, organisations: ReadonlyArray<string>, dueAt: number, leadMs: number) =>
  Effect.gen(function*() {
    const at = Date.now() + leadMs
    const [first, ...rest] = organisations.map((organisation_id) => ({ organisation_id, offset_ms: dueAt - at }))
    if (first === undefined) return at
    yield* sql`INSERT INTO organisation_clocks ${sql.insert([first, ...rest])}
      ON CONFLICT (organisation_id) DO UPDATE SET offset_ms = EXCLUDED.offset_ms, updated_at = EXCLUDED.updated_at`
    return at
  })

/**
 * Waits until the daily runs keyed `key` of `organisations` are all completed, from `at` (real
 * time), reading `due_work` every 50 ms: which worker leased each, when each ended; and samples
 * `pg_stat_activity` for lock waits. A row tried again (`attempt` > 0: its run failed) fails it.
 */
const watch = (sql: Sql, organisations: ReadonlyArray<string>, key: string, at: number, pids: ReadonlyArray<number>, databases: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const owners = new Map<string, string>()
    const ended = new Map<string, number>()
    let [lockWaits, samples] = [0, 0]
    while (Date.now() < at) yield* Effect.sleep(10)
    const t0 = performance.now()
    const before = readTimes(pids)
    const database = databaseCpu(databases)
    database.sample()
    while (ended.size < organisations.length) {
      database.sample()
      const rows = yield* sql<RunRow>`SELECT organisation_id, lease_owner, attempt FROM due_work
        WHERE kind = ${engine.DAILY_RUN_KIND} AND key = ${key} AND organisation_id IN ${sql.in(organisations)}`
      const now = (performance.now() - t0) / 1000
      for (const row of rows) {
        if (Number(row.attempt) > 0) return yield* Effect.die(new Error(`the daily run of ${row.organisation_id} failed and is to be tried again: see the workers' log`))
        if (row.lease_owner !== null) owners.set(row.organisation_id, row.lease_owner)
      }
      for (const organisation of organisations) {
        if (!ended.has(organisation) && !rows.some((row) => row.organisation_id === organisation)) ended.set(organisation, now)
      }
      const [activity] = yield* sql<{ readonly locked: number | string }>`SELECT count(*) AS locked FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`
      samples++
      if (Number(activity?.locked ?? 0) > 0) lockWaits++
      if (now * 1000 > DAY_TIMEOUT_MS) return yield* Effect.die(new Error(`the day did not end in ${DAY_TIMEOUT_MS / 60_000} minutes`))
      yield* Effect.sleep(50)
    }
    database.sample()
    const cpu = timeBetween(before, readTimes(pids))
    const runs = organisations.map((organisation) => ({
      organisation,
      // The owner is `host:pid:random`.
      pid: owners.get(organisation)?.split(":")[1] ?? "unseen",
      endedAt: ended.get(organisation) ?? Number.NaN
    }))
    return { seconds: Math.max(...runs.map((r) => r.endedAt)), runs, lockWaits, samples, cpu, databaseCpu: database.spent(), databaseCpuByNode: database.spentByNode() }
  })

/**
 * The charges made: payments per subscription of `organisations`. Answers their number; dies,
 * loudly, if any subscription was charged twice or not at all.
 */
const verify = (sql: Sql, organisations: ReadonlyArray<string>, due: number) =>
  Effect.gen(function*() {
    const rows = yield* sql<{ readonly organisation_id: string; readonly charged: number | string; readonly twice: number | string; readonly missed: number | string; readonly payments: number | string }>`
      SELECT s.organisation_id,
        count(*) FILTER (WHERE p.n = 1) AS charged, count(*) FILTER (WHERE p.n > 1) AS twice,
        count(*) FILTER (WHERE p.n IS NULL) AS missed, COALESCE(sum(p.n), 0) AS payments
      FROM resources s LEFT JOIN (
        SELECT organisation_id, filters->>'subscription' AS subscription, count(*) AS n FROM resources
        WHERE resource_type = 'payments' AND filters ? 'subscription' GROUP BY 1, 2
      ) p ON p.organisation_id = s.organisation_id AND p.subscription = s.id
      WHERE s.resource_type = 'subscriptions' AND s.organisation_id IN ${sql.in(organisations)}
      GROUP BY 1 ORDER BY 1`
    let payments = 0
    for (const row of rows) {
      if (Number(row.twice) > 0) return yield* Effect.die(new Error(`DOUBLE CHARGE: ${row.twice} subscriptions of ${row.organisation_id} were charged more than once`))
      if (Number(row.missed) > 0 || Number(row.charged) !== due) {
        return yield* Effect.die(new Error(`${row.organisation_id}: ${row.charged} of ${due} subscriptions charged, ${row.missed} not charged`))
      }
      payments += Number(row.payments)
    }
    if (rows.length !== organisations.length) return yield* Effect.die(new Error(`${rows.length} organisations have subscriptions, not ${organisations.length}`))
    return payments
  })

/**
 * Where a day runs: the database at `url` (a PostgreSQL, or a Citus coordinator), and the URL
 * worker process `i` reaches it by (the same, or a Citus worker's address).
 */
export interface Target {
  readonly url: string
  readonly processUrl: (i: number) => string
  /** The databases whose backends' CPU counts as the day's (on a machine others share, a database of the benchmark's own). */
  readonly databases: ReadonlyArray<string>
  /** `PAYKIT_CITUS_ROUTING` of the worker processes (on a cluster; default on). */
  readonly routing?: "on" | "off"
  /** Run after the warm-up day, just before the measured one (a benchmark's counters reset). */
  readonly afterWarmUp?: () => Promise<void>
  /** Run once the measured day is checked, before its schema is dropped (the counters read). */
  readonly afterDay?: () => Promise<void>
}

/** Starts `count` worker processes on the schema, one after another (the first start migrates and makes the server's organisation). */
const startWorkers = async (target: Target, schema: string, count: number) => {
  const workers: Array<Awaited<ReturnType<typeof startWorkerProcess>>> = []
  for (let i = 0; i < count; i++) {
    workers.push(await startWorkerProcess({ databaseUrl: target.processUrl(i), schema, webhookSecretKey: WEBHOOK_SECRET_KEY, ...(target.routing === undefined ? {} : { citusRouting: target.routing }) }, (line) => {
      if (line.level === "error" || line.level === "warn") console.log(`  worker: ${JSON.stringify(line).slice(0, 2_000)}`)
    }))
  }
  return workers
}

/**
 * One day on a fresh schema: `organisations` organisations with `due` due each, run by `processes`
 * worker processes after a warm-up day; answers its figures.
 */
export const runDay = async (target: Target, processes: number, organisations: number, due: number): Promise<Day> => {
  const schema = `bench_procs_${process.pid}_${Date.now()}`
  const client = store.postgresClient(target.url, { schema, maxConnections: 2 })
  const runtime = ManagedRuntime.make(client)
  const run = <A>(f: (sql: Sql) => import("effect").Effect.Effect<A, unknown>) => runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, f))
  const day = Array.from({ length: organisations }, (_, i) => organisationId(i + 1))
  const warm = Array.from({ length: WARM_UP_PER_PROCESS * processes }, (_, i) => organisationId(900_000 + i))
  const workers: Array<Awaited<ReturnType<typeof startWorkerProcess>>> = []
  try {
    const t0 = performance.now()
    const loaded = await load(client, day, due)
    const warmLoaded = await load(client, warm, WARM_UP_DUE)
    console.log(`  loaded ${organisations} x ${due} (+ warm-up ${warm.length} x ${WARM_UP_DUE}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    workers.push(...await startWorkers(target, schema, processes))
    const warmed = await run((sql) => Effect.flatMap(makeDue(sql, warm, warmLoaded.dueAt, 500), (at) => watch(sql, warm, warmLoaded.key, at, [], target.databases)))
    console.log(`  warm-up: ${warm.length * WARM_UP_DUE} charges in ${warmed.seconds.toFixed(2)} s, by ${[...new Set(warmed.runs.map((r) => r.pid))].join(", ")}`)
    const pids = workers.map((worker) => worker.pid ?? 0)
    await target.afterWarmUp?.()
    const measured = await run((sql) => Effect.flatMap(makeDue(sql, day, loaded.dueAt, 500), (at) => watch(sql, day, loaded.key, at, pids, target.databases)))
    const charges = await run((sql) => verify(sql, day, due))
    await target.afterDay?.()
    return { ...measured, charges }
  } finally {
    await Promise.all(workers.map((worker) => worker.stop(20_000)))
    await run((sql) => sql.unsafe(`DROP SCHEMA ${schema} CASCADE`)).catch((error: unknown) => console.log(`  could not drop ${schema}: ${String(error)}`))
    await runtime.dispose()
  }
}

/** Charges over the CPU the day itself spent (its workers and its database's backends): a rate per core that other load on the machine does not change. */
export const chargesPerCpuSecond = (day: Day): number => day.charges / (day.cpu.processes.cpu + day.databaseCpu)

/** How the day's organisations fell to the processes: per process, its organisations and when its last ended. */
const sharing = (day: Day) => {
  const byPid = new Map<string, Array<number>>()
  for (const r of day.runs) byPid.set(r.pid, [...(byPid.get(r.pid) ?? []), r.endedAt])
  return [...byPid].map(([pid, ends]) => `pid ${pid}: ${ends.length} organisations, ended at ${ends.sort((a, b) => a - b).map((e) => e.toFixed(1)).join(", ")} s`).join("; ")
}

export const report = (label: string, day: Day) => {
  console.log(`${label}: ${day.charges} charges in ${day.seconds.toFixed(2)} s, ${(day.charges / day.seconds).toFixed(0)} charges/s`)
  console.log(`  ${sharing(day)}`)
  const cores = (cpu: number) => `${cpu.toFixed(1)} s (${(cpu / day.seconds).toFixed(2)} cores)`
  const { processes, postgres, machine } = day.cpu
  console.log(`  CPU meanwhile: the worker processes ${cores(processes.cpu)}, PostgreSQL (all its sessions) ${cores(postgres.cpu)}, ` +
    `the whole machine ${cores(machine)} of ${availableParallelism()}`)
  console.log(`  waiting for a core while ready to run: the workers' main threads ${processes.runQueue.toFixed(1)} s, PostgreSQL's processes ${postgres.runQueue.toFixed(1)} s`)
  console.log(`  the day's own CPU: the workers ${processes.cpu.toFixed(1)} s + its database's backends ${day.databaseCpu.toFixed(1)} s: ` +
    `${chargesPerCpuSecond(day).toFixed(0)} charges a CPU second; the backends by node: ${[...day.databaseCpuByNode].sort().map(([node, cpu]) => `${node} ${cpu.toFixed(1)} s`).join(", ")}`)
  console.log(`  lock waits seen in ${day.lockWaits} of ${day.samples} samples of pg_stat_activity`)
}

