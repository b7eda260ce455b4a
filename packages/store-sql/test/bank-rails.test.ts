import { OrganisationId, type Timestamp, unsafeLocalDate } from "@paykit/core"
import { Effect, Layer, Stream } from "effect"
import { TestClock } from "effect/testing"
import { isFileFormatError, paykitFiles, schemeFilesFor } from "@paykit/bank-files"
import { BankReports, BankSubmissions, Creditors, Customers, decodeCommand, Mandates, PaymentCreateRequest, Payments, sandboxEngineOn, Simulator } from "@paykit/engine"
import { setUpPayer } from "@paykit/engine/testing"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"

/**
 * The bank's records on SQL: submissions, their queued items and files, reports and their
 * entries, stored and read back; the files' bytes and the items' payer details sealed at rest
 * (no account number in any row), a file read back exact, a report received twice one report.
 */

const ORG = OrganisationId("OR0000000000BR")
const START = Date.UTC(2026, 10, 23, 9, 0, 0)
const DAY = 86_400_000
const ACCOUNT_NUMBER = "55779911"

const bytesOf = <E>(stream: Stream.Stream<Uint8Array, E>) => Effect.map(Stream.runCollect(stream), (chunks) => Buffer.concat(chunks.map((c) => Buffer.from(c))))

/** A report of `n` entries in paykit's own format, naming payments no organisation has: larger than a stored chunk. */
const bigReport = (n: number, id = "BIG"): Uint8Array => {
  const report = paykitFiles.reports[0]
  if (report === undefined) throw new Error("no paykit report")
  const writer = report.writer({
    id, scheme: "bacs", format: "paykit_report", created_at: "2026-12-01T06:00:00.000Z" as Timestamp, report_date: unsafeLocalDate("2026-12-01"),
    originator: { creditor: "CR000000000001", name: "Acme", scheme_identifier: "999999", account: { account_holder_name: "Acme" } }, currency: "GBP"
  })
  const entries = Array.from({ length: n }, (_, i) => writer.entry({ kind: "collection_returned", scheme: "bacs", format: "paykit_report", target: { by: "end_to_end", id: `PM${String(i).padStart(12, "0")}` }, code: "insufficient_funds", location: "" }))
  const end = writer.end()
  if (isFileFormatError(end)) throw new Error(end.message)
  return new TextEncoder().encode(writer.begin() + entries.join("") + end)
}

/** The organisation's stored chunks of bank files. */
const chunks = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(sql<{ n: string }>`SELECT count(*) AS n FROM resources WHERE organisation_id = ${ORG} AND resource_type = 'bank_file_chunks'`, (rows) => Number(rows[0]?.n)))

