import { type Exit, Option, Tracer } from "effect"

/**
 * The tracer every paykit span goes through, over the one that exports them (OTLP, or an
 * embedder's): spans timed on real time and sampled at their root.
 *
 * Real time: Effect times a span on the clock of the fiber that opens it, and paykit runs a
 * sandbox organisation's requests and due work on that organisation's clock, which an advance
 * moves days ahead; a trace must show when things happened.
 */

/** Which traces are kept (`OTEL_TRACES_SAMPLER`): a share of the new ones, and whether a caller's choice (its `traceparent`'s flag) is followed. */
export interface Sampler {
  /** 0 to 1: the share of traces started here that are exported. */
  readonly ratio: number
  /** True: a span whose parent came from elsewhere keeps that parent's choice; false: the ratio decides it too. */
  readonly parentBased: boolean
}

export const ALWAYS_ON: Sampler = { ratio: 1, parentBased: true }

/** Real time in nanoseconds since the epoch, from the monotonic clock (no step back when the wall clock is set). */
const epochAtStart = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint()
const realNanos = (): bigint => epochAtStart + process.hrtime.bigint()

/** Whether a new span is exported: a root by the ratio, a child of a span from elsewhere by its flag or the ratio, any other by its parent (Effect's rule). */
const sampledOf = (sampler: Sampler, parent: Option.Option<Tracer.AnySpan>, sampled: boolean): boolean => {
  if (!sampled) return false
  if (Option.isNone(parent)) return sampler.ratio >= 1 || Math.random() < sampler.ratio
  if (parent.value._tag === "ExternalSpan") {
    return sampler.parentBased ? parent.value.sampled : sampler.ratio >= 1 || Math.random() < sampler.ratio
  }
  return true
}

/**
 * A statement's low-cardinality name, OpenTelemetry's `db.query.summary`: its operation and the
 * table it reads or writes first (`UPDATE due_work`, `SELECT resources`), for grouping spans
 * where the text differs by its list of columns or values.
 */
export const statementSummary = (text: string): string => {
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "SQL"
  const table = /\b(?:INTO|UPDATE|FROM)\s+("?[\w.]+"?)/i.exec(text)?.[1]
  return table === undefined ? operation : `${operation} ${table.replaceAll("\"", "")}`
}

/** A span of the inner tracer whose times are real time, whatever the fiber's clock says; a statement's gets its summary. */
class RealTimeSpan implements Tracer.Span {
  readonly _tag = "Span"
  constructor(readonly inner: Tracer.Span) {}
  get name() { return this.inner.name }
  get spanId() { return this.inner.spanId }
  get traceId() { return this.inner.traceId }
  get parent() { return this.inner.parent }
  get annotations() { return this.inner.annotations }
  get status() { return this.inner.status }
  get attributes() { return this.inner.attributes }
  get links() { return this.inner.links }
  get sampled() { return this.inner.sampled }
  get kind() { return this.inner.kind }
  end(_endTime: bigint, exit: Exit.Exit<unknown, unknown>): void {
    this.inner.end(realNanos(), exit)
  }
  attribute(key: string, value: unknown): void {
    this.inner.attribute(key, value)
    if (key === "db.query.text" && typeof value === "string") this.inner.attribute("db.query.summary", statementSummary(value))
  }
  event(name: string, _startTime: bigint, attributes?: Record<string, unknown>): void {
    this.inner.event(name, realNanos(), attributes)
  }
  addLinks(links: ReadonlyArray<Tracer.SpanLink>): void {
    this.inner.addLinks(links)
  }
}

/** `inner` with paykit's timing and sampling. */
export const paykitTracer = (inner: Tracer.Tracer, sampler: Sampler): Tracer.Tracer =>
  Tracer.make({
    span: (options) =>
      new RealTimeSpan(inner.span({ ...options, startTime: realNanos(), sampled: sampledOf(sampler, options.parent, options.sampled) })),
    ...(inner.context === undefined ? {} : { context: inner.context })
  })
