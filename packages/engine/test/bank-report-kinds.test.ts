import { Effect, Stream } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isFileFormatError, type ReportEntry, type ReportFormat, type ReportHeader, reportFormatOf, schemeFilesFor, type SubmittedItem } from "@paykit/bank-files"
import { type Timestamp, unsafeLocalDate } from "@paykit/core"
import { BankReports, BankSubmissions, Customers, Events, Mandates, Payments, Simulator } from "@paykit/engine"
import { edge, ORG, runEngine, setUpPayer, setUpPayerIn, START } from "./fixtures.ts"

/**
 * Report entries of the kinds that move a mandate or a bank account rather than a collection,
 * posted in the scheme's own format as a real bank would send them: a Bacs ADDACS reinstatement
 * (`R`) makes a cancelled mandate live again; a NACHA notification of change (COR, Addenda 98)
 * replaces the payer's account details, so the next file carries the corrected ones.
 */

const DAY = 86_400_000
const encoder = new TextEncoder()

const bytesOf = <E>(stream: Stream.Stream<Uint8Array, E>) =>
  Effect.map(Stream.runCollect(stream), (chunks) => Buffer.concat(chunks.map((c) => Buffer.from(c))))

/** A report of `format` holding `entries`, as its scheme's writer makes it. */
const reportOf = (format: ReportFormat, header: Omit<ReportHeader, "format" | "created_at" | "report_date">, entries: ReadonlyArray<Omit<ReportEntry, "format" | "location">>) => {
  const found = reportFormatOf(format)
  if (found === undefined) throw new Error(`no ${format}`)
  const writer = found.report.writer({ ...header, format, created_at: "2026-12-01T06:00:00.000Z" as Timestamp, report_date: unsafeLocalDate("2026-12-01") })
  const body = writer.begin() + entries.map((e) => writer.entry({ ...e, format, location: "" })).join("")
  const end = writer.end()
  if (isFileFormatError(end)) throw new Error(end.message)
  return { bytes: Stream.make(encoder.encode(body + end)) }
}

const BACS_ORIGINATOR = { creditor: "CR000000000001", name: "Acme Gym", scheme_identifier: "999999", account: { account_holder_name: "Acme Gym", sort_code: "200000", account_number: "55779911" } }
const ADA = { account_holder_name: "Ada Lovelace", sort_code: "200000", account_number: "55779911" }

/** A Bacs mandate, live: its reference is what ADDACS names it by. */
const activeBacsMandate = Effect.gen(function*() {
  const { mandate } = yield* setUpPayer(ORG)
  const simulator = yield* Simulator
  const mandates = yield* Mandates
  for (let day = 1; day < 15 && (yield* mandates.get(ORG, mandate.id)).status !== "active"; day++) yield* simulator.advanceTo(START + day * DAY)
  return { mandate, reference: (yield* mandates.get(ORG, mandate.id)).reference ?? "" }
})

