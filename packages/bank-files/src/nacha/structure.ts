import type { LocalDate } from "@paykit/core"
import { eachLine, type NumberedLine } from "../chunks.ts"
import { FileFormatError } from "../model.ts"
import {
  addTotals,
  at,
  BLOCKING_FACTOR,
  countEntry,
  dateOf,
  digits,
  emptyTotals,
  PADDING_RECORD,
  RECORD_LENGTH,
  routingOf,
  SERVICE_CLASS,
  type Totals
} from "./records.ts"

/**
 * Reads a NACHA file's structure as it arrives: the file header, batches of entries with their
 * addenda, each batch's control and the file's, and the padding. Every control record is
 * checked against what the file holds (counts, entry hash, debit and credit totals, the batch's
 * identity); an entry is handed on once its last addenda is read. Only the current batch's
 * running totals and the current entry are held, so memory does not grow with the file.
 */

export interface FileHeader {
  readonly line: number
  readonly immediateDestination: string
  readonly immediateOrigin: string
  readonly creationDate: LocalDate
}

export interface BatchHeader {
  readonly line: number
  readonly serviceClass: string
  readonly companyName: string
  readonly companyDiscretionaryData: string
  readonly companyId: string
  readonly sec: string
  readonly companyEntryDescription: string
  readonly companyDescriptiveDate: string
  readonly effectiveDate: LocalDate
  readonly odfi: string
  readonly batchNumber: number
}

export interface Addenda {
  readonly line: number
  readonly typeCode: string
  readonly text: string
}

export interface Entry {
  readonly line: number
  readonly batch: BatchHeader
  readonly transactionCode: string
  /** The receiving DFI's routing number, check digit included. */
  readonly routingNumber: string
  readonly accountNumber: string
  readonly amount: number
  readonly identification: string
  readonly name: string
  readonly discretionaryData: string
  readonly trace: string
  readonly addenda: ReadonlyArray<Addenda>
}

export interface FileTotals {
  readonly batchCount: number
  readonly entryAddendaCount: number
  readonly totalDebit: number
  readonly totalCredit: number
}

/** The most addenda records one entry may have: the addenda sequence number's four digits. */
export const MAX_ADDENDA_PER_ENTRY = 9999

const fail = (line: number, message: string) => new FileFormatError(`line ${line}`, message)

const RECORD_NAMES: Record<string, string> = {
  "1": "a file header",
  "5": "a batch header",
  "6": "an entry detail",
  "7": "an addenda",
  "8": "a batch control",
  "9": "a file control"
}
const nameOf = (type: string): string => RECORD_NAMES[type] ?? `a record of type "${type}"`

const parseFileHeader = (line: NumberedLine): FileHeader | FileFormatError => {
  const t = line.text
  if (at(t, 2, 3) !== "01") return fail(line.number, `the priority code (positions 2-3) is "${at(t, 2, 3)}"; it must be 01`)
  if (!/^[ \d]\d{9}$/.test(at(t, 4, 13))) return fail(line.number, "the immediate destination (positions 4-13) must be a routing number")
  const creationDate = dateOf(at(t, 24, 29))
  if (creationDate === undefined) return fail(line.number, "the file creation date (positions 24-29) is not a YYMMDD date")
  if (!/^(\d{4}| {4})$/.test(at(t, 30, 33))) return fail(line.number, "the file creation time (positions 30-33) is not HHMM")
  if (!/^[A-Z0-9]$/.test(at(t, 34, 34))) return fail(line.number, "the file ID modifier (position 34) must be A-Z or 0-9")
  if (at(t, 35, 37) !== "094") return fail(line.number, "the record size (positions 35-37) must be 094")
  if (at(t, 38, 39) !== "10") return fail(line.number, "the blocking factor (positions 38-39) must be 10")
  if (at(t, 40, 40) !== "1") return fail(line.number, "the format code (position 40) must be 1")
  return { line: line.number, immediateDestination: at(t, 4, 13).trim(), immediateOrigin: at(t, 14, 23).trim(), creationDate }
}

