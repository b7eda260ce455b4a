import { describe, expect, it } from "vitest"
import v8 from "node:v8"
import vm from "node:vm"
import { type Timestamp, unsafeLocalDate } from "@paykit/core"
import { bacsFiles, FileFormatError, type ReportEntry, reportFormatOf, type SubmissionItem } from "../src/index.ts"
import { bacsHeaderFor, bacsOriginator } from "./bacs-arbitraries.ts"

/**
 * A 100,000-item file written and read back streaming: the heap after the first 10,000 items and
 * after all of them (each measured after a full collection) must stay within a bound far below
 * what keeping the items, their records or their entries would take (a 106-character record kept
 * per item alone is over 15 MB here). No timing: speed is bench/'s.
 */

v8.setFlagsFromString("--expose-gc")
const gc = vm.runInNewContext("gc") as () => void

const ITEMS = 100_000
const FIRST = 10_000
const BATCH = 500
/** Growth allowed between the 10,000th and the 100,000th item. */
const MAX_GROWTH = 4 * 1024 * 1024

const heapAfterCollection = (): number => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

const encoder = new TextEncoder()

/**
 * Writes items 0 to ITEMS-1 through `write`, feeding each batch's text to `feed` as it is made,
 * and answers how much the heap grew from the FIRST-th item to the last.
 */
const heapGrowthStreaming = (write: (i: number) => string, feed: (text: string) => void): number => {
  let baseline = 0
  for (let i = 0; i < ITEMS; i += BATCH) {
    let text = ""
    for (let k = i; k < i + BATCH; k++) text += write(k)
    feed(text)
    if (i + BATCH === FIRST) baseline = heapAfterCollection()
  }
  return heapAfterCollection() - baseline
}

const collection = (i: number): SubmissionItem => ({
  kind: "collection",
  payment: `PM${String(i).padStart(12, "0")}`,
  amount: 1000 + (i % 9000),
  currency: "GBP",
  charge_date: unsafeLocalDate("2026-12-02"),
  sequence: i % 7 === 0 ? "first" : "recurring",
  mandate: `MD${String(i).padStart(12, "0")}`,
  mandate_reference: `ACME-${String(i).padStart(8, "0")}`,
  mandate_signed_on: unsafeLocalDate("2026-11-01"),
  authorisation_source: "web",
  debtor: { account_holder_name: `PAYER ${i}`, sort_code: String(100000 + (i % 899999)), account_number: String(10000000 + i) },
  remittance: null
})

const amountOf = (i: number): number => 1000 + (i % 9000)

describe("Bacs files of 100,000 items", () => {
  it("a Standard 18 submission is written and read in bounded memory", () => {
    let total = 0
    for (let i = 0; i < ITEMS; i++) total += amountOf(i)
    const writer = bacsFiles.submission.writer(bacsHeaderFor([], { item_count: ITEMS, total_amount: total }))
    const reader = bacsFiles.submission.reader()
    let read = 0
    let readTotal = 0
    const feed = (text: string) => {
      const got = reader.write(encoder.encode(text))
      if (got instanceof FileFormatError) throw new Error(`${got.location}: ${got.message}`)
      for (const item of got) {
        read += 1
        readTotal += item.amount ?? 0
      }
    }
    feed(writer.begin())
    const grown = heapGrowthStreaming((i) => writer.item(collection(i)), feed)
    const tail = writer.end()
    if (tail instanceof FileFormatError) throw new Error(tail.message)
    feed(tail)
    const end = reader.end()
    if (end instanceof FileFormatError) throw new Error(end.message)
    expect(read).toBe(ITEMS)
    expect(readTotal).toBe(total)
    expect(end.facts).toMatchObject({ item_count: ITEMS, total_amount: total })
    expect(grown).toBeLessThan(MAX_GROWTH)
  })

  it("an ARUDD of 100,000 returned debits is written and read in bounded memory", () => {
    const found = reportFormatOf("bacs_arudd")
    if (found === undefined) throw new Error("bacs_arudd is not registered")
    const writer = found.report.writer({
      id: "BR01HX3K9ZQ8W7",
      scheme: "bacs",
      format: "bacs_arudd",
      created_at: "2026-12-04T06:00:00.000Z" as Timestamp,
      report_date: unsafeLocalDate("2026-12-04"),
      originator: bacsOriginator,
      currency: "GBP"
    })
    const reader = found.report.reader()
    let read = 0
    const feed = (text: string) => {
      const got = reader.write(encoder.encode(text))
      if (got instanceof FileFormatError) throw new Error(`${got.location}: ${got.message}`)
      read += got.length
    }
    const entry = (i: number): ReportEntry => ({
      kind: "collection_returned",
      scheme: "bacs",
      format: "bacs_arudd",
      target: { by: "mandate_reference", reference: `ACME-${String(i).padStart(8, "0")}`, amount: amountOf(i), original_date: unsafeLocalDate("2026-12-01") },
      code: "0",
      amount: amountOf(i),
      debtor: { account_holder_name: `PAYER ${i}`, sort_code: "400000", account_number: String(10000000 + i) },
      location: ""
    })
    feed(writer.begin())
    const grown = heapGrowthStreaming((i) => writer.entry(entry(i)), feed)
    const tail = writer.end()
    if (tail instanceof FileFormatError) throw new Error(tail.message)
    feed(tail)
    const rest = reader.end()
    if (rest instanceof FileFormatError) throw new Error(rest.message)
    expect(read + rest.length).toBe(ITEMS)
    expect(grown).toBeLessThan(MAX_GROWTH)
  })
})
