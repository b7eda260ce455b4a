import { Effect, Stream } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isFileFormatError, paykitFiles, type ReportEntry } from "@paykit/bank-files"
import { type Timestamp, unsafeLocalDate } from "@paykit/core"
import { BankReports, Events, Payments, Simulator } from "@paykit/engine"
import { setUpPayer } from "@paykit/engine/testing"
import { edge, ORG, runEngine, START } from "./fixtures.ts"

/**
 * Bank reports, whatever order and grouping they arrive in: the rule of issue 42 that a set of
 * report entries, interleaved, duplicated and split into files in any way, leaves the payments
 * and their events as one clean report of the same entries does; and that any report applied
 * twice changes nothing the second time.
 */

const DAY = 86_400_000
const encoder = new TextEncoder()

/** What the bank reports of one payment: nothing, a return, or an indemnity claim, with the code. */
type Outcome = { readonly kind: "none" } | { readonly kind: "collection_returned" | "collection_charged_back"; readonly code: string }

const outcomeArb: fc.Arbitrary<Outcome> = fc.oneof(
  fc.constant<Outcome>({ kind: "none" }),
  fc.constantFrom("insufficient_funds", "refer_to_payer", "bank_account_closed").map((code): Outcome => ({ kind: "collection_returned", code })),
  fc.constant<Outcome>({ kind: "collection_charged_back", code: "authorisation_disputed" })
)

/** A report in paykit's own format of `entries`, its header's id making its bytes its own. */
const reportBytes = (id: string, entries: ReadonlyArray<Omit<ReportEntry, "scheme" | "format" | "location">>): Uint8Array => {
  const report = paykitFiles.reports[0]
  if (report === undefined) throw new Error("no paykit report")
  const writer = report.writer({
    id, scheme: "bacs", format: "paykit_report", created_at: "2026-12-01T06:00:00.000Z" as Timestamp, report_date: unsafeLocalDate("2026-12-01"),
    originator: { creditor: "CR000000000001", name: "Acme", scheme_identifier: "999999", account: { account_holder_name: "Acme" } }, currency: "GBP"
  })
  const end = writer.end()
  if (isFileFormatError(end)) throw new Error(end.message)
  return encoder.encode(writer.begin() + entries.map((e) => writer.entry({ ...e, scheme: "bacs", format: "paykit_report", location: "" })).join("") + end)
}

/** Payments on one mandate, submitted (or, when `settled`, collected); then `deliver` hands the reports in; the state a week on. */
const run = (amounts: ReadonlyArray<number>, settled: boolean, deliver: (payments: ReadonlyArray<string>) => ReadonlyArray<Uint8Array>) =>
  runEngine(Effect.gen(function*() {
    const { mandate } = yield* setUpPayer(ORG, { verifyCreditor: true })
    const payments = yield* Payments
    const made = yield* Effect.forEach(amounts, (amount) =>
      Effect.flatMap(edge.payment({ amount, currency: "GBP", links: { mandate: mandate.id } }), (c) => payments.create(ORG, c)))
    const simulator = yield* Simulator
    // A day at a time until the payments are with the bank (submitted), or collected (confirmed).
    const wanted = settled ? "confirmed" : "submitted"
    for (let day = 1; day < 20; day++) {
      yield* simulator.advanceTo(START + day * DAY)
      if ((yield* Effect.forEach(made, (p) => payments.get(ORG, p.id))).every((p) => p.status === wanted)) break
    }
    const reports = yield* BankReports
    const ids = made.map((p) => p.id)
    for (const bytes of deliver(ids)) {
      yield* reports.receive(ORG, { bytes: Stream.make(bytes) })
    }
    yield* simulator.advanceTo(START + 24 * DAY)
    const events = yield* Events
    return yield* Effect.forEach(ids, (id) =>
      Effect.gen(function*() {
        const page = yield* events.list(ORG, { payment: id, limit: 100 })
        return {
          status: (yield* payments.get(ORG, id)).status,
          events: page.items.map((e) => [e.action, e.details.cause, e.details.reason_code ?? null, e.details.description]).reverse()
        }
      }))
  }))

const entriesOf = (payments: ReadonlyArray<string>, outcomes: ReadonlyArray<Outcome>) =>
  outcomes.flatMap((o, i) => o.kind === "none" || payments[i] === undefined ? [] : [{ kind: o.kind, target: { by: "end_to_end" as const, id: payments[i] }, code: o.code }])

