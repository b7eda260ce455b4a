import type { LocalDate } from "@paykit/core"
import {
  type BankAccount,
  FileFormatError,
  type MandateInstruction,
  type Originator,
  type SubmissionFacts,
  type SubmissionHeader,
  type SubmissionItem,
  type SubmissionReader,
  type SubmissionWriter,
  type SubmittedItem
} from "../model.ts"
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
  SERVICE_CLASS,
  TRANSACTION_CODE,
  yymmdd
} from "./records.ts"
import { type Entry, structureReader } from "./structure.ts"
import { type BatchIdentity, fileWriter } from "./writer.ts"

/**
 * A submission as a NACHA file: PPD and WEB debits and zero-dollar prenotes, one batch per run
 * of items with the same standard entry class and effective entry date. Each entry names the
 * payment (or, for a prenote, the mandate) by its id in the individual identification number,
 * and carries an Addenda 05 record with the mandate's reference and the payment's remittance.
 */

/** The batch header's company entry description (positions 54-63): the word on the payer's statement. */
export const COMPANY_ENTRY_DESCRIPTION = "PAYMENT"

/** An id fits the individual identification number (positions 40-54). */
export const MAX_ID_LENGTH = 15
/** The mandate's reference takes the first 35 characters of the Addenda 05's payment related information (positions 4-83). */
export const MAX_MANDATE_REFERENCE_LENGTH = 35
const REMITTANCE_LENGTH = 80 - MAX_MANDATE_REFERENCE_LENGTH

export type StandardEntryClass = "WEB" | "PPD"

/** WEB for a mandate the payer authorised on the web, PPD for one authorised on paper or by telephone. */
export const standardEntryClassOf = (item: SubmissionItem): StandardEntryClass => (item.authorisation_source === "web" ? "WEB" : "PPD")

/**
 * The mandate actions an ACH file has entries for: a setup is a prenote. ACH has no instruction
 * that cancels or converts an authorisation (the originator simply stops, or goes on, debiting),
 * so such an item completes without the bank and is not handed to the writer, which refuses it.
 */
export const ACH_MANDATE_ACTIONS: ReadonlyArray<MandateInstruction["action"]> = ["setup"]

const headerIssue = (header: SubmissionHeader): string | undefined => {
  const o: Originator = header.originator
  if (header.currency !== "USD") return `an ACH submission is in USD, not ${header.currency}`
  if (o.scheme_identifier.trim() === "" || !fitsAlpha(o.scheme_identifier, 10)) return `the company identification "${o.scheme_identifier}" must be 1-10 ASCII characters`
  if (!fitsAlpha(header.id, 20)) return `the submission id "${header.id}" must fit the company discretionary data (20 ASCII characters)`
  return accountIssue("the originator's account", o.account, false)
}

const itemIssue = (item: SubmissionItem): string | undefined => {
  if (item.kind === "mandate" && !ACH_MANDATE_ACTIONS.includes(item.action)) {
    return `ACH has no instruction to ${item.action} a mandate (mandate ${item.mandate}): complete it without the bank`
  }
  const id = item.kind === "collection" ? item.payment : item.mandate
  if (!fitsAlpha(id, MAX_ID_LENGTH)) return `the id ${id} does not fit the individual identification number (${MAX_ID_LENGTH} ASCII characters)`
  if (item.mandate_reference === "" || !fitsAlpha(item.mandate_reference, MAX_MANDATE_REFERENCE_LENGTH)) {
    return `the mandate reference "${item.mandate_reference}" must be 1-${MAX_MANDATE_REFERENCE_LENGTH} ASCII characters`
  }
  if (item.kind === "collection") {
    if (item.currency !== "USD") return `payment ${id} is in ${item.currency}; ACH debits are in USD`
    if (!Number.isInteger(item.amount) || item.amount < 1 || item.amount > MAX_ENTRY_AMOUNT) return `payment ${id}'s amount ${item.amount} is not 1-${MAX_ENTRY_AMOUNT} cents`
  }
  return accountIssue(`${id}'s account`, item.debtor)
}

