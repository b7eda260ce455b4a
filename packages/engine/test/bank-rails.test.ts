import { Effect, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { isFileFormatError, paykitFiles, type ReportEntry, schemeFilesFor, type SubmittedItem } from "@paykit/bank-files"
import { type Timestamp, unsafeLocalDate, type OrganisationId } from "@paykit/core"
import { BankReports, BankSubmissions, Creditors, Customers, Events, Mandates, Payments, Simulator } from "@paykit/engine"
import { edge, ORG, OTHER_ORG, runEngine, setUpPayer, setUpPayerIn, START } from "./fixtures.ts"

const DAY = 86_400_000
const encoder = new TextEncoder()

const bytesOf = <E>(stream: Stream.Stream<Uint8Array, E>) =>
  Effect.map(Stream.runCollect(stream), (chunks) => Buffer.concat(chunks.map((c) => Buffer.from(c))))

/** A Bacs submission file read back with the scheme's reader, as the sandbox bank reads it. */
const readSubmission = (bytes: Uint8Array): ReadonlyArray<SubmittedItem> => {
  const reader = schemeFilesFor("bacs").submission.reader()
  const got = reader.write(bytes)
  const end = reader.end()
  if (isFileFormatError(got) || isFileFormatError(end)) throw new Error("the submission does not read")
  return [...got, ...end.items]
}

/** A report as a bank would post it: paykit's own format, one line per entry. */
const reportOf = (id: string, entries: ReadonlyArray<Omit<ReportEntry, "scheme" | "format" | "location">>): Uint8Array => {
  const writer = paykitFiles.reports[0]?.writer({
    id,
    scheme: "bacs",
    format: "paykit_report",
    created_at: "2026-12-01T06:00:00.000Z" as Timestamp,
    report_date: unsafeLocalDate("2026-12-01"),
    originator: { creditor: "CR000000000001", name: "Acme", scheme_identifier: "999999", account: { account_holder_name: "Acme" } },
    currency: "GBP"
  })
  if (writer === undefined) throw new Error("no report writer")
  const end = writer.end()
  if (isFileFormatError(end)) throw new Error(end.message)
  return encoder.encode(writer.begin() + entries.map((e) => writer.entry({ ...e, scheme: "bacs", format: "paykit_report", location: "" })).join("") + end)
}

const posted = (bytes: Uint8Array) => ({ bytes: Stream.make(bytes.subarray(0, 7), bytes.subarray(7)) })

describe("the bank port: submissions out", () => {
  it("hands each day's mandate instructions and collections to the bank as one file per creditor and scheme, acknowledged", { timeout: 30_000 }, async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const payment = yield* (yield* Payments).create(ORG, yield* edge.payment({ amount: 2500, currency: "GBP", description: "Gym", links: { mandate: mandate.id } }))
      yield* (yield* Simulator).advanceTo(START + 7 * DAY)
      const submissions = yield* BankSubmissions
      const made = (yield* submissions.list(ORG, {})).items
      const files = yield* Effect.forEach(made, (s) => Effect.flatMap(submissions.file(ORG, s.id), (f) => Effect.map(bytesOf(f.bytes), (bytes) => ({ f, bytes }))))
      return { mandate, payment: yield* (yield* Payments).get(ORG, payment.id), made, files }
    }))
    // Newest first: the collection's submission, then the mandate's.
    expect(r.made.map((s) => [s.scheme, s.file_format, s.item_count, s.total_amount])).toEqual([["bacs", "bacs_standard18", 1, 2500], ["bacs", "bacs_standard18", 1, 0]])
    expect(r.made.every((s) => s.acknowledged_at !== null && s.bank_reference === `SANDBOX-${s.id}`)).toBe(true)
    const [collection, setup] = r.files
    expect(readSubmission(setup?.bytes ?? new Uint8Array()).map((i) => [i.kind, i.action, i.mandate_reference, i.debtor.sort_code, i.debtor.account_number])).toEqual([
      ["mandate", "setup", r.mandate.reference, "200000", "55779911"]
    ])
    expect(readSubmission(collection?.bytes ?? new Uint8Array()).map((i) => [i.kind, i.mandate_reference, i.amount])).toEqual([
      ["collection", r.mandate.reference, 2500]
    ])
    expect(collection?.f.file_name).toBe(`${r.made[0]?.id}.${schemeFilesFor("bacs").submission.extension}`)
    expect(r.made[0]?.processing_date).toBe(r.payment.charge_date)
    // Confirmed on its charge date: no return came (paid out once the creditor is verified).
    expect(r.payment.status).toBe("confirmed")
  })
})

