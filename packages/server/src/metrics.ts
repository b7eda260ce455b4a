import { Cause, Context, Effect, Layer, Metric } from "effect"
import { PrometheusMetrics } from "effect/observability"
import type { SqlClient } from "effect/sql"
import { createServer, type Server } from "node:http"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { DueWorker, labelled, PaykitMetrics } from "@paykit/engine"
import { dueBacklog, outboxDepth } from "@paykit/store-sql"
import { listeningUrl } from "./listening-url.ts"

/**
 * `GET /metrics` in Prometheus's text format, on a listener of its own (`PAYKIT_METRICS_PORT`;
 * unset, none), never the API's port, so the series are not public by accident. What the series
 * are: `PaykitMetrics` (engine) and docs/operations.md. The queue gauges (due work pending, the
 * outbox's depth) are read from the database when scraped, each a bounded count of what waits; the
 * process's own (CPU, memory, event loop delay) are read from Node then.
 */

/**
 * Where the metrics listener is, once it listens (undefined without `PAYKIT_METRICS_PORT`), and
 * how another process's series join its scrape: a worker process (`dueWork: "worker-process"`)
 * listens on a free port of 127.0.0.1 and its `/metrics` is read at each scrape of this one.
 */
export class MetricsEndpoint extends Context.Service<MetricsEndpoint, {
  readonly url: string | undefined
  readonly addWorker: (url: string) => void
}>()("@paykit/server/MetricsEndpoint") {}

/** The label a worker process's series carry in the host's scrape. */
const WORKER_PROCESS_LABEL = "paykit_process"

/** A family of the exposition text: its `# HELP` and `# TYPE` lines, then its samples. */
interface Family {
  readonly header: Array<string>
  readonly samples: Array<string>
}

/** The text's families by name, in order: each sample belongs to the family whose `# TYPE` came last. */
const familiesOf = (text: string): Map<string, Family> => {
  const families = new Map<string, Family>()
  let current: Family | undefined
  for (const line of text.split("\n")) {
    if (line === "") continue
    const comment = /^# (HELP|TYPE) (\S+)/.exec(line)
    if (comment !== null) {
      const name = comment[2] ?? ""
      current = families.get(name) ?? { header: [], samples: [] }
      families.set(name, current)
      current.header.push(line)
    } else current?.samples.push(line)
  }
  return families
}

/** A sample line with `label="value"` added to its labels. */
const withLabel = (sample: string, label: string, value: string): string => {
  const brace = sample.indexOf("{")
  const space = sample.indexOf(" ")
  if (brace !== -1 && (space === -1 || brace < space)) {
    const close = sample.indexOf("}", brace)
    const inner = sample.slice(brace + 1, close)
    return `${sample.slice(0, close)}${inner === "" ? "" : ","}${label}="${value}"${sample.slice(close)}`
  }
  return `${sample.slice(0, space)}{${label}="${value}"}${sample.slice(space)}`
}

/**
 * This process's exposition text with the worker processes' samples in it, each labelled
 * `paykit_process="worker"`: one `# HELP` and `# TYPE` a family, as Prometheus requires.
 */
const mergedExposition = (own: string, workers: ReadonlyArray<string>): string => {
  const families = familiesOf(own)
  for (const text of workers) {
    for (const [name, family] of familiesOf(text)) {
      const known = families.get(name)
      const labelled = family.samples.map((sample) => withLabel(sample, WORKER_PROCESS_LABEL, "worker"))
      if (known === undefined) families.set(name, { header: family.header, samples: labelled })
      else known.samples.push(...labelled)
    }
  }
  return [...families.values()].map((family) => [...family.header, ...family.samples].join("\n")).join("\n") + "\n"
}

/** A worker's text, or none when it does not answer (it is stopping, or died: the host's log says so). */
const workerText = (url: string): Promise<string | undefined> =>
  fetch(url, { signal: AbortSignal.timeout(5_000) }).then((response) => response.ok ? response.text() : undefined, () => undefined)

/** A registry of the server's own: two servers in one process (tests, a host with two mounts) count apart. */
export const metricsRegistry = Layer.sync(Metric.MetricRegistry, () => new Map())

const pendingOf = labelled(PaykitMetrics.dueWorkPending)

/** The queue gauges, set from the database now: every kind this worker runs, 0 when none is due. */
const sampleQueues = Effect.gen(function*() {
  const worker = yield* DueWorker
  const backlog = yield* dueBacklog(Date.now())
  for (const kind of new Set([...worker.kinds, ...backlog.keys()])) yield* Metric.update(pendingOf({ kind }), backlog.get(kind) ?? 0)
  yield* Metric.update(PaykitMetrics.outboxDepth, yield* outboxDepth())
})

