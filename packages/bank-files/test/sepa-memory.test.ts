import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { describe, expect, it } from "vitest"
import { unsafeLocalDate } from "@paykit/core"
import { type Collection, FileFormatError, type ReportEntry, sepaFiles } from "../src/index.ts"
import { encoder, reportFiles, reportHeader, sepaHeaderFor } from "./sepa-helpers.ts"

/**
 * Bounded memory, measured: a 100,000-collection pain.008 (and a 100,000-return camt.054) is
 * written one item a call and read back as it is written, chunk by chunk, without the file ever
 * being whole anywhere. The heap after the first 10,000 items and after all of them must be about
 * the same: a writer or reader that kept what it had passed (about 0.5 KB an item as objects,
 * 0.7 KB as text) would grow it by tens of megabytes. The memory is measured, not the time.
 */

setFlagsFromString("--expose-gc")
const gc = runInNewContext("gc") as () => void
const heap = (): number => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

const ITEMS = 100_000
const FIRST = 10_000
/** What the heap may grow by between the two measures: a fraction of what keeping 90,000 collections would take. */
const ALLOWED_GROWTH = 12 * 1024 * 1024
/** How much text is handed to the reader at once, as a socket or a file stream would. */
const CHUNK = 64 * 1024

const collection = (i: number): Collection => ({
  kind: "collection",
  payment: `PM${String(i).padStart(12, "0")}`,
  amount: 1000 + (i % 9000),
  currency: "EUR",
  charge_date: unsafeLocalDate("2026-12-01"),
  // In itemSortKey's order: the first collections of new mandates, then the recurring ones.
  sequence: i < ITEMS / 10 ? "first" : "recurring",
  mandate: `MD${String(i).padStart(12, "0")}`,
  mandate_reference: `ACME-${i}`,
  mandate_signed_on: unsafeLocalDate("2026-11-01"),
  authorisation_source: "web",
  debtor: { account_holder_name: `Payer number ${i}`, iban: "NL91ABNA0417164300", bic: "ABNANL2A" },
  remittance: `Invoice ${i}`
})

/** A file's text as its writer gives it: its beginning, each item's, and its end. */
interface Written {
  readonly begin: () => string
  readonly item: (i: number) => string
  readonly end: () => string
}

/**
 * Streams `ITEMS` items from `file` into `read` (which answers how many items a chunk completed),
 * in chunks of `CHUNK` characters, and answers how much the heap grew between the first `FIRST`
 * items and the last.
 */
const streamed = (file: Written, read: (chunk: Uint8Array) => number): { readonly items: number; readonly growth: number } => {
  let pending = file.begin()
  let items = 0
  let afterFirst = 0
  for (let i = 0; i < ITEMS; i++) {
    pending += file.item(i)
    if (pending.length >= CHUNK) {
      items += read(encoder.encode(pending))
      pending = ""
    }
    if (i + 1 === FIRST) afterFirst = heap()
  }
  items += read(encoder.encode(pending + file.end()))
  return { items, growth: heap() - afterFirst }
}

const must = <T>(got: T | FileFormatError): T => {
  if (got instanceof FileFormatError) throw new Error(`${got.location}: ${got.message}`)
  return got
}

describe("a 100,000-item SEPA file", () => {
  it("is written and read back in bounded memory: a pain.008", () => {
    let total = 0
    for (let i = 0; i < ITEMS; i++) total += collection(i).amount
    const writer = sepaFiles.submission.writer({ ...sepaHeaderFor([]), item_count: ITEMS, total_amount: total })
    const reader = sepaFiles.submission.reader()
    const file = { begin: writer.begin, item: (i: number) => writer.item(collection(i)), end: () => must(writer.end()) }
    const { items, growth } = streamed(file, (chunk) => must(reader.write(chunk)).length)
    const end = must(reader.end())
    expect(items + end.items.length).toBe(ITEMS)
    expect(end.facts).toMatchObject({ item_count: ITEMS, total_amount: total })
    console.info(`pain.008, ${ITEMS} collections: the heap grew ${(growth / 1024 / 1024).toFixed(1)} MB after the first ${FIRST}`)
    expect(growth).toBeLessThan(ALLOWED_GROWTH)
  })

  it("is written and read back in bounded memory: a camt.054", () => {
    const files = reportFiles("camt.054.001.02")
    const writer = files.writer(reportHeader("camt.054.001.02"))
    const reader = files.reader()
    const entry = (i: number): ReportEntry => ({
      kind: i % 7 === 0 ? "collection_charged_back" : "collection_returned",
      scheme: "sepa_core",
      format: "camt.054.001.02",
      target: { by: "end_to_end", id: `PM${String(i).padStart(12, "0")}` },
      code: i % 7 === 0 ? "MD06" : "AM04",
      amount: 1000 + (i % 9000),
      currency: "EUR",
      effective_date: unsafeLocalDate("2026-12-08"),
      debtor: { account_holder_name: `Payer number ${i}`, iban: "NL91ABNA0417164300" },
      location: ""
    })
    const file = { begin: writer.begin, item: (i: number) => writer.entry(entry(i)), end: () => must(writer.end()) }
    const { items, growth } = streamed(file, (chunk) => must(reader.write(chunk)).length)
    expect(items + must(reader.end()).length).toBe(ITEMS)
    console.info(`camt.054, ${ITEMS} returns: the heap grew ${(growth / 1024 / 1024).toFixed(1)} MB after the first ${FIRST}`)
    expect(growth).toBeLessThan(ALLOWED_GROWTH)
  })
})