describe.each(DATABASES)("the bank's records on $name", (database) => {
  // One layer value, so the engine and the test's statements share one database (layers are memoised).
  const storage = SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
  it("keeps submissions, items, files, reports and entries, sealed, and reads them back", { timeout: 180_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        yield* TestClock.setTime(START)
        const payer = yield* setUpPayer(ORG, { verifyCreditor: true })
        const payments = yield* Payments
        const body = decodeCommand(PaymentCreateRequest, "payments")
        const returned = yield* payments.create(ORG, yield* body({ amount: 2591, currency: "GBP", links: { mandate: payer.mandate.id } }))
        const collected = yield* payments.create(ORG, yield* body({ amount: 2500, currency: "GBP", links: { mandate: payer.mandate.id } }))
        yield* (yield* Simulator).advanceTo(START + 14 * DAY)

        expect((yield* payments.get(ORG, returned.id)).status).toBe("failed")
        expect((yield* payments.get(ORG, collected.id)).status).toBe("paid_out")
        const submissions = yield* BankSubmissions
        const made = (yield* submissions.list(ORG, {})).items
        expect(made.map((s) => [s.file_format, s.item_count, s.total_amount])).toEqual([["bacs_standard18", 2, 5091], ["bacs_standard18", 1, 0]])
        // The file as written: its SHA-256 and size are those of the bytes read back, and it reads as Standard 18.
        const file = yield* submissions.file(ORG, made[0]?.id ?? "")
        const bytes = yield* bytesOf(file.bytes)
        expect(bytes.length).toBe(made[0]?.file_size)
        const reader = schemeFilesFor("bacs").submission.reader()
        const items = reader.write(bytes)
        const end = reader.end()
        expect(Array.isArray(items) && !("_tag" in end) ? [...items, ...end.items].map((i) => i.amount).sort() : []).toEqual([2500, 2591])

        const reports = yield* BankReports
        const [report] = (yield* reports.list(ORG, {})).items
        if (report === undefined) return yield* Effect.die("no report")
        expect(report).toMatchObject({ format: "bacs_arudd", entry_count: 1, matched_count: 1 })
        expect((yield* reports.entries(ORG, report.id)).map((e) => [e.outcome, e.links["payment"]])).toEqual([["applied", returned.id]])
        const received = yield* bytesOf((yield* reports.file(ORG, report.id)).bytes)
        const again = yield* reports.receive(ORG, { bytes: Stream.make(received) })
        expect(again).toEqual({ report, created: false })

        // At rest: the files and the items' snapshots are sealed, so no row holds the payer's account number.
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ resource_type: string; n: string }>`SELECT resource_type, count(*) AS n FROM resources
          WHERE organisation_id = ${ORG} AND resource_type IN ('bank_submissions', 'bank_items', 'bank_batches', 'bank_file_chunks', 'bank_reports', 'bank_report_entries')
          GROUP BY resource_type ORDER BY resource_type`
        expect(rows.map((row) => row.resource_type)).toEqual(["bank_batches", "bank_file_chunks", "bank_items", "bank_report_entries", "bank_reports", "bank_submissions"])
        const plain = yield* sql<{ n: string }>`SELECT count(*) AS n FROM resources WHERE organisation_id = ${ORG}
          AND resource_type IN ('bank_items', 'bank_file_chunks') AND data::text LIKE ${`%${ACCOUNT_NUMBER}%`}`
        expect(Number(plain[0]?.n)).toBe(0)
        expect(bytes.toString("latin1")).toContain(ACCOUNT_NUMBER)
      }),
      Layer.mergeAll(sandboxEngineOn(storage, { seed: 42 }), TestClock.layer()).pipe(Layer.provideMerge(storage))
    )))

  it("leaves no stored chunk of a report refused (422: it does not read to its end) or received again (the same bytes)", { timeout: 180_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        yield* TestClock.setTime(START)
        const reports = yield* BankReports
        const bytes = bigReport(1000)
        expect(bytes.length).toBeGreaterThan(64 * 1024)
        const refused = yield* Effect.flip(reports.receive(ORG, { bytes: Stream.make(bytes.subarray(0, bytes.length - 20)) }))
        expect(refused._tag).toBe("ReportRefused")
        expect(yield* chunks).toBe(0)
        const first = yield* reports.receive(ORG, { bytes: Stream.make(bytes) })
        expect(first.report).toMatchObject({ entry_count: 1000, unmatched_count: 1000 })
        const stored = yield* chunks
        expect(stored).toBe(Math.ceil(bytes.length / (64 * 1024)))
        const again = yield* reports.receive(ORG, { bytes: Stream.make(bytes) })
        expect(again).toEqual({ report: first.report, created: false })
        expect(yield* chunks).toBe(stored)
        expect(Buffer.compare(yield* bytesOf((yield* reports.file(ORG, first.report.id)).bytes), Buffer.from(bytes))).toBe(0)
      }),
      Layer.mergeAll(sandboxEngineOn(storage, { seed: 42 }), TestClock.layer()).pipe(Layer.provideMerge(storage))
    )))

  it("completes a report's stored bytes when its receipt was cut off while storing them, or its bytes changed under it: no second copy, the file read back exact", { timeout: 180_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        yield* TestClock.setTime(START)
        const reports = yield* BankReports
        const bytes = bigReport(3000)
        const CHUNK = 64 * 1024
        const whole = Math.ceil(bytes.length / CHUNK)
        expect(whole).toBeGreaterThan(3)
        // Checked whole (the first read), then cut off after three chunks while being stored (the second).
        let reads = 0
        const cut = Stream.suspend(() => reads++ === 0 ? Stream.make(bytes) : Stream.concat(Stream.make(bytes.subarray(0, 3 * CHUNK)), Stream.fail(new Error("connection reset"))))
        const failed = yield* Effect.flip(reports.receive(ORG, { bytes: cut }))
        expect(failed).toEqual(new Error("connection reset"))
        expect(yield* chunks).toBe(3)
        expect((yield* reports.list(ORG, {})).items).toEqual([])
        // Read again, its second chunk differs from what was checked: refused, and what it stored is replaced by the next receipt.
        const altered = Uint8Array.from(bytes)
        altered[CHUNK + 10] = (altered[CHUNK + 10] ?? 0) ^ 1
        let again = 0
        const changing = Stream.suspend(() => Stream.make(again++ === 0 ? bytes : altered))
        expect((yield* Effect.flip(reports.receive(ORG, { bytes: changing })))._tag).toBe("ReportRefused")
        const received = yield* reports.receive(ORG, { bytes: Stream.make(bytes) })
        expect(received.report).toMatchObject({ entry_count: 3000, unmatched_count: 3000 })
        expect(yield* chunks).toBe(whole)
        expect(Buffer.compare(yield* bytesOf((yield* reports.file(ORG, received.report.id)).bytes), Buffer.from(bytes))).toBe(0)
      }),
      Layer.mergeAll(sandboxEngineOn(storage, { seed: 42 }), TestClock.layer()).pipe(Layer.provideMerge(storage))
    )))

  it("keeps the bank's notes apart from the report's record, which every page rewrites: its row is as small with 1,000 notes as with none", { timeout: 180_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        yield* TestClock.setTime(START)
        const sql = yield* SqlClient.SqlClient
        const recordSize = (id: string) => Effect.map(sql<{ n: number }>`SELECT octet_length(data::text) AS n FROM resources WHERE organisation_id = ${ORG} AND id = ${id}`, (rows) => Number(rows[0]?.n))
        const reports = yield* BankReports
        const n = 1000
        const bare = yield* reports.receive(ORG, { bytes: Stream.make(bigReport(n)) })
        const notes = Array.from({ length: n }, (_, i) => i % 3 === 2 ? null : `the bank's note on entry ${i}, which a test value chose`)
        const noted = yield* reports.receive(ORG, { bytes: Stream.make(bigReport(n, "NOTED")), name: "noted", notes })
        expect(yield* recordSize(noted.report.id)).toBeLessThan((yield* recordSize(bare.report.id)) + 64)
        const shown = [...(yield* reports.entries(ORG, noted.report.id)), ...(yield* reports.entries(ORG, noted.report.id, { after: 499 }))]
        expect(shown.map((e) => e.note)).toEqual(notes)
      }),
      Layer.mergeAll(sandboxEngineOn(storage, { seed: 42 }), TestClock.layer()).pipe(Layer.provideMerge(storage))
    )))

  it("tells the sandbox bank of a day's SEPA mandate setups no file carries: `mandate fail` fails the mandate through a pain.002 the day after", { timeout: 180_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        yield* TestClock.setTime(START)
        const creditor = yield* (yield* Creditors).create(ORG, { name: "Acme", country_code: "DE", creditor_type: "company" })
        const customers = yield* Customers
        const mandateOf = (given_name: string, family_name: string) =>
          Effect.gen(function*() {
            const customer = yield* customers.create(ORG, { given_name, family_name, country_code: "DE" })
            const account = yield* customers.createBankAccount(ORG, { account_holder_name: `${given_name} ${family_name}`, country_code: "DE", iban: "DE89370400440532013000", links: { customer: customer.id } })
            return yield* (yield* Mandates).create(ORG, { links: { customer_bank_account: account.id, creditor: creditor.id } })
          })
        const refused = yield* mandateOf("Mandate", "Failington")
        const kept = yield* mandateOf("Erika", "Mustermann")
        yield* (yield* Simulator).advanceTo(START + 4 * DAY)
        const mandates = yield* Mandates
        expect([(yield* mandates.get(ORG, refused.id)).status, (yield* mandates.get(ORG, kept.id)).status]).toEqual(["failed", "active"])
        const reports = yield* BankReports
        const listed = (yield* reports.list(ORG, {})).items
        expect(listed.map((r) => [r.format, r.source, r.matched_count])).toEqual([["pain.002.001.03", "bank", 1]])
        expect((yield* reports.entries(ORG, listed[0]?.id ?? "")).map((e) => [e.kind, e.outcome, e.reason_code, e.links["mandate"]])).toEqual([["mandate_rejected", "applied", "AC01", refused.id]])
        // No pain.008 was made: the setups went with no file.
        expect((yield* (yield* BankSubmissions).list(ORG, {})).items).toEqual([])
      }),
      Layer.mergeAll(sandboxEngineOn(storage, { seed: 42 }), TestClock.layer()).pipe(Layer.provideMerge(storage))
    )))
})
