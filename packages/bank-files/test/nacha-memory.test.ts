import { describe, expect, it } from "vitest"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { unsafeLocalDate } from "@paykit/core"
import { abaCheckDigit } from "@paykit/validation"
import { type Collection, FileFormatError, nachaFiles, type SubmittedItem } from "../src/index.ts"
import { achHeaderFor, encoder } from "./nacha-support.ts"

/**
 * A 100,000-entry NACHA file written and read back as it is written, chunk by chunk, with the
 * heap measured after a full collection at 20,000 entries and again at 100,000. The writer and
 * reader hold only the open batch's totals, so the heap must not grow with the entries; the
 * same run keeping every item it reads grows by far more than the bound, which shows the check
 * can fail.
 */

setFlagsFromString("--expose-gc")
const gc = runInNewContext("gc") as () => void

const ENTRIES = 100_000
const FIRST_SAMPLE = 20_000
/** Heap growth allowed between the two samples: far below what 80,000 kept items take (several MB). */
const MAX_GROWTH_BYTES = 2 * 1024 * 1024

const collection = (n: number): Collection => {
  const eight = `0${String(1_000_000 + (n % 9_000_000)).padStart(7, "0")}`
  return {
    kind: "collection",
    payment: `PM${String(n).padStart(12, "0")}`,
    amount: 100 + (n % 10_000),
    currency: "USD",
    charge_date: unsafeLocalDate("2026-12-02"),
    sequence: "recurring",
    mandate: `MD${String(n).padStart(12, "0")}`,
    mandate_reference: `REF${n}`,
    mandate_signed_on: unsafeLocalDate("2026-11-01"),
    authorisation_source: n % 3 === 0 ? "web" : "paper",
    debtor: { account_holder_name: `Payer ${n}`, routing_number: `${eight}${abaCheckDigit(eight)}`, account_number: String(10_000 + n), account_type: "checking" },
    remittance: null
  }
}

const heapAfterCollection = (): number => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

/** Writes and reads the file in one pass; answers the heap's growth between the samples and what was read. */
const run = (keep: Array<SubmittedItem> | undefined) => {
  let total = 0
  for (let n = 0; n < ENTRIES; n++) total += 100 + (n % 10_000)
  const header = { ...achHeaderFor([]), item_count: ENTRIES, total_amount: total }
  const writer = nachaFiles.submission.writer(header)
  const reader = nachaFiles.submission.reader()
  let read = 0
  let readTotal = 0
  const feed = (text: string) => {
    const got = reader.write(encoder.encode(text))
    if (got instanceof FileFormatError) throw new Error(`${got.location}: ${got.message}`)
    for (const item of got) {
      read += 1
      readTotal += item.amount ?? 0
      keep?.push(item)
    }
  }
  feed(writer.begin())
  let first = 0
  for (let n = 0; n < ENTRIES; n++) {
    feed(writer.item(collection(n)))
    if (n + 1 === FIRST_SAMPLE) first = heapAfterCollection()
  }
  const end = writer.end()
  if (end instanceof FileFormatError) throw new Error(`${end.location}: ${end.message}`)
  feed(end)
  const last = heapAfterCollection()
  const done = reader.end()
  if (done instanceof FileFormatError) throw new Error(`${done.location}: ${done.message}`)
  return { growth: last - first, read: read + done.items.length, readTotal, facts: done.facts, total }
}

describe("a 100,000-entry NACHA file", () => {
  it("is written and read in bounded memory", () => {
    const { growth, read, readTotal, facts, total } = run(undefined)
    expect(read).toBe(ENTRIES)
    expect(readTotal).toBe(total)
    expect(facts).toMatchObject({ item_count: ENTRIES, total_amount: total })
    expect(growth).toBeLessThan(MAX_GROWTH_BYTES)
  })

  it("would fail the bound if the items read were kept", () => {
    const kept: Array<SubmittedItem> = []
    const { growth } = run(kept)
    expect(kept).toHaveLength(ENTRIES)
    expect(growth).toBeGreaterThan(MAX_GROWTH_BYTES)
  })
})
