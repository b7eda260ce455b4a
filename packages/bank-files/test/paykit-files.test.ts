import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { unsafeLocalDate, type Timestamp } from "@paykit/core"
import {
  detectReportFormat,
  FileFormatError,
  paykitFiles,
  type ReportEntry,
  type ReportHeader,
  type SubmissionHeader,
  type SubmissionItem
} from "../src/index.ts"
import { collectionArb, inChunks, mandateInstructionArb, originator } from "./arbitraries.ts"

const encoder = new TextEncoder()
const created = "2026-11-29T09:00:00.000Z" as Timestamp

const headerFor = (items: ReadonlyArray<SubmissionItem>): SubmissionHeader => ({
  id: "BS000000000001",
  scheme: "becs",
  format: "paykit_submission",
  currency: "AUD",
  processing_date: unsafeLocalDate("2026-12-01"),
  created_at: created,
  originator,
  item_count: items.length,
  total_amount: items.reduce((sum, item) => sum + (item.kind === "collection" ? item.amount : 0), 0)
})

const write = (header: SubmissionHeader, items: ReadonlyArray<SubmissionItem>): string => {
  const writer = paykitFiles.submission.writer(header)
  const end = writer.end
  const body = writer.begin() + items.map(writer.item).join("")
  const tail = end()
  if (tail instanceof FileFormatError) throw new Error(tail.message)
  return body + tail
}

describe("paykit's own submission files", () => {
  it("read back, in chunks cut anywhere, as the items written", () => {
    fc.assert(fc.property(fc.array(fc.oneof(collectionArb, mandateInstructionArb), { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 8 }), (items, cuts) => {
      const bytes = encoder.encode(write(headerFor(items), items))
      const reader = paykitFiles.submission.reader()
      const read = []
      for (const chunk of inChunks(bytes, cuts)) {
        const got = reader.write(chunk)
        if (got instanceof FileFormatError) throw new Error(got.message)
        read.push(...got)
      }
      const end = reader.end()
      if (end instanceof FileFormatError) throw new Error(end.message)
      read.push(...end.items)
      expect(read.map((r) => r.target)).toEqual(items.map((i) => i.kind === "collection" ? { by: "end_to_end", id: i.payment } : { by: "mandate_reference", reference: i.mandate_reference }))
      expect(read.map((r) => r.debtor.account_holder_name)).toEqual(items.map((i) => i.debtor.account_holder_name))
      expect(end.facts.item_count).toBe(items.length)
    }))
  })

  it("carries an account's bank and branch codes where no scheme field names them (a BECS BSB)", () => {
    const debtor = { account_holder_name: "Bruce Wayne", bank_code: "082", branch_code: "082-902", account_number: "123456789" }
    const item: SubmissionItem = {
      kind: "mandate", action: "setup", mandate: "MD000000000001", mandate_reference: "REF-1", signed_on: unsafeLocalDate("2026-12-01"),
      debtor, authorisation_source: "web"
    }
    const reader = paykitFiles.submission.reader()
    const got = reader.write(encoder.encode(write(headerFor([item]), [item])))
    const end = reader.end()
    if (got instanceof FileFormatError || end instanceof FileFormatError) throw new Error("not read")
    expect([...got, ...end.items].map((r) => r.debtor)).toEqual([debtor])
  })

  it("refuses a writer's end when the header promised other totals", () => {
    const writer = paykitFiles.submission.writer({ ...headerFor([]), item_count: 1, total_amount: 100 })
    writer.begin()
    expect(writer.end()).toBeInstanceOf(FileFormatError)
  })

  it("names the line of an item that is not one", () => {
    const text = write(headerFor([]), []) + `{"kind":"collection","payment":"PM1"}\n`
    const reader = paykitFiles.submission.reader()
    const got = reader.write(encoder.encode(text))
    expect(got).toBeInstanceOf(FileFormatError)
    expect((got as FileFormatError).location).toBe("line 2")
  })
})

describe("paykit's own reports", () => {
  const header: ReportHeader = {
    id: "R1",
    scheme: "becs",
    format: "paykit_report",
    created_at: created,
    report_date: unsafeLocalDate("2026-12-01"),
    originator,
    currency: "AUD"
  }
  const entry: ReportEntry = {
    kind: "collection_returned",
    scheme: "becs",
    format: "paykit_report",
    target: { by: "end_to_end", id: "PM000000000001" },
    code: "insufficient_funds",
    amount: 1091,
    currency: "AUD",
    location: "line 2"
  }

  it("read back entry for entry, and are detected by their first line", () => {
    const writer = paykitFiles.reports[0]!.writer(header)
    const text = writer.begin() + writer.entry(entry) + writer.entry({ ...entry, target: { by: "end_to_end", id: "PM000000000002" }, location: "line 3" })
    expect(detectReportFormat(text)).toBe("paykit_report")
    const reader = paykitFiles.reports[0]!.reader()
    const first = reader.write(encoder.encode(text))
    const rest = reader.end()
    expect([...(first as ReadonlyArray<ReportEntry>), ...(rest as ReadonlyArray<ReportEntry>)]).toEqual([entry, { ...entry, target: { by: "end_to_end", id: "PM000000000002" }, location: "line 3" }])
  })

  it("mean the API's causes, and nothing for a code they do not define", () => {
    expect(paykitFiles.meaning("paykit_report", "collection_returned", "insufficient_funds")).toMatchObject({ cause: "insufficient_funds" })
    expect(paykitFiles.meaning("paykit_report", "collection_returned", "no_such_code")).toBeUndefined()
    expect(paykitFiles.meaning("paykit_report", "collection_returned", "constructor")).toBeUndefined()
    expect(paykitFiles.meaning("paykit_report", "mandate_rejected", "insufficient_funds")).toBeUndefined()
  })

  it("refuses an empty file and a file that is not UTF-8", () => {
    expect(paykitFiles.reports[0]!.reader().end()).toBeInstanceOf(FileFormatError)
    const reader = paykitFiles.reports[0]!.reader()
    reader.write(new Uint8Array([0xff, 0xfe, 0x0a]))
    const got = reader.write(new Uint8Array([0xff, 0x0a]))
    expect(got).toBeInstanceOf(FileFormatError)
  })
})
