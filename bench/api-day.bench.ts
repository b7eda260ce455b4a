/**
 * The daily run through the HTTP API, as issue 35 measured it: the server `@paykit/server` makes
 * (sandbox, SQL tokens, its worker), one Bacs mandate made through a billing request with the
 * official client, `API_DAY_SUBSCRIPTIONS` (2,000) monthly subscriptions on it made through the
 * official client, then the sandbox clock moved through `POST /sandbox/simulator/advance`:
 *
 * 1. to a minute before the next daily run (untimed: the subscriptions' first occurrence falls due
 *    at that run);
 * 2. over that run (timed: the advance request, every job of the day, each subscription charged);
 * 3. over the next day's run (timed: the same jobs with nothing to charge, the empty day).
 *
 * The rate is the payments the timed day made over its seconds. No peer: the issue's targets for
 * this run are rates (1,000 a second on PostgreSQL, 300 on PGlite), and `daily-run.bench.ts` holds
 * the same day to a bare peer. The rate limits are raised past the run's volume (the spec's 300
 * requests a minute would make the set-up take seven minutes) and the request log is silenced.
 *
 *   npm run bench -- api-day      (PGlite on a temporary directory; PostgreSQL too when DATABASE_URL is set)
 *
 *   API_DAY_SUBSCRIPTIONS=3000        subscriptions (default 2,000)
 *   API_DAY_MANDATES=300              mandates they are spread over, one after another (default 1: all on one)
 *   API_DAY_STORES=PostgreSQL         one store only (PGlite, PostgreSQL)
 *   API_DAY_PROFILE=/some/dir         a CPU profile of the timed day (the server runs in this process)
 */
import { performance } from "node:perf_hooks"
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

const { Layer, ManagedRuntime, Option, Redacted } = await import("effect")
const { serverUrl } = await import("@paykit/http")
const server = await import("@paykit/server")
const harness = await import("../packages/server/test/harness.ts")
const { postgresSchema, RAISED_RATE_LIMIT, tempDir } = await import("./support/http-servers.ts")

const SUBSCRIPTIONS = Number(process.env["API_DAY_SUBSCRIPTIONS"] ?? 2_000)
const MANDATES = Number(process.env["API_DAY_MANDATES"] ?? 1)
const STORES = process.env["API_DAY_STORES"]?.split(",")
const PROFILE = process.env["API_DAY_PROFILE"]
/** Requests in flight while the subscriptions are made. */
const CREATING = 8
const TOKEN = "paykit_bench_api_day_token_0001"

type Database = import("@paykit/server").ServerConfig["database"]

interface Clock {
  readonly simulator_clock: { readonly now: string; readonly next_daily_run_at: string }
}

/** Moves the organisation's clock (`{ to }` or `{ by }`); answers the clock after it and the request's seconds. */
const advance = async (url: string, body: { readonly to: string } | { readonly by: string }) => {
  const t0 = performance.now()
  const response = await harness.api(url, TOKEN, "/sandbox/simulator/advance", { method: "POST", body })
  const seconds = (performance.now() - t0) / 1000
  if (response.status !== 200) throw new Error(`advance answered ${response.status}: ${await response.text()}`)
  return { clock: (await response.json()) as Clock, seconds }
}

/** How many payments the organisation holds, counted through the API a page of 500 at a time. */
const paymentCount = async (client: import("gocardless-nodejs").GoCardlessClient): Promise<number> => {
  let count = 0
  for await (const _ of client.payments.all({ limit: 500 })) count++
  return count
}

/** `n` calls of `make`, `CREATING` at a time. */
const inPool = async (n: number, make: (i: number) => Promise<unknown>) => {
  let next = 0
  await Promise.all(Array.from({ length: CREATING }, async () => {
    while (next < n) await make(next++)
  }))
}

/** Starts the CPU profiler; the answer stops it and writes the profile to `file`. */
const startProfile = async () => {
  const { Session } = await import("node:inspector/promises")
  const { writeFileSync } = await import("node:fs")
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

const measure = async (name: string, database: Database) => {
  const config = { port: 0, host: "127.0.0.1", mode: "sandbox" as const, database, sandboxToken: Option.some(Redacted.make(TOKEN)) }
  const layer = server.makeServer(config, { rateLimits: () => RAISED_RATE_LIMIT }).pipe(Layer.provide(harness.testLogs([])))
  const runtime = ManagedRuntime.make(layer)
  try {
    const url = await runtime.runPromise(serverUrl)
    const client = harness.localClient(TOKEN, url)
    const mandates: Array<string> = []
    for (let m = 0; m < MANDATES; m++) mandates.push((await harness.fulfilledMandateRequest(client)).mandate)
    const made = performance.now()
    await inPool(SUBSCRIPTIONS, (i) => client.subscriptions.create({ amount: 1500, currency: "GBP", interval_unit: "monthly", links: { mandate: mandates[i % mandates.length] } } as never))
    const makingSeconds = (performance.now() - made) / 1000
    const before = await paymentCount(client)
    const { clock } = await advance(url, { by: "PT1S" })
    const nextRun = Date.parse(clock.simulator_clock.next_daily_run_at)
    await advance(url, { to: new Date(nextRun - 60_000).toISOString() })
    const profiler = PROFILE === undefined ? undefined : await startProfile()
    const day = await advance(url, { to: new Date(nextRun + 60_000).toISOString() })
    if (profiler !== undefined) await profiler(`${PROFILE}/api-day-${name}-${SUBSCRIPTIONS}-${MANDATES}-${Date.now()}.cpuprofile`)
    const charged = (await paymentCount(client)) - before
    const empty = await advance(url, { by: "P1D" })
    const rate = charged / day.seconds
    console.log(
      `${name}: ${SUBSCRIPTIONS} subscriptions on ${MANDATES} mandate${MANDATES === 1 ? "" : "s"} made through the official client in ${makingSeconds.toFixed(1)} s; ` +
        `the day that charged them ${day.seconds.toFixed(2)} s (${charged} payments, ${rate.toFixed(0)} charges/s); ` +
        `the empty day after ${empty.seconds.toFixed(2)} s`
    )
  } finally {
    await runtime.dispose()
  }
}

const wanted = (store: string) => STORES === undefined || STORES.includes(store)
if (wanted("PGlite")) {
  const dir = tempDir()
  try {
    await measure("PGlite", { _tag: "Pglite", dataDir: dir.path })
  } finally {
    dir.remove()
  }
}
if ((process.env["DATABASE_URL"] ?? "") !== "" && wanted("PostgreSQL")) {
  const schema = await postgresSchema()
  try {
    await measure("PostgreSQL", { _tag: "Postgres", url: Redacted.make(schema.url) })
  } finally {
    await schema.drop()
  }
}
