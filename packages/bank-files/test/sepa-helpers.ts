import { unsafeLocalDate, type Timestamp } from "@paykit/core"
import {
  FileFormatError,
  itemSortKey,
  type ReportEntry,
  type ReportHeader,
  type ReportReader,
  type ReportWriter,
  sepaFiles,
  type SubmissionFacts,
  type SubmissionHeader,
  type SubmissionItem,
  type SubmittedItem
} from "../src/index.ts"
import { inChunks, sepaOriginator } from "./arbitraries.ts"

/** Writing and reading SEPA files in tests: whole files from the incremental writers, chunks into the readers. */

export const encoder = new TextEncoder()
export const created = "2026-11-29T09:00:00.000Z" as Timestamp

export const sepaHeaderFor = (items: ReadonlyArray<SubmissionItem>): SubmissionHeader => ({
  id: "BS000000000001",
  scheme: "sepa_core",
  format: "pain.008.001.02",
  currency: "EUR",
  processing_date: unsafeLocalDate("2026-12-01"),
  created_at: created,
  originator: sepaOriginator,
  item_count: items.length,
  total_amount: items.reduce((sum, item) => sum + (item.kind === "collection" ? item.amount : 0), 0)
})

/** The items in the order a writer is handed them. */
export const sorted = <T extends SubmissionItem>(items: ReadonlyArray<T>): ReadonlyArray<T> =>
  [...items].sort((a, b) => (itemSortKey(a) < itemSortKey(b) ? -1 : 1))

/** The whole pain.008 of `items`, or the writer's error. */
export const writePain008 = (header: SubmissionHeader, items: ReadonlyArray<SubmissionItem>): string | FileFormatError => {
  const writer = sepaFiles.submission.writer(header)
  let text = writer.begin()
  for (const item of items) text += writer.item(item)
  const end = writer.end()
  return end instanceof FileFormatError ? end : text + end
}

export const mustWrite = (got: string | FileFormatError): string => {
  if (got instanceof FileFormatError) throw new Error(`${got.location}: ${got.message}`)
  return got
}

/** What a submission reader answers for `text` fed in chunks cut at `cuts`. */
export const readPain008 = (text: string | Uint8Array, cuts: ReadonlyArray<number> = []):
  { readonly items: ReadonlyArray<SubmittedItem>; readonly facts: SubmissionFacts } | FileFormatError => {
  const reader = sepaFiles.submission.reader()
  const items: Array<SubmittedItem> = []
  for (const chunk of inChunks(typeof text === "string" ? encoder.encode(text) : text, cuts)) {
    const got = reader.write(chunk)
    if (got instanceof FileFormatError) return got
    items.push(...got)
  }
  const end = reader.end()
  return end instanceof FileFormatError ? end : { items: [...items, ...end.items], facts: end.facts }
}

/** What `reader` answers for `text` fed in chunks cut at `cuts`. */
export const readReport = (reader: ReportReader, text: string | Uint8Array, cuts: ReadonlyArray<number> = []): ReadonlyArray<ReportEntry> | FileFormatError => {
  const entries: Array<ReportEntry> = []
  for (const chunk of inChunks(typeof text === "string" ? encoder.encode(text) : text, cuts)) {
    const got = reader.write(chunk)
    if (got instanceof FileFormatError) return got
    entries.push(...got)
  }
  const end = reader.end()
  return end instanceof FileFormatError ? end : [...entries, ...end]
}

export const writeReport = (writer: ReportWriter, entries: ReadonlyArray<ReportEntry>): string | FileFormatError => {
  let text = writer.begin()
  for (const entry of entries) text += writer.entry(entry)
  const end = writer.end()
  return end instanceof FileFormatError ? end : text + end
}

export const reportHeader = (format: ReportHeader["format"]): ReportHeader => ({
  id: "RPT-2026-12-03-1",
  scheme: "sepa_core",
  format,
  created_at: "2026-12-03T06:00:00.000Z" as Timestamp,
  report_date: unsafeLocalDate("2026-12-03"),
  originator: sepaOriginator,
  currency: "EUR"
})

export const reportFiles = (format: ReportHeader["format"]) => {
  const found = sepaFiles.reports.find((r) => r.format === format)
  if (found === undefined) throw new Error(`no ${format}`)
  return found
}

/** An entry without where it was read, to compare what was written with what was read. */
export const unplaced = ({ location: _location, ...entry }: ReportEntry): Omit<ReportEntry, "location"> => entry