const parseBatchHeader = (line: NumberedLine, previous: number): BatchHeader | FileFormatError => {
  const t = line.text
  const serviceClass = at(t, 2, 4)
  if (!Object.values(SERVICE_CLASS).some((c) => c === serviceClass)) {
    return fail(line.number, `the service class code (positions 2-4) is "${serviceClass}"; it must be 200, 220 or 225`)
  }
  const effectiveDate = dateOf(at(t, 70, 75))
  if (effectiveDate === undefined) return fail(line.number, "the effective entry date (positions 70-75) is not a YYMMDD date")
  if (!/^[012]$/.test(at(t, 79, 79))) return fail(line.number, "the originator status code (position 79) must be 0, 1 or 2")
  const odfi = at(t, 80, 87)
  if (!/^\d{8}$/.test(odfi)) return fail(line.number, "the originating DFI identification (positions 80-87) must be 8 digits")
  const batchNumber = digits(at(t, 88, 94))
  if (batchNumber === undefined) return fail(line.number, "the batch number (positions 88-94) must be 7 digits")
  if (batchNumber <= previous) return fail(line.number, `batch number ${batchNumber} does not follow batch number ${previous}: batch numbers ascend`)
  return {
    line: line.number,
    serviceClass,
    companyName: at(t, 5, 20),
    companyDiscretionaryData: at(t, 21, 40),
    companyId: at(t, 41, 50),
    sec: at(t, 51, 53),
    companyEntryDescription: at(t, 54, 63),
    companyDescriptiveDate: at(t, 64, 69),
    effectiveDate,
    odfi,
    batchNumber
  }
}

type EntryFields = Omit<Entry, "addenda"> & { readonly addendaIndicator: boolean }

const parseEntry = (line: NumberedLine, batch: BatchHeader, previousTrace: string): EntryFields | FileFormatError => {
  const t = line.text
  const transactionCode = at(t, 2, 3)
  if (!/^[2-5][0-9]$/.test(transactionCode)) return fail(line.number, `the transaction code (positions 2-3) is "${transactionCode}"`)
  const rdfi = at(t, 4, 11)
  if (!/^\d{8}$/.test(rdfi)) return fail(line.number, "the receiving DFI identification (positions 4-11) must be 8 digits")
  const routingNumber = routingOf(rdfi)
  if (at(t, 12, 12) !== routingNumber.slice(8)) {
    return fail(line.number, `the check digit (position 12) is "${at(t, 12, 12)}"; routing number ${rdfi}_ needs ${routingNumber.slice(8)}`)
  }
  const amount = digits(at(t, 30, 39))
  if (amount === undefined) return fail(line.number, "the amount (positions 30-39) must be 10 digits")
  const indicator = at(t, 79, 79)
  if (indicator !== "0" && indicator !== "1") return fail(line.number, "the addenda record indicator (position 79) must be 0 or 1")
  const trace = at(t, 80, 94)
  if (!/^\d{15}$/.test(trace)) return fail(line.number, "the trace number (positions 80-94) must be 15 digits")
  if (trace.slice(0, 8) !== batch.odfi) {
    return fail(line.number, `the trace number (positions 80-94) begins ${trace.slice(0, 8)}, not the batch's originating DFI ${batch.odfi}`)
  }
  if (trace <= previousTrace) return fail(line.number, `trace number ${trace} does not follow ${previousTrace}: trace numbers ascend within a batch`)
  return {
    line: line.number,
    batch,
    transactionCode,
    routingNumber,
    accountNumber: at(t, 13, 29).trim(),
    amount,
    identification: at(t, 40, 54).trim(),
    name: at(t, 55, 76).trim(),
    discretionaryData: at(t, 77, 78),
    trace,
    addendaIndicator: indicator === "1"
  }
}

const checkAddenda = (line: NumberedLine, entry: EntryFields, sequence: number): Addenda | FileFormatError => {
  const t = line.text
  const typeCode = at(t, 2, 3)
  if (!/^\d{2}$/.test(typeCode)) return fail(line.number, `the addenda type code (positions 2-3) is "${typeCode}"`)
  if (typeCode === "98" || typeCode === "99") {
    if (at(t, 80, 94) !== entry.trace) return fail(line.number, `the addenda's trace number (positions 80-94) is not its entry's, ${entry.trace}`)
  } else if (typeCode === "05") {
    if (at(t, 84, 87) !== String(sequence).padStart(4, "0")) return fail(line.number, `the addenda sequence number (positions 84-87) must be ${sequence}`)
    if (at(t, 88, 94) !== entry.trace.slice(8)) {
      return fail(line.number, `the entry detail sequence number (positions 88-94) must be the entry's trace sequence, ${entry.trace.slice(8)}`)
    }
  }
  return { line: line.number, typeCode, text: t }
}

