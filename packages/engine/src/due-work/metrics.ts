import { Metric } from "effect"

/**
 * paykit's Prometheus series (docs/operations.md), defined once: the engine records the due-work
 * and webhook ones, the HTTP package the request ones, store-sql the statement one, and the
 * server samples the gauges when it is scraped. A label is a route template, a method, a status,
 * a kind, an outcome or a statement's name: never an id, an organisation or a token, so the
 * series are as many as the kinds of things, not as the things.
 *
 * Metrics go to the `MetricRegistry` of the context they are recorded in; a server gives its
 * runtime a registry of its own, so two servers in one process do not add up.
 */

/** Durations of requests, statements and webhook attempts, in seconds: 1 ms to 30 s. */
export const DURATION_BUCKETS: ReadonlyArray<number> = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/** How late due work ran, in seconds: 10 ms (a poll is 250 ms) to an hour. */
export const LAG_BUCKETS: ReadonlyArray<number> = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600]

/** What the series are, for docs and the dashboard's test: name, type and labels. */
export interface MetricDescription {
  readonly name: string
  readonly type: "counter" | "gauge" | "histogram"
  readonly labels: ReadonlyArray<string>
  readonly help: string
}

const DESCRIBED: Array<MetricDescription> = []

const described = <M>(description: MetricDescription, make: (d: MetricDescription) => M): M => {
  DESCRIBED.push(description)
  return make(description)
}

const counter = (name: string, labels: ReadonlyArray<string>, help: string) =>
  described({ name, type: "counter", labels, help }, (d) => Metric.counter(d.name, { description: d.help, incremental: true }))

const gauge = (name: string, labels: ReadonlyArray<string>, help: string) =>
  described({ name, type: "gauge", labels, help }, (d) => Metric.gauge(d.name, { description: d.help }))

const histogram = (name: string, labels: ReadonlyArray<string>, help: string, boundaries: ReadonlyArray<number>) =>
  described({ name, type: "histogram", labels, help }, (d) => Metric.histogram(d.name, { description: d.help, boundaries }))

const httpRequests = counter("paykit_http_requests_total", ["route", "method", "status"], "Requests answered, by route template, method and status")
const httpRequestDuration = histogram(
  "paykit_http_request_duration_seconds",
  ["route", "method"],
  "Time from a request's arrival to its answer, by route template and method",
  DURATION_BUCKETS
)
const dueWorkLag = histogram(
  "paykit_due_work_lag_seconds",
  ["kind"],
  "How long after it fell due an item of due work started, on its organisation's clock",
  LAG_BUCKETS
)
const dueWorkItems = counter("paykit_due_work_items_total", ["kind", "outcome"], "Items of due work run: done, retried (rescheduled by its handler) or failed")
const dueWorkPending = gauge("paykit_due_work_pending", ["kind"], "Items of due work due now and not yet run (sampled at scrape, counted up to a bound)")
const outboxDepth = gauge("paykit_outbox_depth", [], "Events waiting in the webhook outbox (sampled at scrape, counted up to a bound)")
const webhookDeliveries = counter("paykit_webhook_deliveries_total", ["outcome"], "Webhook attempts: success (2xx), rejected (another status) or error (no answer)")
const webhookDeliveryDuration = histogram(
  "paykit_webhook_delivery_duration_seconds",
  ["outcome"],
  "How long a webhook attempt waited for its receiver",
  DURATION_BUCKETS
)
const dbStatementDuration = histogram(
  "paykit_db_statement_duration_seconds",
  ["statement"],
  "Time a database statement took, by the statement's name in store-sql",
  DURATION_BUCKETS
)
const processCpuSeconds = counter("process_cpu_seconds_total", [], "CPU time of the process, user and system, in seconds")
const processResidentMemory = gauge("process_resident_memory_bytes", [], "Resident memory of the process")
const processHeapUsed = gauge("nodejs_heap_used_bytes", [], "V8 heap in use")
const processStartTime = gauge("process_start_time_seconds", [], "When the process started, seconds since the epoch")
const eventLoopLag = gauge("nodejs_eventloop_lag_seconds", ["quantile"], "Event loop delay over the last scrape interval (p50, p99, max)")

/** The series, as Effect metrics, for the code that records or samples them. */
export const PaykitMetrics = {
  httpRequests,
  httpRequestDuration,
  dueWorkLag,
  dueWorkItems,
  dueWorkPending,
  outboxDepth,
  webhookDeliveries,
  webhookDeliveryDuration,
  dbStatementDuration,
  processCpuSeconds,
  processResidentMemory,
  processHeapUsed,
  processStartTime,
  eventLoopLag
} as const

/** Every series paykit exports, in the order above. */
export const PAYKIT_METRICS: ReadonlyArray<MetricDescription> = DESCRIBED

/**
 * `metric` with `labels`, made once per set of label values and kept: a labelled metric caches the
 * key of its series, so recording the same labels again costs a map lookup, not a new key.
 */
export const labelled = <I, S>(metric: Metric.Metric<I, S>) => {
  const made = new Map<string, Metric.Metric<I, S>>()
  return (labels: Readonly<Record<string, string>>): Metric.Metric<I, S> => {
    let key = ""
    for (const name in labels) key += `${labels[name]}\u0000`
    let found = made.get(key)
    if (found === undefined) {
      found = Metric.withAttributes(metric, labels)
      made.set(key, found)
    }
    return found
  }
}