describe("a Bacs ADDACS reinstatement", () => {
  it("makes a mandate its bank cancelled live again (reinstated, the scheme's code in the event), once however often it is received", { timeout: 60_000 }, async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate, reference } = yield* activeBacsMandate
      const mandates = yield* Mandates
      const reports = yield* BankReports
      const addacs = (code: string, kind: ReportEntry["kind"]) =>
        reportOf("bacs_addacs", { id: `ADDACS-${code}`, scheme: "bacs", originator: BACS_ORIGINATOR, currency: "GBP" }, [
          { kind, scheme: "bacs", target: { by: "mandate_reference", reference }, code, debtor: ADA, effective_date: unsafeLocalDate("2026-12-01") }
        ])
      yield* reports.receive(ORG, addacs("1", "mandate_cancelled"))
      const cancelled = (yield* mandates.get(ORG, mandate.id)).status
      const reinstated = yield* reports.receive(ORG, addacs("R", "mandate_reinstated"))
      const again = yield* reports.receive(ORG, addacs("R", "mandate_reinstated"))
      const entries = yield* reports.entries(ORG, reinstated.report.id)
      const events = (yield* (yield* Events).list(ORG, { mandate: mandate.id, resource_type: "mandates", limit: 50 })).items
      // Collecting on it works again.
      const payment = yield* (yield* Payments).create(ORG, yield* edge.payment({ amount: 1500, currency: "GBP", links: { mandate: mandate.id } }))
      return { cancelled, status: (yield* mandates.get(ORG, mandate.id)).status, again: again.created, entries, events, payment }
    }))
    expect(r.cancelled).toBe("cancelled")
    expect(r.status).toBe("active")
    expect(r.again).toBe(false)
    expect(r.entries.map((e) => [e.kind, e.outcome, e.reason_code])).toEqual([["mandate_reinstated", "applied", "ADDACS-R"]])
    const last = r.events[0]
    expect(last?.action).toBe("reinstated")
    expect(last?.details).toMatchObject({ origin: "bank", reason_code: "ADDACS-R" })
    expect(r.events.filter((e) => e.action === "reinstated")).toHaveLength(1)
    expect(r.payment.status).toBe("pending_submission")
  })

  it("leaves a live mandate as it is (ignored: nothing to reinstate)", { timeout: 60_000 }, async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate, reference } = yield* activeBacsMandate
      const mandates = yield* Mandates
      const reports = yield* BankReports
      const received = yield* reports.receive(ORG, reportOf("bacs_addacs", { id: "ADDACS-R", scheme: "bacs", originator: BACS_ORIGINATOR, currency: "GBP" }, [
        { kind: "mandate_reinstated", scheme: "bacs", target: { by: "mandate_reference", reference }, code: "R", debtor: ADA, effective_date: unsafeLocalDate("2026-12-01") }
      ]))
      return { status: (yield* mandates.get(ORG, mandate.id)).status, entries: yield* reports.entries(ORG, received.report.id) }
    }))
    expect(r.status).toBe("active")
    expect(r.entries.map((e) => e.outcome)).toEqual(["ignored"])
  })
})

const US = { bank_code: "026009593", account_number: "123456789", account_type: "checking" as const }

/** The items of every NACHA file the bank was handed, read back with the scheme's reader. */
const nachaItems = Effect.gen(function*() {
  const submissions = yield* BankSubmissions
  const made = (yield* submissions.list(ORG, {})).items.filter((s) => s.file_format === "nacha")
  const items: Array<SubmittedItem> = []
  for (const s of made) {
    const reader = schemeFilesFor("ach").submission.reader()
    const got = reader.write(yield* bytesOf((yield* submissions.file(ORG, s.id)).bytes))
    const end = reader.end()
    if (isFileFormatError(got) || isFileFormatError(end)) return yield* Effect.die("a NACHA file does not read")
    items.push(...got, ...end.items)
  }
  return items
})

describe("a NACHA notification of change (COR, Addenda 98)", () => {
  it("replaces the customer bank account's details: its shown ending, and the account the next collection is drawn on", { timeout: 60_000 }, async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { creditor, account, mandate } = yield* setUpPayerIn(ORG, "US", US, { given_name: "Jane", family_name: "Doe" })
      const customers = yield* Customers
      const payments = yield* Payments
      const first = yield* payments.create(ORG, yield* edge.payment({ amount: 2500, currency: "USD", links: { mandate: mandate.id } }))
      const simulator = yield* Simulator
      let day = 1
      for (; day < 20 && (yield* payments.get(ORG, first.id)).status !== "submitted"; day++) yield* simulator.advanceTo(START + day * DAY)
      const submitted = (yield* nachaItems).find((i) => i.target.by === "end_to_end" && i.target.id === first.id)
      if (submitted === undefined) return yield* Effect.die("the collection is in no NACHA file")
      const reports = yield* BankReports
      const noc = yield* reports.receive(ORG, reportOf("nacha_returns", { id: "NOC-1", scheme: "ach", currency: "USD", originator: { creditor: creditor.id, name: "Acme Inc", scheme_identifier: "1234567890", account: { account_holder_name: "Acme Inc", routing_number: "121000358", account_number: "000123456789", account_type: "checking" } } }, [
        { kind: "bank_details_changed", scheme: "ach", target: { by: "end_to_end", id: first.id }, code: "C01", debtor: submitted.debtor, scheme_reference: submitted.scheme_reference ?? "", new_details: { account_number: "987654321" } }
      ]))
      const entries = yield* reports.entries(ORG, noc.report.id)
      const shown = yield* customers.getBankAccount(ORG, account.id)
      const second = yield* payments.create(ORG, yield* edge.payment({ amount: 3500, currency: "USD", links: { mandate: mandate.id } }))
      for (; day < 40 && (yield* payments.get(ORG, second.id)).status === "pending_submission"; day++) yield* simulator.advanceTo(START + day * DAY)
      const next = (yield* nachaItems).find((i) => i.target.by === "end_to_end" && i.target.id === second.id)
      return { entries, shown, before: submitted.debtor, after: next?.debtor, first: (yield* payments.get(ORG, first.id)).status }
    }))
    expect(r.entries.map((e) => [e.kind, e.outcome, e.code, e.links["customer_bank_account"] !== undefined])).toEqual([["bank_details_changed", "applied", "C01", true]])
    expect(r.before.account_number).toBe("123456789")
    expect(r.shown.account_number_ending).toBe("21")
    expect(r.after).toMatchObject({ routing_number: "026009593", account_number: "987654321" })
    // A notification of change moves no collection.
    expect(r.first).not.toBe("failed")
  })
})