const gaugeOf = (read: () => number): Metric.Metric.Hooks<number, Metric.GaugeState<number>> => ({ get: () => ({ value: read() }), update: () => {}, modify: () => {} })

/**
 * The process's series, read from Node at each scrape; the event loop's delay is the histogram of
 * the time since the last scrape (then reset). Removed when the listener stops.
 */
const registerProcessMetrics = (context: Context.Context<never>) => {
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  const seconds = (nanoseconds: number) => (Number.isFinite(nanoseconds) ? nanoseconds : 0) / 1e9
  const registrations = [
    Metric.registerUnsafe(PaykitMetrics.processCpuSeconds, context, {
      get: () => {
        const usage = process.cpuUsage()
        return { count: (usage.user + usage.system) / 1e6, incremental: true }
      },
      update: () => {},
      modify: () => {}
    }),
    Metric.registerUnsafe(PaykitMetrics.processResidentMemory, context, gaugeOf(() => process.memoryUsage.rss())),
    Metric.registerUnsafe(PaykitMetrics.processHeapUsed, context, gaugeOf(() => process.memoryUsage().heapUsed)),
    Metric.registerUnsafe(PaykitMetrics.processStartTime, context, gaugeOf(() => Math.round((Date.now() - process.uptime() * 1000) / 1000))),
    Metric.registerUnsafe(Metric.withAttributes(PaykitMetrics.eventLoopLag, { quantile: "0.5" }), context, gaugeOf(() => seconds(delay.percentile(50)))),
    Metric.registerUnsafe(Metric.withAttributes(PaykitMetrics.eventLoopLag, { quantile: "0.99" }), context, gaugeOf(() => seconds(delay.percentile(99)))),
    Metric.registerUnsafe(Metric.withAttributes(PaykitMetrics.eventLoopLag, { quantile: "1" }), context, gaugeOf(() => seconds(delay.max)))
  ]
  return {
    afterScrape: () => delay.reset(),
    remove: () => {
      delay.disable()
      for (const registration of registrations) registration.remove()
    }
  }
}

/** The exposition text: the queue gauges sampled (a database that fails leaves them as they were, and says so in the log), then every series. */
export const scrapeMetrics: Effect.Effect<string, never, DueWorker | SqlClient.SqlClient> = Effect.andThen(
  Effect.catchCause(sampleQueues, (cause) => Effect.logWarning("metrics: the queue gauges could not be read", Cause.pretty(cause))),
  PrometheusMetrics.format()
)

const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

const listen = (server: Server, host: string, port: number) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, () => {
      const address = server.address()
      resolve(typeof address === "object" && address !== null ? address.port : port)
    })
  })

/**
 * The metrics listener on `host:port` (0: a free one), or none when `port` is undefined; it closes
 * with the layer. It answers `GET /metrics` and 404 to anything else.
 */
export const metricsListener = (host: string, port: number | undefined): Layer.Layer<MetricsEndpoint, unknown, DueWorker | SqlClient.SqlClient> =>
  port === undefined ? Layer.succeed(MetricsEndpoint, { url: undefined, addWorker: () => {} }) : Layer.effect(MetricsEndpoint, Effect.gen(function*() {
    const context = yield* Effect.context<DueWorker | SqlClient.SqlClient>()
    const processMetrics = yield* Effect.acquireRelease(Effect.sync(() => registerProcessMetrics(context)), (registered) => Effect.sync(registered.remove))
    const workers: Array<string> = []
    const scrape = async () => {
      const [own, ...others] = await Promise.all([
        Effect.runPromiseWith(context)(scrapeMetrics).finally(processMetrics.afterScrape),
        ...workers.map(workerText)
      ])
      const answered = others.filter((text): text is string => text !== undefined)
      return answered.length === 0 ? own : mergedExposition(own, answered)
    }
    const server = createServer((req, res) => {
      const path = (req.url ?? "/").split("?")[0]
      if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
        res.writeHead(404, { "content-type": "text/plain" }).end("Not found: GET /metrics\n")
        return
      }
      scrape().then(
        (text) => res.writeHead(200, { "content-type": PROMETHEUS_CONTENT_TYPE }).end(req.method === "HEAD" ? undefined : text),
        () => res.writeHead(500, { "content-type": "text/plain" }).end("metrics: the scrape failed\n")
      )
    })
    const bound = yield* Effect.acquireRelease(
      Effect.tryPromise(() => listen(server, host, port)),
      () => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
    )
    return MetricsEndpoint.of({ url: `${listeningUrl(host, bound)}/metrics`, addWorker: (url) => void workers.push(url) })
  }))
