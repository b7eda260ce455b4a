import type { Timestamp } from "@paykit/core"
import { FileFormatError } from "../model.ts"
import {
  addTotals,
  alpha,
  dateAndTime,
  BLOCKING_FACTOR,
  countEntry,
  emptyTotals,
  MAX_BATCH_COUNT,
  MAX_BATCH_ENTRY_ADDENDA_COUNT,
  MAX_BLOCK_COUNT,
  MAX_TOTAL_AMOUNT,
  MAX_TRACE_SEQUENCE,
  numeric,
  PADDING_RECORD,
  record,
  type Totals
} from "./records.ts"

/**
 * What every NACHA file writer shares: batches opened and closed around their entries, each
 * batch's control record and the file's computed as entries are written (counts, entry hash,
 * debit and credit totals), trace numbers, and the padding of the last block. It holds only
 * the open batch's totals, so a file of any length is written in constant memory.
 */

/** What a batch's header and control records share. */
export interface BatchIdentity {
  readonly serviceClass: string
  /** The company identification, already 10 characters. */
  readonly companyId: string
  /** The originating DFI identification (8 digits): the first 8 digits of its entries' trace numbers. */
  readonly odfi: string
}

export const fileWriter = () => {
  let records = 0
  let batchCount = 0
  let sequence = 0
  let batch: { readonly identity: BatchIdentity; readonly number: number; readonly totals: Totals } | undefined
  const file = emptyTotals()

  const out = (text: string): string => {
    records += 1
    return text
  }

  const closeBatch = (): string => {
    if (batch === undefined) return ""
    const { identity, number, totals } = batch
    batch = undefined
    addTotals(file, totals)
    return out(record(
      "8", identity.serviceClass, numeric(totals.count, 6), numeric(totals.hash, 10), numeric(totals.debit % (MAX_TOTAL_AMOUNT + 1), 12),
      numeric(totals.credit % (MAX_TOTAL_AMOUNT + 1), 12), identity.companyId, " ".repeat(19), " ".repeat(6), identity.odfi, numeric(number % (MAX_BATCH_COUNT + 1), 7)
    ))
  }

  return {
    /**
     * The file header: to and from the ODFI's routing number, made at `createdAt` (UTC), told
     * apart from the day's other files by `id`'s last character (the file ID modifier).
     */
    header: (fields: { readonly routing: string; readonly createdAt: Timestamp; readonly id: string; readonly originName: string; readonly reference: string }): string => {
      const { date, time } = dateAndTime(fields.createdAt)
      const modifier = /[A-Z0-9]$/.exec(fields.id.toUpperCase())?.[0] ?? "A"
      const routing = ` ${fields.routing}`
      return out(record("1", "01", routing, routing, date, time, modifier, "094", "10", "1", alpha("", 23), alpha(fields.originName, 23), alpha(fields.reference, 8)))
    },
    /** Whether an entry with `addenda` records fits the open batch; a writer opens a new batch when not. */
    fits: (addenda: number): boolean => batch !== undefined && batch.totals.count + 1 + addenda <= MAX_BATCH_ENTRY_ADDENDA_COUNT,
    /** Closes the open batch, if any, and opens the next: `header` gets the batch number and writes the batch header. */
    openBatch: (identity: BatchIdentity, header: (number: number) => string): string => {
      const closed = closeBatch()
      batchCount += 1
      batch = { identity, number: batchCount, totals: emptyTotals() }
      return closed + out(header(batchCount % (MAX_BATCH_COUNT + 1)))
    },
    /**
     * An entry of the open batch and its addenda: `write` gets the entry's trace number and
     * answers the entry record followed by its addenda records.
     */
    entry: (fields: { readonly transactionCode: string; readonly rdfi: string; readonly amount: number; readonly addenda: number }, write: (trace: string) => string): string => {
      if (batch === undefined) throw new Error("a NACHA entry written outside a batch")
      sequence += 1
      countEntry(batch.totals, fields)
      records += 1 + fields.addenda
      return write(`${batch.identity.odfi}${numeric(sequence % (MAX_TRACE_SEQUENCE + 1), 7)}`)
    },
    /** The last batch's control, the file control and the padding; or why the file cannot hold what was written. */
    finish: (): string | FileFormatError => {
      const closed = closeBatch()
      const blocks = Math.ceil((records + 1) / BLOCKING_FACTOR)
      const limits: ReadonlyArray<readonly [boolean, string]> = [
        [sequence > MAX_TRACE_SEQUENCE, `${sequence} entries exceed the trace number's ${MAX_TRACE_SEQUENCE}`],
        [batchCount > MAX_BATCH_COUNT, `${batchCount} batches exceed the file control's ${MAX_BATCH_COUNT}`],
        [blocks > MAX_BLOCK_COUNT, `${blocks} blocks exceed the file control's ${MAX_BLOCK_COUNT}`],
        [file.debit > MAX_TOTAL_AMOUNT || file.credit > MAX_TOTAL_AMOUNT, `the file's total exceeds ${MAX_TOTAL_AMOUNT} cents`]
      ]
      const exceeded = limits.find(([over]) => over)
      if (exceeded !== undefined) return new FileFormatError("file control", `too much for one NACHA file: ${exceeded[1]}`)
      const control = out(record(
        "9", numeric(batchCount, 6), numeric(blocks, 6), numeric(file.count, 8), numeric(file.hash, 10), numeric(file.debit, 12), numeric(file.credit, 12), " ".repeat(39)
      ))
      return closed + control + `${PADDING_RECORD}\n`.repeat(blocks * BLOCKING_FACTOR - records)
    },
    batchCount: () => batchCount
  }
}
