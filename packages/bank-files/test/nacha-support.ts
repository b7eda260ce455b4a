import { createRequire } from "node:module"
import { unsafeLocalDate, type Timestamp } from "@paykit/core"
import {
  FileFormatError,
  itemSortKey,
  nachaFiles,
  type ReportEntry,
  type ReportHeader,
  type SubmissionHeader,
  type SubmissionItem
} from "../src/index.ts"
import { achOriginator, inChunks } from "./arbitraries.ts"

/** The ACH tests' shared pieces: headers, writing and reading whole files, and the independent parser. */

export const encoder = new TextEncoder()
export const created = "2026-11-30T15:04:00.000Z" as Timestamp

export const achHeaderFor = (items: ReadonlyArray<SubmissionItem>): SubmissionHeader => ({
  id: "BS0000000000AB",
  scheme: "ach",
  format: "nacha",
  currency: "USD",
  processing_date: unsafeLocalDate("2026-12-01"),
  created_at: created,
  originator: achOriginator,
  item_count: items.length,
  total_amount: items.reduce((sum, item) => sum + (item.kind === "collection" ? item.amount : 0), 0)
})

export const sorted = (items: ReadonlyArray<SubmissionItem>): ReadonlyArray<SubmissionItem> =>
  [...items].sort((a, b) => (itemSortKey(a) < itemSortKey(b) ? -1 : itemSortKey(a) > itemSortKey(b) ? 1 : 0))

export const writeSubmission = (items: ReadonlyArray<SubmissionItem>, header = achHeaderFor(items)): string => {
  const writer = nachaFiles.submission.writer(header)
  const body = writer.begin() + items.map(writer.item).join("")
  const tail = writer.end()
  if (tail instanceof FileFormatError) throw new Error(`${tail.location}: ${tail.message}`)
  return body + tail
}

export const reportHeader: ReportHeader = {
  id: "RT0000000000C7",
  scheme: "ach",
  format: "nacha_returns",
  created_at: created,
  report_date: unsafeLocalDate("2026-12-03"),
  originator: achOriginator,
  currency: "USD"
}

export const returns = nachaFiles.reports[0]!

export const writeReport = (entries: ReadonlyArray<ReportEntry>): string => {
  const writer = returns.writer(reportHeader)
  const body = writer.begin() + entries.map(writer.entry).join("")
  const tail = writer.end()
  if (tail instanceof FileFormatError) throw new Error(`${tail.location}: ${tail.message}`)
  return body + tail
}

/** Feeds `text` to a reader in chunks cut at `cuts`, and answers everything it read or the first error. */
export const readAll = <T>(
  reader: { readonly write: (chunk: Uint8Array) => ReadonlyArray<T> | FileFormatError; readonly end: () => ReadonlyArray<T> | FileFormatError },
  text: string | Uint8Array,
  cuts: ReadonlyArray<number> = []
): ReadonlyArray<T> | FileFormatError => {
  const read: Array<T> = []
  for (const chunk of inChunks(typeof text === "string" ? encoder.encode(text) : text, cuts)) {
    const got = reader.write(chunk)
    if (got instanceof FileFormatError) return got
    read.push(...got)
  }
  const end = reader.end()
  if (end instanceof FileFormatError) return end
  return [...read, ...end]
}

/** A record spelled out field by field, as a bank's file holds it: checked to be 94 characters. */
export const line = (...fields: ReadonlyArray<string>): string => {
  const text = fields.join("")
  if (text.length !== 94) throw new Error(`a hand-written record of ${text.length} characters: ${text}`)
  return text
}

export const PADDING = "9".repeat(94)

// ---------------------------------------------------------------------------------------------
// The independent reader: @midlandsbank/node-nacha, a NACHA parser and formatter the project did not write

interface ParsedEntry {
  readonly transactionCode: string
  readonly receivingDFIIdentification: number
  readonly checkDigit: number
  readonly dfiAccount: string
  readonly amount: number
  readonly identificationNumber: string
  readonly receivingCompanyName: string
  readonly paymentTypeCode?: string
  readonly discretionaryData?: string
  readonly addendaIndicator: string
  readonly traceNumber: number
  readonly addenda?: { readonly type: string; readonly info: string; readonly num: number; readonly entryNum: number }
}

interface ParsedFooter {
  readonly serviceClassCode: number
  readonly entryAndAddendaCount: number
  readonly entryHash: number
  readonly totalDebit: number
  readonly totalCredit: number
  readonly companyId: string
}

export interface ParsedBatch {
  readonly serviceClassCode: number
  readonly companyName: string
  readonly discretionaryData: string
  readonly companyId: string
  readonly entryClassCode: string
  readonly effectiveDate: string
  readonly originatingDFIIdentification: string
  readonly num: number
  readonly entries: ReadonlyArray<ParsedEntry>
  readonly footer: ParsedFooter
}

export interface ParsedFile {
  readonly file: {
    readonly destination: string
    readonly origin: string
    readonly creationDate: string
    readonly idModifier: string
    readonly recordSize: string
    readonly blockingFactor: string
    readonly footer: {
      readonly batchCount: number
      readonly blockCount: number
      readonly entryAndAddendaCount: number
      readonly entryHash: number
      readonly totalDebit: number
      readonly totalCredit: number
    }
  }
  readonly batches: ReadonlyArray<ParsedBatch>
}

interface NodeNacha {
  readonly from: (source: string) => { readonly data: ParsedFile; readonly to: (format: string) => string }
}

const require = createRequire(import.meta.url)
export const nodeNacha = require("@midlandsbank/node-nacha") as NodeNacha
/** Its own computation of a file's control records from the batches it parsed. */
export const nodeNachaCalculate = require("@midlandsbank/node-nacha/lib/api/calculate") as (options: { readonly ach: ParsedFile }) => {
  readonly footer: ParsedFile["file"]["footer"] & { readonly lineCount: number }
  readonly batchFooters: ReadonlyArray<ParsedFooter>
}
const nodeNachaFormats = require("@midlandsbank/node-nacha/lib/transforms/formats") as Record<string, unknown>
// node-nacha knows the CCD/PPD/WEB/CTX layouts only. A COR entry detail is laid out as a PPD one;
// its Addenda 98's fields inside the 80 characters node-nacha reads as "info" are checked by the test.
nodeNachaFormats["COR"] ??= nodeNachaFormats["PPD"]