const checkTotals = (line: NumberedLine, totals: Totals, fields: {
  readonly count: readonly [number, number]
  readonly hash: readonly [number, number]
  readonly debit: readonly [number, number]
  readonly credit: readonly [number, number]
}, what: string): FileFormatError | undefined => {
  const checks: ReadonlyArray<readonly [string, readonly [number, number], number]> = [
    ["entry/addenda count", fields.count, totals.count],
    ["entry hash", fields.hash, totals.hash],
    ["total debit amount", fields.debit, totals.debit],
    ["total credit amount", fields.credit, totals.credit]
  ]
  for (const [name, [from, to], actual] of checks) {
    const stated = digits(at(line.text, from, to))
    if (stated !== actual) {
      return fail(line.number, `the ${what}'s ${name} (positions ${from}-${to}) is "${at(line.text, from, to)}"; the ${what === "batch control" ? "batch" : "file"} holds ${actual}`)
    }
  }
  return undefined
}

const checkBatchControl = (line: NumberedLine, batch: BatchHeader, totals: Totals): FileFormatError | undefined => {
  const t = line.text
  if (at(t, 2, 4) !== batch.serviceClass) return fail(line.number, `the service class code (positions 2-4) is not the batch header's, ${batch.serviceClass}`)
  const wrong = checkTotals(line, totals, { count: [5, 10], hash: [11, 20], debit: [21, 32], credit: [33, 44] }, "batch control")
  if (wrong !== undefined) return wrong
  if (at(t, 45, 54) !== batch.companyId) return fail(line.number, `the company identification (positions 45-54) is not the batch header's, "${batch.companyId}"`)
  if (at(t, 80, 87) !== batch.odfi) return fail(line.number, `the originating DFI identification (positions 80-87) is not the batch header's, ${batch.odfi}`)
  if (digits(at(t, 88, 94)) !== batch.batchNumber) return fail(line.number, `the batch number (positions 88-94) is not the batch header's, ${batch.batchNumber}`)
  return undefined
}

/** What a structure reader hands each complete entry to; it answers the reader's output for it. */
export type EntryHandler<T> = (entry: Entry) => T | FileFormatError

/**
 * A NACHA file's structure, fed in chunks. `acceptBatch` vets each batch header (the SEC codes a
 * caller reads); `onEntry` turns each complete entry into the caller's value.
 */