/**
 * A SEPA mandate has no instruction of its own in a file (it travels with its first collection),
 * so the sandbox bank is told of it (`ReportRequest.unfiled`) and, for the payer's bank, rejects
 * it the day after in a pain.002 naming the mandate alone, applied as a real bank's.
 */
describe("the sandbox's mandate failures", () => {
  const SCHEMES = [
    { scheme: "bacs", country: "GB", account: { account_number: "55779911", branch_code: "200000" }, format: "bacs_auddis", code: "AUDDIS-L" },
    { scheme: "ach", country: "US", account: US, format: "nacha_returns", code: "R04" },
    { scheme: "sepa_core", country: "DE", account: { iban: "DE89370400440532013000" }, format: "pain.002.001.03", code: "AC01" }
  ] as const

  it.each(SCHEMES)("$scheme: a mandate the sandbox refuses fails through its scheme's own report ($format), applied as a real bank's", { timeout: 60_000 }, async (s) => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayerIn(ORG, s.country, s.account, { given_name: "Mandate", family_name: "Failington" })
      yield* (yield* Simulator).advanceTo(START + 20 * DAY)
      const reports = yield* BankReports
      const listed = (yield* reports.list(ORG, {})).items
      const entries = (yield* Effect.forEach(listed, (report) => Effect.map(reports.entries(ORG, report.id), (rows) => rows.map((row) => ({ format: report.format, source: report.source, row }))))).flat()
      const failed = (yield* (yield* Events).list(ORG, { mandate: mandate.id, resource_type: "mandates", action: "failed" })).items
      return { status: (yield* (yield* Mandates).get(ORG, mandate.id)).status, entries: entries.filter((e) => e.row.links["mandate"] === mandate.id && e.row.kind === "mandate_rejected"), failed }
    }))
    expect(r.status).toBe("failed")
    expect(r.entries.map((e) => [e.format, e.source, e.row.outcome, e.row.reason_code])).toEqual([[s.format, "bank", "applied", s.code]])
    expect(r.failed.map((e) => e.details)).toEqual([expect.objectContaining({ origin: "bank", reason_code: s.code })])
  })
})

/** A mandate's advices over `days` days: cancelled, reinstated, cancelled, ... */
const alternating = (days: number) => Array.from({ length: days }, (_, i) => (i % 2 === 0 ? "mandate_cancelled" : "mandate_reinstated") as ReportEntry["kind"])

/** The ADDACS advice of day `i` (effective on the `i + 1`th of December) about the mandate of `reference`. */
const addacsAdvice = (kinds: ReadonlyArray<ReportEntry["kind"]>, reference: string) => (i: number): Omit<ReportEntry, "format" | "location"> => ({
  kind: kinds[i] ?? "mandate_cancelled",
  scheme: "bacs",
  target: { by: "mandate_reference", reference },
  code: kinds[i] === "mandate_reinstated" ? "R" : "1",
  debtor: ADA,
  effective_date: unsafeLocalDate(`2026-12-${String(i + 1).padStart(2, "0")}`)
})

/**
 * A mandate's life as its bank reports it over days (model): ADDACS cancellations and
 * reinstatements, each on its own effective date, alternating as a bank can only send them; each
 * received in the day's report, some entries sent again in later files (or twice in one), some
 * files received twice. What the model says, not computed by the code under test: every event
 * applies once, in order (a cancellation after a reinstatement is a new event), and a resent
 * entry changes nothing (a duplicate).
 */
