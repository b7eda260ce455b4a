import type { LocalDate } from "@paykit/core"
import { type BankAccount, FileFormatError, type ReportEntry, type ReportHeader, type ReportReader, type ReportWriter } from "../model.ts"
import { ACH_CHANGE_CODES, ACH_RETURN_CODES, readCorrectedData, returnKindOf, writeCorrectedData } from "./codes.ts"
import {
  accountIssue,
  accountTypeOfCode,
  alpha,
  at,
  dateOf,
  fitsAlpha,
  MAX_ENTRY_AMOUNT,
  numeric,
  record,
  routingOf,
  SERVICE_CLASS,
  TRANSACTION_CODE,
  yymmdd
} from "./records.ts"
import { type Entry, structureReader } from "./structure.ts"
import { COMPANY_ENTRY_DESCRIPTION, MAX_ID_LENGTH } from "./submission.ts"
import { type BatchIdentity, fileWriter } from "./writer.ts"

/**
 * NACHA returns and notifications of change, as an ODFI hands them to its originator: each
 * return is an entry (transaction code 26 or 36) with an Addenda 99 record, each notification
 * of change an entry of a `COR` batch with an Addenda 98 record. Both repeat the original entry's
 * account, amount, individual identification number (the payment's id, or the mandate's for a
 * prenote) and name, and name the original by its trace number and receiving DFI.
 */

const SCHEME = "ach"
const FORMAT = "nacha_returns" as const
const CURRENCY = "USD"

/** The standard entry classes a report's batches may have: those paykit originates, and `COR`. */
const REPORT_CLASSES: ReadonlyArray<string> = ["PPD", "WEB", "COR"]

const failAt = (line: number, message: string) => new FileFormatError(`line ${line}`, message)

/** A return's or notification's own transaction codes: 21/31 for an original credit, 26/36 for a debit or prenote. */
const RETURN_OR_NOC_CODES: ReadonlyArray<string> = ["21", "26", "31", "36"]

/** The fields Addenda 98 and 99 share: the code, the original entry's trace number and receiving DFI. */
const originalOf = (addenda: { readonly line: number; readonly text: string }) => {
  const trace = at(addenda.text, 7, 21)
  const rdfi = at(addenda.text, 28, 35)
  if (!/^\d{15}$/.test(trace)) return failAt(addenda.line, "the original entry trace number (positions 7-21) must be 15 digits")
  if (!/^\d{8}$/.test(rdfi)) return failAt(addenda.line, "the original receiving DFI identification (positions 28-35) must be 8 digits")
  return { code: at(addenda.text, 4, 6), trace, routingNumber: routingOf(rdfi) }
}