describe("the bank port: reports in", () => {
  it("lists the sandbox bank's reports with their files and entries, applied as a real bank's would be", { timeout: 30_000 }, async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const payment = yield* (yield* Payments).create(ORG, yield* edge.payment({ amount: 1091, currency: "GBP", links: { mandate: mandate.id } }))
      yield* (yield* Simulator).advanceTo(START + 7 * DAY)
      const reports = yield* BankReports
      const [report] = (yield* reports.list(ORG, {})).items
      if (report === undefined) return yield* Effect.die("no report")
      const entries = yield* reports.entries(ORG, report.id)
      const file = yield* reports.file(ORG, report.id)
      const failed = (yield* (yield* Events).list(ORG, { payment: payment.id, action: "failed" })).items
      return { payment: yield* (yield* Payments).get(ORG, payment.id), report, entries, text: (yield* bytesOf(file.bytes)).toString("utf8"), failed }
    }))
    expect(r.payment.status).toBe("failed")
    expect(r.report).toMatchObject({ format: "bacs_arudd", source: "bank", entry_count: 1, matched_count: 1, unmatched_count: 0, applied_through: 1 })
    expect(r.entries.map((e) => [e.outcome, e.code, e.reason_code, e.links["payment"], e.note])).toEqual([
      ["applied", "0", "ARUDD-0", r.payment.id, "sandbox test value: amount ending in 91"]
    ])
    expect(r.text).toContain("<ARUDD")
    expect(r.failed.map((e) => e.details)).toEqual([expect.objectContaining({
      origin: "bank",
      cause: "insufficient_funds",
      reason_code: "ARUDD-0",
      description: "The customer's account had insufficient funds to make this payment. (sandbox test value: amount ending in 91)"
    })])
  })

  it("applies a posted report once: the same bytes again answer the same report; a malformed report, another organisation's payment and a different amount apply nothing", { timeout: 30_000 }, async () => {
    const r = await runEngine(Effect.gen(function*() {
      const simulator = yield* Simulator
      const payments = yield* Payments
      const { mandate } = yield* setUpPayer(ORG)
      const { mandate: theirs } = yield* setUpPayer(OTHER_ORG)
      const mine = yield* payments.create(ORG, yield* edge.payment({ amount: 1000, currency: "GBP", links: { mandate: mandate.id } }))
      const other = yield* payments.create(ORG, yield* edge.payment({ amount: 1500, currency: "GBP", links: { mandate: mandate.id } }))
      const foreign = yield* payments.create(OTHER_ORG, yield* edge.payment({ amount: 1000, currency: "GBP", links: { mandate: theirs.id } }))
      // Submitted, not yet settled (the charge date is the Monday after).
      yield* simulator.advanceTo(START + 5 * DAY)
      const reports = yield* BankReports
      const bytes = reportOf("R1", [
        { kind: "collection_returned", target: { by: "end_to_end", id: mine.id }, code: "refer_to_payer", amount: 1000 },
        { kind: "collection_returned", target: { by: "end_to_end", id: other.id }, code: "insufficient_funds", amount: 1499 },
        { kind: "collection_returned", target: { by: "end_to_end", id: foreign.id }, code: "insufficient_funds", amount: 1000 }
      ])
      const first = yield* reports.receive(ORG, posted(bytes))
      const again = yield* reports.receive(ORG, posted(bytes))
      const broken = yield* Effect.flip(reports.receive(ORG, posted(encoder.encode(new TextDecoder().decode(bytes).replace("refer_to_payer\",\"amount\":1000", "refer_to_payer\",\"amount\":\"x\"")))))
      const entries = yield* reports.entries(ORG, first.report.id)
      yield* simulator.advanceTo(START + 9 * DAY)
      const statusOf = (o: OrganisationId, id: string) => Effect.map(Payments.use((p) => p.get(o, id)), (p) => p.status)
      return {
        first, again, broken, entries,
        statuses: [yield* statusOf(ORG, mine.id), yield* statusOf(ORG, other.id), yield* statusOf(OTHER_ORG, foreign.id)],
        listed: (yield* reports.list(ORG, {})).items.filter((x) => x.source === "posted").length
      }
    }))
    expect(r.first.created).toBe(true)
    expect(r.first.report).toMatchObject({ entry_count: 3, matched_count: 1, unmatched_count: 1, mismatched_count: 1, duplicate_count: 0 })
    expect(r.again).toEqual({ report: r.first.report, created: false })
    expect(r.broken).toMatchObject({ _tag: "ReportRefused", location: "line 2" })
    expect(r.entries.map((e) => e.outcome)).toEqual(["applied", "amount_mismatch", "unmatched"])
    expect(r.entries[0]).toMatchObject({ cause: "refer_to_payer", reason_code: "refer_to_payer" })
    // The return failed the payment before it settled; the mismatched one and the other organisation's were collected.
    expect(r.statuses).toEqual(["failed", "confirmed", "confirmed"])
    expect(r.listed).toBe(1)
  })
})