export const structureReader = <T>(acceptBatch: (batch: BatchHeader) => string | undefined, onEntry: EntryHandler<T>) => {
  let fileHeader: FileHeader | undefined
  let firstBatch: BatchHeader | undefined
  let batch: BatchHeader | undefined
  let lastBatchNumber = 0
  let entry: EntryFields | undefined
  let addenda: Array<Addenda> = []
  let lastTrace = ""
  let batchTotals = emptyTotals()
  const fileTotals = emptyTotals()
  let batchCount = 0
  let fileControl: FileTotals | undefined
  let fileControlLine = 0
  let statedBlocks: number | undefined
  let recordCount = 0

  const finishEntry = (): T | FileFormatError | undefined => {
    if (entry === undefined) return undefined
    const done = entry
    entry = undefined
    if (done.addendaIndicator && addenda.length === 0) return fail(done.line, "the addenda record indicator (position 79) is 1 but no addenda record follows")
    if (!done.addendaIndicator && addenda.length > 0) return fail(done.line, "the addenda record indicator (position 79) is 0 but addenda records follow")
    const { addendaIndicator: _, ...fields } = done
    const complete: Entry = { ...fields, addenda }
    addenda = []
    return onEntry(complete)
  }

  const closeBatch = (line: NumberedLine, open: BatchHeader): FileFormatError | undefined => {
    if (batchTotals.count === 0) return fail(line.number, `the batch of line ${open.line} has no entries`)
    const wrong = checkBatchControl(line, open, batchTotals)
    if (wrong !== undefined) return wrong
    addTotals(fileTotals, batchTotals)
    batchCount += 1
    batch = undefined
    batchTotals = emptyTotals()
    return undefined
  }

  const readFileControl = (line: NumberedLine): FileFormatError | undefined => {
    const batches = digits(at(line.text, 2, 7))
    if (batches !== batchCount) return fail(line.number, `the file control's batch count (positions 2-7) is "${at(line.text, 2, 7)}"; the file holds ${batchCount}`)
    const wrong = checkTotals(line, fileTotals, { count: [14, 21], hash: [22, 31], debit: [32, 43], credit: [44, 55] }, "file control")
    if (wrong !== undefined) return wrong
    fileControl = { batchCount, entryAddendaCount: fileTotals.count, totalDebit: fileTotals.debit, totalCredit: fileTotals.credit }
    fileControlLine = line.number
    statedBlocks = digits(at(line.text, 8, 13))
    return undefined
  }

  /** One record; answers the value of an entry it completed, if any. */
  const take = (line: NumberedLine): T | FileFormatError | undefined => {
    recordCount += 1
    const t = line.text
    if (t.length !== RECORD_LENGTH) return fail(line.number, `the record is ${t.length} characters long; NACHA records are ${RECORD_LENGTH}`)
    const type = t.charAt(0)
    if (fileControl !== undefined) return t === PADDING_RECORD ? undefined : fail(line.number, "only padding records of nines may follow the file control record")
    if (fileHeader === undefined) {
      if (type !== "1") return fail(line.number, `the file begins with ${nameOf(type)} record; a NACHA file begins with its file header (1)`)
      const header = parseFileHeader(line)
      if (header instanceof FileFormatError) return header
      fileHeader = header
      return undefined
    }
    if (batch === undefined) {
      if (type === "5") {
        const header = parseBatchHeader(line, lastBatchNumber)
        if (header instanceof FileFormatError) return header
        const refused = acceptBatch(header)
        if (refused !== undefined) return fail(line.number, refused)
        batch = header
        firstBatch ??= header
        lastBatchNumber = header.batchNumber
        lastTrace = ""
        return undefined
      }
      if (type === "9") return readFileControl(line)
      return fail(line.number, `${nameOf(type)} record outside a batch; a batch header (5) or the file control (9) was expected`)
    }
    if (type === "7") {
      if (entry === undefined) return fail(line.number, "an addenda record must follow an entry detail record")
      if (addenda.length >= MAX_ADDENDA_PER_ENTRY) return fail(line.number, `an entry has more than ${MAX_ADDENDA_PER_ENTRY} addenda records`)
      const parsed = checkAddenda(line, entry, addenda.length + 1)
      if (parsed instanceof FileFormatError) return parsed
      addenda.push(parsed)
      batchTotals.count += 1
      return undefined
    }
    const finished = finishEntry()
    if (finished instanceof FileFormatError) return finished
    if (type === "6") {
      const fields = parseEntry(line, batch, lastTrace)
      if (fields instanceof FileFormatError) return fields
      lastTrace = fields.trace
      // Its addenda are counted as they come.
      countEntry(batchTotals, { transactionCode: fields.transactionCode, rdfi: fields.routingNumber.slice(0, 8), amount: fields.amount, addenda: 0 })
      entry = fields
      return finished
    }
    if (type === "8") {
      const wrong = closeBatch(line, batch)
      return wrong ?? finished
    }
    return fail(line.number, `${nameOf(type)} record inside the batch of line ${batch.line}; entries (6), addenda (7) or the batch control (8) were expected`)
  }

  const lines = eachLine(take)
  return {
    write: lines.write,
    /** The last lines, then the checks only the whole file allows: it ended with its file control, in as many blocks as it says. */
    end: (): ReadonlyArray<T> | FileFormatError => {
      const last = lines.end()
      if (last instanceof FileFormatError) return last
      const next = `line ${recordCount + 1}`
      if (fileHeader === undefined) return new FileFormatError("line 1", "the file is empty")
      if (batch !== undefined) return new FileFormatError(next, `the file ends inside the batch of line ${batch.line}: its batch control (8) and the file control (9) are missing`)
      if (fileControl === undefined) return new FileFormatError(next, "the file ends without its file control record (9)")
      const blocks = Math.ceil(recordCount / BLOCKING_FACTOR)
      if (statedBlocks !== blocks) {
        return fail(fileControlLine, `the file control's block count (positions 8-13) is ${statedBlocks ?? "not a number"}; the file's ${recordCount} records make ${blocks} blocks of ${BLOCKING_FACTOR}`)
      }
      return last
    },
    fileHeader: () => fileHeader,
    firstBatch: () => firstBatch,
    fileTotals: () => fileControl
  }
}