const reportEntryOf = (entry: Entry): ReportEntry | FileFormatError => {
  if (!RETURN_OR_NOC_CODES.includes(entry.transactionCode)) {
    return failAt(entry.line, `transaction code ${entry.transactionCode} (positions 2-3) is not a return's or notification of change's (21, 26, 31, 36)`)
  }
  const cor = entry.batch.sec === "COR"
  const addenda = entry.addenda[0]
  if (addenda === undefined || entry.addenda.length > 1 || addenda.typeCode !== (cor ? "98" : "99")) {
    return failAt(entry.line, cor ? "a notification of change must have one Addenda 98 record" : "a return must have one Addenda 99 record")
  }
  const original = originalOf(addenda)
  if (original instanceof FileFormatError) return original
  const type = accountTypeOfCode(entry.transactionCode)
  const debtor: BankAccount = {
    account_holder_name: entry.name,
    routing_number: original.routingNumber,
    account_number: entry.accountNumber,
    ...(type === undefined ? {} : { account_type: type })
  }
  const common = {
    scheme: SCHEME,
    format: FORMAT,
    target: { by: "end_to_end" as const, id: entry.identification },
    code: original.code,
    currency: CURRENCY,
    effective_date: entry.batch.effectiveDate,
    debtor,
    scheme_reference: original.trace,
    location: `line ${entry.line}`
  }
  if (cor) {
    if (ACH_CHANGE_CODES[original.code] === undefined) return failAt(addenda.line, `"${original.code}" (positions 4-6) is not a change code paykit reads (C01-C07, C09-C13)`)
    if (entry.amount !== 0) return failAt(entry.line, "a notification of change's amount (positions 30-39) must be zero")
    const corrected = readCorrectedData(original.code, at(addenda.text, 36, 64))
    if (typeof corrected === "string") return failAt(addenda.line, `${original.code}: ${corrected} (positions 36-64)`)
    return { kind: "bank_details_changed", ...common, new_details: corrected }
  }
  if (ACH_RETURN_CODES[original.code] === undefined) return failAt(addenda.line, `"${original.code}" (positions 4-6) is not a return reason code`)
  const death = at(addenda.text, 22, 27)
  if (death.trim() !== "" && dateOf(death) === undefined) return failAt(addenda.line, "the date of death (positions 22-27) is not a YYMMDD date")
  if (entry.transactionCode === "21" || entry.transactionCode === "31") {
    return failAt(entry.line, `transaction code ${entry.transactionCode} returns a credit; paykit originates ACH debits only`)
  }
  // A prenote is the only zero-dollar entry paykit sends: its return rejects the mandate.
  const kind = entry.amount === 0 ? "mandate_rejected" : returnKindOf(original.code)
  return { kind, ...common, amount: entry.amount }
}

const reportReader = (): ReportReader => {
  const reader = structureReader<ReportEntry>(
    (batch) => (REPORT_CLASSES.includes(batch.sec) ? undefined : `standard entry class ${batch.sec} (positions 51-53): a paykit ACH report holds PPD and WEB returns and COR notifications of change`),
    reportEntryOf
  )
  return { write: reader.write, end: reader.end }
}

// ---------------------------------------------------------------------------------------------
// Writing a report, as the ODFI would

/** Why an entry cannot be written as a return or notification of change, or undefined. */
const entryIssue = (entry: ReportEntry): string | undefined => {
  if (entry.target.by !== "end_to_end") return "a NACHA report names an entry by its individual identification number: the target must be end_to_end"
  if (!fitsAlpha(entry.target.id, MAX_ID_LENGTH)) return `the id ${entry.target.id} does not fit the individual identification number`
  if (entry.debtor === undefined) return `the entry for ${entry.target.id} has no debtor: a return repeats the payer's routing and account number`
  const payer = accountIssue(`the entry for ${entry.target.id}: the payer`, entry.debtor)
  if (payer !== undefined) return payer
  if (entry.scheme_reference === undefined || !/^\d{15}$/.test(entry.scheme_reference)) return `the entry for ${entry.target.id} has no original trace number (its scheme_reference, 15 digits)`
  const amount = entry.amount ?? 0
  if (!Number.isInteger(amount) || amount < 0 || amount > MAX_ENTRY_AMOUNT) return `the amount ${amount} is not 0-${MAX_ENTRY_AMOUNT} cents`
  if (entry.kind === "mandate_cancelled") return "ACH has no report that cancels a mandate"
  if (entry.kind === "bank_details_changed") {
    if (ACH_CHANGE_CODES[entry.code] === undefined) return `"${entry.code}" is not a change code paykit writes`
    if (writeCorrectedData(entry.code, entry.new_details ?? {}) === undefined) return `${entry.code}'s corrected data is not in the entry's new_details`
    return amount === 0 ? undefined : "a notification of change has no amount"
  }
  if (ACH_RETURN_CODES[entry.code] === undefined) return `"${entry.code}" is not a return reason code`
  if (entry.kind === "mandate_rejected") return amount === 0 ? undefined : "the return of a prenote has no amount"
  if (amount === 0) return "the return of a collection states its amount"
  return returnKindOf(entry.code) === entry.kind ? undefined : `${entry.code} is read as ${returnKindOf(entry.code)}, not ${entry.kind}`
}