const submissionWriter = (header: SubmissionHeader): SubmissionWriter => {
  const o = header.originator
  const routing = o.account.routing_number ?? ""
  const identity: BatchIdentity = { serviceClass: SERVICE_CLASS.debits, companyId: alpha(o.scheme_identifier, 10), odfi: routing.slice(0, 8) }
  const file = fileWriter()
  const headerProblem = headerIssue(header)
  let error = headerProblem === undefined ? undefined : new FileFormatError("file header", headerProblem)
  let batch: { readonly sec: StandardEntryClass; readonly effectiveDate: LocalDate } | undefined
  let itemCount = 0
  let total = 0

  const openBatch = (sec: StandardEntryClass, effectiveDate: LocalDate): string => {
    batch = { sec, effectiveDate }
    return file.openBatch(identity, (number) =>
      record(
        "5", SERVICE_CLASS.debits, alpha(o.name, 16), alpha(header.id, 20), identity.companyId, sec, alpha(COMPANY_ENTRY_DESCRIPTION, 10),
        yymmdd(header.processing_date), yymmdd(effectiveDate), "   ", "1", identity.odfi, numeric(number, 7)
      ))
  }

  const entry = (item: SubmissionItem, sec: StandardEntryClass): string => {
    const debtor = item.debtor
    const codes = TRANSACTION_CODE[debtor.account_type ?? "checking"]
    const transactionCode = item.kind === "collection" ? codes.debit : codes.prenote
    const amount = item.kind === "collection" ? item.amount : 0
    const id = item.kind === "collection" ? item.payment : item.mandate
    const routingNumber = debtor.routing_number ?? ""
    // WEB's payment type code (positions 77-78): R for a recurring authorisation, S for a single entry.
    const paymentType = sec === "WEB" ? (item.kind === "collection" && item.sequence === "one_off" ? "S " : "R ") : "  "
    const remittance = item.kind === "collection" ? (item.remittance ?? "") : ""
    return file.entry({ transactionCode, rdfi: routingNumber.slice(0, 8), amount, addenda: 1 }, (trace) =>
      record(
        "6", transactionCode, routingNumber, alpha(debtor.account_number ?? "", 17), numeric(amount, 10), alpha(id, 15),
        alpha(debtor.account_holder_name, 22), paymentType, "1", trace
      ) + record("7", "05", alpha(item.mandate_reference, MAX_MANDATE_REFERENCE_LENGTH), alpha(remittance, REMITTANCE_LENGTH), "0001", trace.slice(8)))
  }

  return {
    begin: () => {
      // A header the file cannot state writes nothing; end answers why.
      if (error !== undefined) return ""
      return file.header({ routing, createdAt: header.created_at, id: header.id, originName: o.name, reference: header.id.slice(-8) })
    },
    item: (item: SubmissionItem) => {
      itemCount += 1
      if (item.kind === "collection") total += item.amount
      if (error !== undefined) return ""
      const problem = itemIssue(item)
      if (problem !== undefined) {
        error = new FileFormatError(`item ${itemCount}`, problem)
        return ""
      }
      const sec = standardEntryClassOf(item)
      const effectiveDate = item.kind === "collection" ? item.charge_date : header.processing_date
      const opened = batch === undefined || batch.sec !== sec || batch.effectiveDate !== effectiveDate || !file.fits(1) ? openBatch(sec, effectiveDate) : ""
      return opened + entry(item, sec)
    },
    end: () => {
      if (itemCount !== header.item_count || total !== header.total_amount) {
        return new FileFormatError(`item ${itemCount}`, `the header promised ${header.item_count} items totalling ${header.total_amount}; ${itemCount} totalling ${total} were written`)
      }
      if (error !== undefined) return error
      if (file.batchCount() === 0) return new FileFormatError("file header", "an ACH file needs at least one entry")
      return file.finish()
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Reading a submission back

const failAt = (line: number, message: string) => new FileFormatError(`line ${line}`, message)

const debtorOf = (entry: Entry): BankAccount => {
  const type = accountTypeOfCode(entry.transactionCode)
  return {
    account_holder_name: entry.name,
    routing_number: entry.routingNumber,
    account_number: entry.accountNumber,
    ...(type === undefined ? {} : { account_type: type })
  }
}

const submittedOf = (entry: Entry): SubmittedItem | FileFormatError => {
  const code = entry.transactionCode
  const prenote = code === TRANSACTION_CODE.checking.prenote || code === TRANSACTION_CODE.savings.prenote
  const debit = code === TRANSACTION_CODE.checking.debit || code === TRANSACTION_CODE.savings.debit
  if (!prenote && !debit) return failAt(entry.line, `transaction code ${code} (positions 2-3) is not a checking or savings debit (27, 37) or prenote (28, 38)`)
  if (prenote && entry.amount !== 0) return failAt(entry.line, "a prenote's amount (positions 30-39) must be zero")
  if (debit && entry.amount === 0) return failAt(entry.line, "a debit's amount (positions 30-39) must not be zero")
  const addenda = entry.addenda[0]
  if (addenda === undefined || addenda.typeCode !== "05" || entry.addenda.length > 1) {
    return failAt(entry.line, "the entry must have one Addenda 05 record, which carries the mandate's reference")
  }
  const mandateReference = at(addenda.text, 4, 3 + MAX_MANDATE_REFERENCE_LENGTH).trim()
  const common = {
    target: { by: "end_to_end" as const, id: entry.identification },
    mandate_reference: mandateReference,
    debtor: debtorOf(entry),
    scheme_reference: entry.trace,
    location: `line ${entry.line}`
  }
  return prenote
    ? { kind: "mandate", action: "setup", ...common }
    : { kind: "collection", amount: entry.amount, charge_date: entry.batch.effectiveDate, ...common }
}

const submissionReader = (): SubmissionReader => {
  const reader = structureReader<SubmittedItem>(
    (batch) => (batch.sec === "PPD" || batch.sec === "WEB" ? undefined : `standard entry class ${batch.sec} (positions 51-53): paykit's ACH submissions are PPD and WEB debits`),
    submittedOf
  )
  let count = 0
  const counted = (got: ReadonlyArray<SubmittedItem> | FileFormatError) => {
    if (!(got instanceof FileFormatError)) count += got.length
    return got
  }
  return {
    write: (chunk) => counted(reader.write(chunk)),
    end: () => {
      const items = counted(reader.end())
      if (items instanceof FileFormatError) return items
      const first = reader.firstBatch()
      const totals = reader.fileTotals()
      if (first === undefined || totals === undefined) return new FileFormatError("line 2", "the file has no batches")
      const facts: SubmissionFacts = {
        id: first.companyDiscretionaryData.trim(),
        processing_date: dateOf(first.companyDescriptiveDate) ?? first.effectiveDate,
        originator: { name: first.companyName.trim(), scheme_identifier: first.companyId.trim() },
        item_count: count,
        total_amount: totals.totalDebit
      }
      return { items, facts }
    }
  }
}

export const nachaSubmission = {
  format: "nacha" as const,
  contentType: "text/plain; charset=us-ascii",
  extension: "txt",
  mandateActions: ACH_MANDATE_ACTIONS,
  writer: submissionWriter,
  reader: submissionReader
}