describe("a report's bytes, read twice (checked, then stored)", () => {
  it("are refused when the second read gives other bytes than the first: nothing is recorded or applied", { timeout: 30_000 }, async () => {
    const r = await runEngine(Effect.gen(function*() {
      const first = reportOf("ONE", [{ kind: "collection_returned", target: { by: "end_to_end", id: "PM000000000001" }, code: "insufficient_funds" }])
      const second = reportOf("TWO", [{ kind: "collection_returned", target: { by: "end_to_end", id: "PM000000000002" }, code: "insufficient_funds" }])
      let reads = 0
      const changing = Stream.suspend(() => Stream.make((reads++ === 0 ? first : second)))
      const reports = yield* BankReports
      const refused = yield* Effect.flip(reports.receive(ORG, { bytes: changing }))
      return { refused, reads, listed: (yield* reports.list(ORG, {})).items }
    }))
    expect(r.refused).toMatchObject({ _tag: "ReportRefused", location: "file" })
    expect(r.reads).toBe(2)
    expect(r.listed).toEqual([])
  })
})

describe("the sandbox bank in each scheme's own files", () => {
  const SCHEMES = [
    { scheme: "sepa_core", country: "DE", currency: "EUR", account: { iban: "DE89370400440532013000" }, formats: ["pain.008.001.02", "pain.002.001.03", "camt.054.001.02"], codes: ["AM04", "MD01"] },
    { scheme: "ach", country: "US", currency: "USD", account: { bank_code: "026009593", account_number: "123456789", account_type: "checking" as const }, formats: ["nacha", "nacha_returns", "nacha_returns"], codes: ["R01", "R10"] },
    { scheme: "becs", country: "AU", currency: "AUD", account: { branch_code: "082-902", account_number: "123456789" }, formats: ["paykit_submission", "paykit_report", "paykit_report"], codes: ["insufficient_funds", "authorisation_disputed"] }
  ] as const

  it.each(SCHEMES)("$scheme: a return and a chargeback reported in its formats, with its codes, on the sandbox's timetable", { timeout: 60_000 }, async (s) => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayerIn(ORG, s.country, s.account)
      const payments = yield* Payments
      const returned = yield* payments.create(ORG, yield* edge.payment({ amount: 1091, currency: s.currency, links: { mandate: mandate.id } }))
      const disputed = yield* payments.create(ORG, yield* edge.payment({ amount: 1093, currency: s.currency, links: { mandate: mandate.id } }))
      yield* (yield* Simulator).advanceTo(START + 30 * DAY)
      const reports = yield* BankReports
      const listed = (yield* reports.list(ORG, {})).items
      const entries = (yield* Effect.forEach(listed, (report) => reports.entries(ORG, report.id))).flat()
      const submitted = (yield* (yield* BankSubmissions).list(ORG, {})).items.map((x) => x.file_format)
      const eventOf = (id: string, action: string) => Effect.map(Events.use((e) => e.list(ORG, { payment: id, action })), (page) => page.items[0]?.details)
      return {
        submitted, formats: listed.map((x) => x.format).sort(), codes: entries.map((e) => e.code).sort(),
        returned: yield* payments.get(ORG, returned.id), disputed: yield* payments.get(ORG, disputed.id),
        failedEvent: yield* eventOf(returned.id, "failed"), chargedBack: yield* eventOf(disputed.id, "charged_back")
      }
    }))
    expect(new Set(r.submitted)).toEqual(new Set([s.formats[0]]))
    expect(new Set(r.formats)).toEqual(new Set([s.formats[1], s.formats[2]]))
    expect(r.codes).toEqual([...s.codes].sort())
    expect([r.returned.status, r.disputed.status]).toEqual(["failed", "charged_back"])
    expect(r.failedEvent).toMatchObject({ origin: "bank", cause: "insufficient_funds", description: "The customer's account had insufficient funds to make this payment. (sandbox test value: amount ending in 91)" })
    expect(r.chargedBack).toMatchObject({ origin: "bank", cause: "authorisation_disputed", description: "The customer has disputed having authorised you to take this payment. (sandbox test value: amount ending in 93)" })
  })
})