const reportWriter = (header: ReportHeader): ReportWriter => {
  const o = header.originator
  const odfiRouting = o.account.routing_number ?? ""
  const companyId = alpha(o.scheme_identifier, 10)
  const file = fileWriter()
  const originator = accountIssue("the originator's account", o.account, false)
  let error = originator === undefined ? undefined : new FileFormatError("file header", originator)
  let batch: { readonly sec: string; readonly effectiveDate: LocalDate; readonly rdfi: string } | undefined
  let count = 0

  // Each batch holds one returning bank's entries of one day: its header's originating DFI is the
  // RDFI that returns them, whose routing number begins their trace numbers.
  const openBatch = (sec: string, effectiveDate: LocalDate, rdfi: string): string => {
    batch = { sec, effectiveDate, rdfi }
    const identity: BatchIdentity = { serviceClass: SERVICE_CLASS.debits, companyId, odfi: rdfi }
    return file.openBatch(identity, (number) =>
      record(
        "5", SERVICE_CLASS.debits, alpha(o.name, 16), alpha("", 20), companyId, sec, alpha(COMPANY_ENTRY_DESCRIPTION, 10), alpha("", 6),
        yymmdd(effectiveDate), "   ", "1", rdfi, numeric(number, 7)
      ))
  }

  const write = (entry: ReportEntry, debtor: BankAccount, originalTrace: string): string => {
    const cor = entry.kind === "bank_details_changed"
    const sec = cor ? "COR" : "PPD"
    const effectiveDate = entry.effective_date ?? header.report_date
    const rdfi = (debtor.routing_number ?? "").slice(0, 8)
    const opened = batch === undefined || batch.sec !== sec || batch.effectiveDate !== effectiveDate || batch.rdfi !== rdfi || !file.fits(1)
      ? openBatch(sec, effectiveDate, rdfi)
      : ""
    const transactionCode = TRANSACTION_CODE[debtor.account_type ?? "checking"].returnOrNoc
    const amount = entry.amount ?? 0
    return opened + file.entry({ transactionCode, rdfi: odfiRouting.slice(0, 8), amount, addenda: 1 }, (trace) => {
      const detail = record(
        "6", transactionCode, odfiRouting, alpha(debtor.account_number ?? "", 17), numeric(amount, 10), alpha(entry.target.by === "end_to_end" ? entry.target.id : "", 15),
        alpha(debtor.account_holder_name, 22), "  ", "1", trace
      )
      const addenda = cor
        ? record("7", "98", entry.code, originalTrace, " ".repeat(6), rdfi, writeCorrectedData(entry.code, entry.new_details ?? {}) ?? "", " ".repeat(15), trace)
        : record("7", "99", entry.code, originalTrace, " ".repeat(6), rdfi, " ".repeat(44), trace)
      return detail + addenda
    })
  }

  return {
    begin: () => {
      // A header the file cannot state writes nothing; end answers why.
      if (error !== undefined) return ""
      return file.header({ routing: odfiRouting, createdAt: header.created_at, id: header.id, originName: o.name, reference: "" })
    },
    entry: (entry: ReportEntry) => {
      count += 1
      if (error !== undefined) return ""
      const problem = entryIssue(entry)
      if (problem !== undefined || entry.debtor === undefined || entry.scheme_reference === undefined) {
        error = new FileFormatError(`entry ${count}`, problem ?? "the entry has no debtor or original trace number")
        return ""
      }
      return write(entry, entry.debtor, entry.scheme_reference)
    },
    end: () => error ?? file.finish()
  }
}

/** Whether a file's first characters are a NACHA file: a file header record (`101`, its record size and blocking factor) on a line of its own. */
const isNacha = (head: string): boolean => /^101[ \d]\d{9}.{10}\d{6}[\d ]{4}[A-Z0-9]094101.{54}(\r?\n|$)/.test(head)

export const nachaReturns = {
  format: FORMAT,
  contentType: "text/plain; charset=us-ascii",
  sniff: { format: FORMAT, matches: isNacha },
  reader: reportReader,
  writer: reportWriter
}