describe("ADDACS over a mandate's life (model)", () => {
  it("cancelled, reinstated, cancelled again: each new event applies once, every resent entry is a duplicate", { timeout: 300_000 }, async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 5 }),
      // Per day: earlier entries (positions, taken modulo the days so far) its file carries again after its own.
      fc.array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: 5, maxLength: 5 }),
      fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
      async (days, resends, twice) => {
        const kinds = alternating(days)
        const r = await runEngine(Effect.gen(function*() {
          const { mandate, reference } = yield* activeBacsMandate
          const reports = yield* BankReports
          const entryOf = addacsAdvice(kinds, reference)
          const outcomes: Array<[number, string]> = []
          for (let day = 0; day < days; day++) {
            const again = (resends[day] ?? []).map((p) => p % (day + 1))
            const file = () => reportOf("bacs_addacs", { id: `ADDACS-${day}`, scheme: "bacs", originator: BACS_ORIGINATOR, currency: "GBP" }, [day, ...again].map(entryOf))
            const received = yield* reports.receive(ORG, file())
            if (twice[day] === true) expect((yield* reports.receive(ORG, file())).created).toBe(false)
            for (const [i, row] of (yield* reports.entries(ORG, received.report.id)).entries()) outcomes.push([[day, ...again][i] ?? -1, row.outcome])
          }
          const events = (yield* (yield* Events).list(ORG, { mandate: mandate.id, resource_type: "mandates", limit: 100 })).items.map((e) => e.action).reverse()
          return { status: (yield* (yield* Mandates).get(ORG, mandate.id)).status, outcomes, events }
        }))
        expect(r.status).toBe(days % 2 === 1 ? "cancelled" : "active")
        expect(r.events.filter((a) => a === "cancelled" || a === "reinstated")).toEqual(kinds.map((k) => k === "mandate_cancelled" ? "cancelled" : "reinstated"))
        // Each day's own entry applies; whatever a file carries again is a duplicate.
        const firsts = new Set<number>()
        expect(r.outcomes.map(([i, outcome]) => [i, outcome])).toEqual(r.outcomes.map(([i]) => [i, firsts.has(i) ? "duplicate" : (firsts.add(i), "applied")]))
      }
    ), { numRuns: 15 })
  })
})

/**
 * The same life, its advices crossing in the post (model): the bank's cancellations and
 * reinstatements, alternating by effective date, arrive in any order and grouping of files. What
 * the model says, not computed by the code under test: the mandate ends as the latest-dated
 * advice says (cancelled after a cancellation, live after a reinstatement), and the last of its
 * cancellation and reinstatement events says so too.
 */
describe("ADDACS advices in any order (model)", () => {
  it("the latest effective date decides: a reinstatement arriving after a later cancellation leaves the mandate cancelled", { timeout: 300_000 }, async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 2, max: 5 }),
      // Arrival order: the advices sorted by these keys; a file ends after each arrival marked true.
      fc.array(fc.nat({ max: 100 }), { minLength: 5, maxLength: 5 }),
      fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
      async (days, keys, cuts) => {
        const kinds = alternating(days)
        const arrival = kinds.map((_, i) => i).sort((a, b) => (keys[a] ?? 0) - (keys[b] ?? 0) || a - b)
        const files: Array<Array<number>> = [[]]
        for (const [n, i] of arrival.entries()) {
          files[files.length - 1]?.push(i)
          if (cuts[n] === true && n < arrival.length - 1) files.push([])
        }
        const r = await runEngine(Effect.gen(function*() {
          const { mandate, reference } = yield* activeBacsMandate
          const reports = yield* BankReports
          const entryOf = addacsAdvice(kinds, reference)
          for (const [f, file] of files.entries()) {
            yield* reports.receive(ORG, reportOf("bacs_addacs", { id: `ADDACS-X${f}`, scheme: "bacs", originator: BACS_ORIGINATOR, currency: "GBP" }, file.map(entryOf)))
          }
          const events = (yield* (yield* Events).list(ORG, { mandate: mandate.id, resource_type: "mandates", limit: 100 })).items.map((e) => e.action).reverse()
          return { status: (yield* (yield* Mandates).get(ORG, mandate.id)).status, events }
        }))
        const latest = kinds[kinds.length - 1]
        expect(r.status).toBe(latest === "mandate_cancelled" ? "cancelled" : "active")
        expect(r.events.filter((a) => a === "cancelled" || a === "reinstated").at(-1)).toBe(latest === "mandate_cancelled" ? "cancelled" : "reinstated")
      }
    ), { numRuns: 25 })
  })
})
