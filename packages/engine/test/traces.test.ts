import { Effect, Option, Tracer } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { decodeCommand, MandateImports, REQUEST_BODIES, Simulator } from "@paykit/engine"
import { ORG, setUpPayer, START, testLayer } from "./fixtures.ts"

/**
 * An embedder's tracer (Effect's `Tracer`, provided around the engine's layer) gets the engine's
 * spans: each operation of a room's service, and each due item, in the trace of the span that
 * scheduled it, however much later it runs (docs/operations.md, "Traces").
 */

const entryOf = decodeCommand(REQUEST_BODIES.mandate_import_entries.create, "mandate_import_entries")

/** A tracer of the embedder's own that keeps every span it is asked for. */
const collecting = () => {
  const spans: Array<Tracer.NativeSpan> = []
  const tracer = Tracer.make({
    span: (options) => {
      const span = new Tracer.NativeSpan(options)
      spans.push(span)
      return span
    }
  })
  return { spans, tracer }
}

const parentOf = (span: Tracer.AnySpan) => span._tag === "Span" ? Option.getOrUndefined(span.parent) : undefined

describe("traces of the engine", () => {
  it("a submission in the host's span is an operation span, and the processing it scheduled runs later as its child", async () => {
    const { spans, tracer } = collecting()
    const program = Effect.gen(function*() {
      yield* setUpPayer(ORG)
      const imports = yield* MandateImports
      const created = yield* imports.create(ORG, { scheme: "bacs" })
      yield* imports.addEntry(ORG, yield* entryOf({
        customer: { given_name: "Grace", family_name: "Hopper", email: "grace@example.com" },
        bank_account: { account_holder_name: "Grace Hopper", account_number: "55779911", branch_code: "200000", country_code: "GB" },
        links: { mandate_import: created.id }
      }))
      yield* imports.submit(ORG, created.id).pipe(Effect.withSpan("host request"))
      // Processed 10 seconds after the submission.
      yield* (yield* Simulator).advanceTo(START + 15_000)
      return (yield* imports.get(ORG, created.id)).status
    })
    const status = await Effect.runPromise(
      Effect.provide(Effect.flatMap(TestClock.setTime(START), () => program), testLayer()).pipe(Effect.withTracer(tracer))
    )
    expect(status).toBe("processed")

    const host = spans.find((span) => span.name === "host request")
    const submit = spans.find((span) => span.name === "MandateImports.submit")
    const processing = spans.find((span) => span.name === "due_work mandate_import_processing")
    expect(host).toBeDefined()
    expect(submit && parentOf(submit)?.spanId).toBe(host?.spanId)
    expect(submit?.attributes.get("paykit.service")).toBe("MandateImports")
    expect(submit?.attributes.get("paykit.operation")).toBe("submit")
    // The item was scheduled inside the submission: it is the submission's child, in the host's trace.
    expect(processing && parentOf(processing)?.spanId).toBe(submit?.spanId)
    expect(processing?.traceId).toBe(host?.traceId)
    expect(processing?.kind).toBe("consumer")
    expect(processing?.attributes.get("paykit.due_work.attempt")).toBe(0)
    // What the processing did is below it.
    const created = spans.filter((span) => span.name === "Customers.create" && parentOf(span)?.spanId !== undefined)
    expect(created.some((span) => span.traceId === host?.traceId)).toBe(true)
    // The daily run the advance passed over is no part of it: work scheduled with no span open starts its own trace.
    const daily = spans.filter((span) => span.name.startsWith("due_work daily_run"))
    expect(daily.every((span) => span.traceId !== host?.traceId)).toBe(true)
  })

  it("an engine built without a tracer of its own hands its services out as they are: no span per operation", async () => {
    const { spans, tracer } = collecting()
    await Effect.runPromise(Effect.gen(function*() {
      yield* setUpPayer(ORG)
      const imports = yield* MandateImports
      // The tracer reaches the call, not the engine's construction.
      yield* imports.create(ORG, { scheme: "bacs" }).pipe(Effect.withSpan("host request"), Effect.withTracer(tracer))
    }).pipe(Effect.provide(testLayer())))
    expect(spans.map((span) => span.name)).toEqual(["host request"])
  })
})