describe("a report refusing a whole submission", () => {
  it("fails each item of it (SEPA pain.002 group status), once however often it is received", { timeout: 60_000 }, async () => {
    const r = await runEngine(Effect.gen(function*() {
      const creditor = yield* (yield* Creditors).create(ORG, { name: "Acme DE", country_code: "DE", creditor_type: "company" })
      const customers = yield* Customers
      const customer = yield* customers.create(ORG, { given_name: "Erika", family_name: "Mustermann", country_code: "DE" })
      const account = yield* customers.createBankAccount(ORG, { account_holder_name: "Erika Mustermann", iban: "DE89370400440532013000", links: { customer: customer.id } })
      const mandate = yield* (yield* Mandates).create(ORG, { links: { customer_bank_account: account.id, creditor: creditor.id } })
      const payments = yield* Payments
      const first = yield* payments.create(ORG, yield* edge.payment({ amount: 1000, currency: "EUR", links: { mandate: mandate.id } }))
      const second = yield* payments.create(ORG, yield* edge.payment({ amount: 2000, currency: "EUR", links: { mandate: mandate.id } }))
      const simulator = yield* Simulator
      // Until the two are submitted together, not yet charged.
      let submission = ""
      for (let day = 1; submission === "" && day < 20; day++) {
        yield* simulator.advanceTo(START + day * DAY)
        submission = (yield* (yield* BankSubmissions).list(ORG, {})).items.find((s) => s.total_amount === 3000)?.id ?? ""
      }
      const pain002 = schemeFilesFor("sepa_core").reports.find((x) => x.format === "pain.002.001.03")
      if (pain002 === undefined) return yield* Effect.die("no pain.002")
      const writer = pain002.writer({
        id: "REJECT-1", scheme: "sepa_core", format: "pain.002.001.03", created_at: "2026-12-01T06:00:00.000Z" as Timestamp,
        report_date: unsafeLocalDate("2026-12-01"), originator: { creditor: creditor.id, name: "Acme DE", scheme_identifier: "DE98ZZZ09999999999", account: { account_holder_name: "Acme DE" } }, currency: "EUR"
      })
      const body = writer.begin() + writer.entry({ kind: "collection_returned", scheme: "sepa_core", format: "pain.002.001.03", target: { by: "submission", id: submission }, code: "AM04", location: "" })
      const end = writer.end()
      if (isFileFormatError(end)) return yield* Effect.die(end.message)
      const reports = yield* BankReports
      const received = yield* reports.receive(ORG, { bytes: Stream.make(encoder.encode(body + end)) })
      const again = yield* reports.receive(ORG, { bytes: Stream.make(encoder.encode(body + end)) })
      const entries = yield* reports.entries(ORG, received.report.id)
      return {
        submission, received, again: again.created, entries,
        statuses: [(yield* payments.get(ORG, first.id)).status, (yield* payments.get(ORG, second.id)).status]
      }
    }))
    expect(r.submission).not.toBe("")
    expect(r.statuses).toEqual(["failed", "failed"])
    expect(r.again).toBe(false)
    expect(r.received.report).toMatchObject({ entry_count: 1, matched_count: 1, applied_through: 1 })
    expect(r.entries.map((e) => [e.outcome, e.reason_code, e.links["payment"] === undefined])).toEqual([
      ["applied", null, true], ["applied", "AM04", false], ["applied", "AM04", false]
    ])
  })
})
