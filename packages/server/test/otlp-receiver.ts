import { createServer, type Server } from "node:http"

/**
 * A local OTLP/HTTP receiver, as a collector would be: it takes what is posted to `/v1/traces`
 * (the JSON encoding, `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) and keeps each span with its
 * resource's attributes. Bodies of another content type are counted and kept as bytes.
 */

export interface OtlpValue {
  readonly stringValue?: string
  readonly intValue?: string | number
  readonly boolValue?: boolean
  readonly doubleValue?: number
}
interface KeyValue {
  readonly key: string
  readonly value: OtlpValue
}
export interface ReceivedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<KeyValue>
  readonly links: ReadonlyArray<{ readonly traceId: string; readonly spanId: string }>
  readonly startTimeUnixNano: string
  readonly endTimeUnixNano: string
  readonly resource: ReadonlyArray<KeyValue>
}
interface TracesBody {
  readonly resourceSpans?: ReadonlyArray<{
    readonly resource?: { readonly attributes?: ReadonlyArray<KeyValue> }
    readonly scopeSpans?: ReadonlyArray<{ readonly spans?: ReadonlyArray<Omit<ReceivedSpan, "resource">> }>
  }>
}

/** OpenTelemetry's span kinds as numbers in the encoding. */
export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const

export interface OtlpReceiver {
  readonly url: string
  readonly spans: Array<ReceivedSpan>
  /** Posts that were not JSON: their content type and bytes. */
  readonly others: Array<{ readonly path: string; readonly contentType: string; readonly bytes: number }>
  /** Resolves once `found` answers something for the spans received so far (checked on every post). */
  readonly waitFor: <A>(found: (spans: ReadonlyArray<ReceivedSpan>) => A | undefined, what: string) => Promise<A>
  readonly close: () => Promise<void>
}

/** The value of a span's (or resource's) attribute, as a string, number or boolean. */
export const attributeOf = (attributes: ReadonlyArray<KeyValue>, key: string): string | number | boolean | undefined => {
  const value = attributes.find((attribute) => attribute.key === key)?.value
  if (value === undefined) return undefined
  if (value.stringValue !== undefined) return value.stringValue
  if (value.intValue !== undefined) return Number(value.intValue)
  return value.boolValue ?? value.doubleValue
}

/** Whether `ancestor` is `span` or above it, following the parents among `spans`. */
export const descendsFrom = (spans: ReadonlyArray<ReceivedSpan>, span: ReceivedSpan, ancestor: ReceivedSpan): boolean => {
  const byId = new Map(spans.map((s) => [s.spanId, s]))
  for (let at: ReceivedSpan | undefined = span; at !== undefined; at = at.parentSpanId === undefined ? undefined : byId.get(at.parentSpanId)) {
    if (at.spanId === ancestor.spanId) return true
  }
  return false
}

export const startOtlpReceiver = (): Promise<OtlpReceiver> =>
  new Promise((resolve, reject) => {
    const spans: Array<ReceivedSpan> = []
    const others: Array<{ path: string; contentType: string; bytes: number }> = []
    const waiters = new Set<() => void>()
    const server: Server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", () => {
        const body = Buffer.concat(chunks)
        const contentType = req.headers["content-type"] ?? ""
        if (contentType.startsWith("application/json")) {
          const parsed = JSON.parse(body.toString("utf8")) as TracesBody
          for (const resourceSpans of parsed.resourceSpans ?? []) {
            const resource = resourceSpans.resource?.attributes ?? []
            for (const scope of resourceSpans.scopeSpans ?? []) for (const span of scope.spans ?? []) spans.push({ ...span, resource })
          }
        } else others.push({ path: req.url ?? "", contentType, bytes: body.length })
        res.writeHead(200, { "content-type": "application/json" }).end("{}")
        for (const waiter of waiters) waiter()
      })
    })
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      if (typeof address !== "object" || address === null) return reject(new Error("no address"))
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        spans,
        others,
        waitFor: (found, what) =>
          new Promise((done, fail) => {
            const check = () => {
              const result = found(spans)
              if (result === undefined) return
              waiters.delete(check)
              clearTimeout(timer)
              done(result)
            }
            // A bound, not a measure: a span never sent fails the test with what was received.
            const timer = setTimeout(() => {
              waiters.delete(check)
              fail(new Error(`no ${what} among ${spans.length} spans: ${[...new Set(spans.map((s) => s.name))].join(", ")}`))
            }, 60_000)
            waiters.add(check)
            check()
          }),
        close: () => new Promise((done) => server.close(() => done()))
      })
    })
  })