describe("bank reports in any order and grouping", () => {
  it("entries interleaved, duplicated and split into files leave the payments and events of one clean report; a report received twice changes nothing", { timeout: 600_000 }, async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(outcomeArb, { minLength: 1, maxLength: 5 }),
      fc.boolean(),
      // Each file: positions into the entries (repeats allowed), in the order given.
      fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 }),
      async (outcomes, settled, files) => {
        const amounts = outcomes.map((_, i) => 1000 + i * 100)
        const clean = await run(amounts, settled, (payments) => {
          const bytes = reportBytes("CLEAN", entriesOf(payments, outcomes))
          // The same report twice: the second receipt is the first's report, applying nothing.
          return [bytes, bytes]
        })
        const split = await run(amounts, settled, (payments) => {
          const entries = entriesOf(payments, outcomes)
          if (entries.length === 0) return []
          const cut = files.map((positions, f) => reportBytes(`PART-${f}`, positions.flatMap((p) => entries.slice(p % entries.length, p % entries.length + 1))))
          // Every entry reaches the bank's inbox at least once, in a file of its own after the others.
          return [...cut, reportBytes("REST", [...entries].reverse())]
        })
        expect(split).toEqual(clean)
        // What the rule table says of each (not computed by the code under test): a return fails
        // the payment (late, when it had settled), a claim charges it back, nothing leaves it
        // collected (paid out, unless the claims took the balance below zero).
        const expected = outcomes.map((o) => o.kind === "collection_returned" ? "failed" : o.kind === "collection_charged_back" ? "charged_back" : "collected")
        expect(clean.map((p) => p.status === "paid_out" || p.status === "confirmed" ? "collected" : p.status)).toEqual(expected)
        for (const [i, p] of clean.entries()) {
          const actions = p.events.map((e) => e[0])
          if (outcomes[i]?.kind === "collection_returned") expect(actions.includes("confirmed")).toBe(settled)
        }
      }
    ), { numRuns: 12 })
  })
})

/** The sandbox's test values as the documented table gives them (docs/test-values.md), not as the code computes them. */
const MODEL: Readonly<Record<number, { readonly status: string; readonly confirmedFirst: boolean; readonly entries: number }>> = {
  0: { status: "collected", confirmedFirst: true, entries: 0 },
  91: { status: "failed", confirmedFirst: false, entries: 1 },
  92: { status: "failed", confirmedFirst: true, entries: 1 },
  93: { status: "charged_back", confirmedFirst: true, entries: 1 }
}

describe("every submitted item reaches its final state through a report entry or its settlement rule", () => {
  it("payments of any test value and a mandate the bank rejects, each moved once by what the sandbox bank reported or by its deadline (model)", { timeout: 600_000 }, async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.constantFrom(0, 91, 92, 93), { minLength: 1, maxLength: 6 }), fc.boolean(), async (endings, rejected) => {
      const r = await runEngine(Effect.gen(function*() {
        const { mandate } = yield* setUpPayer(ORG, { verifyCreditor: true })
        const refused = rejected ? yield* setUpPayer(ORG, { accountHolderName: "Mandate Failington" }) : undefined
        const payments = yield* Payments
        const made = yield* Effect.forEach(endings, (ending, i) =>
          Effect.flatMap(edge.payment({ amount: 1000 + i * 100 + ending, currency: "GBP", links: { mandate: mandate.id } }), (c) => payments.create(ORG, c)))
        const onRefused = refused === undefined ? undefined : yield* Effect.flatMap(edge.payment({ amount: 1000, currency: "GBP", links: { mandate: refused.mandate.id } }), (c) => payments.create(ORG, c))
        yield* (yield* Simulator).advanceTo(START + 30 * DAY)
        const reports = yield* BankReports
        const entries = (yield* Effect.forEach((yield* reports.list(ORG, { limit: 500 })).items, (report) => reports.entries(ORG, report.id))).flat()
        const events = yield* Events
        const eventsOf = (filter: { readonly payment: string } | { readonly mandate: string }) => Effect.map(events.list(ORG, { ...filter, limit: 100 }), (page) => [...page.items].reverse())
        return {
          payments: yield* Effect.forEach(made, (p) => Effect.all({ status: Effect.map(payments.get(ORG, p.id), (x) => x.status), events: eventsOf({ payment: p.id }), entries: Effect.succeed(entries.filter((e) => e.links["payment"] === p.id)) })),
          refused: refused === undefined || onRefused === undefined ? undefined : {
            status: yield* Effect.map(Events.use((e) => e.list(ORG, { mandate: refused.mandate.id, resource_type: "mandates", limit: 50 })), (page) => page.items.map((e) => e.action)),
            payment: (yield* payments.get(ORG, onRefused.id)).status,
            entries: entries.filter((e) => e.links["mandate"] === refused.mandate.id && e.kind === "mandate_rejected")
          }
        }
      }))
      for (const [i, p] of r.payments.entries()) {
        const model = MODEL[endings[i] ?? 0]
        if (model === undefined) throw new Error("no model")
        expect(p.status === "paid_out" || p.status === "confirmed" ? "collected" : p.status).toBe(model.status)
        const actions = p.events.map((e) => e.action)
        expect(actions.includes("confirmed")).toBe(model.confirmedFirst)
        // Confirmed only by the settlement rule; failed or charged back only by the one entry the bank reported.
        expect(p.events.filter((e) => e.action === "confirmed").every((e) => e.details.cause === "payment_confirmed")).toBe(true)
        expect(p.entries.filter((e) => e.outcome === "applied" || e.outcome === "scheduled")).toHaveLength(model.entries)
        const moved = p.events.find((e) => e.action === "failed" || e.action === "charged_back")
        if (model.entries === 0) expect(moved).toBeUndefined()
        else expect(moved?.details).toMatchObject({ origin: "bank", cause: p.entries[0]?.cause, reason_code: p.entries[0]?.reason_code })
      }
      if (r.refused !== undefined) {
        expect(r.refused.status).toContain("failed")
        expect(r.refused.status).not.toContain("active")
        expect(r.refused.entries.map((e) => e.outcome)).toEqual(["applied"])
        expect(r.refused.payment).toBe("cancelled")
      }
    }), { numRuns: 10 })
  })
})
