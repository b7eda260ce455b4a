import { type LocalDate, parseLocalDate } from "@paykit/core"
import {
  type Collection,
  type CollectionSequence,
  FileFormatError,
  type SubmissionFacts,
  type SubmissionHeader,
  type SubmissionItem,
  type SubmissionReader,
  type SubmissionWriter,
  type SubmittedItem
} from "../model.ts"
import { accountTree, agentTree, bicOf, debtorAccount, ibanOf, ID_MAX, NAME_MAX, REMITTANCE_MAX } from "./fields.ts"
import { decimalOf, minorOf, SEPA_MAX_AMOUNT, sepaIdentifier, sepaText } from "./text.ts"
import { at, handlers, messageReader, type MessageElement, step } from "./iso-message.ts"
import { closeTag, currencyAttribute, openTag, render, type Tree, XML_DECLARATION } from "./xml-writer.ts"

/**
 * SEPA Core collections as a `pain.008.001.02` (CustomerDirectDebitInitiationV02) file, written
 * one collection a call and read back the same way. One `PmtInf` batch a run of collections with
 * the same sequence type and collection date; the payment's id is its `EndToEndId`, the mandate's
 * reference its `MndtId`. docs/bank-rails.md maps every field.
 */

export const PAIN_008 = "pain.008.001.02"
export const PAIN_008_NAMESPACE = "urn:iso:std:iso:20022:tech:xsd:pain.008.001.02"
const MESSAGE = "CstmrDrctDbtInitn"
const ROOT = `/Document/${MESSAGE}`

/** SEPA's sequence types; a re-presentation is collected again as a recurring collection. */
const SEQUENCE_TYPES: Readonly<Record<CollectionSequence, string>> = {
  first: "FRST",
  recurring: "RCUR",
  final: "FNAL",
  one_off: "OOFF",
  represented: "RCUR"
}
const SEQUENCES: Readonly<Record<string, CollectionSequence>> = { FRST: "first", RCUR: "recurring", FNAL: "final", OOFF: "one_off" }

/** A batch's id is the submission's and its number (`BS0123-2`): room for a 7-digit number. */
const BATCH_PREFIX_MAX = ID_MAX - 8

const transactionPath = (batch: number, transaction: number): string => `${ROOT}/${step("PmtInf", batch)}/${step("DrctDbtTxInf", transaction)}`

// ---------------------------------------------------------------------------------------------
// Writing

/** What a collection's transaction needs that a file cannot print without, or undefined. */
const collectionProblem = (c: Collection): string | undefined => {
  if (c.currency !== "EUR") return `a SEPA Core collection is in EUR, not ${c.currency}`
  if (!Number.isSafeInteger(c.amount) || c.amount < 1 || c.amount > SEPA_MAX_AMOUNT) {
    return `a SEPA Core collection's amount is from 1 to ${SEPA_MAX_AMOUNT} cents, not ${c.amount}`
  }
  if (ibanOf(c.debtor.iban) === undefined) return "the payer's account has no valid IBAN"
  if (c.debtor.bic !== undefined && bicOf(c.debtor.bic) === undefined) return `the payer's BIC ${c.debtor.bic} is not a BIC`
  if (sepaText(c.debtor.account_holder_name, NAME_MAX) === "") return "the payer's name is empty"
  if (sepaIdentifier(c.mandate_reference, ID_MAX) === "") return "the mandate's reference is empty"
  if (sepaIdentifier(c.payment, ID_MAX) === "") return "the payment's id is empty"
  return undefined
}

const transactionTree = (c: Collection): Tree => {
  const remittance = c.remittance === null ? "" : sepaText(c.remittance, REMITTANCE_MAX)
  return ["DrctDbtTxInf", [
    ["PmtId", [["EndToEndId", sepaIdentifier(c.payment, ID_MAX)]]],
    ["InstdAmt", decimalOf(c.amount), currencyAttribute("EUR")],
    ["DrctDbtTx", [["MndtRltdInf", [["MndtId", sepaIdentifier(c.mandate_reference, ID_MAX)], ["DtOfSgntr", c.mandate_signed_on]]]]],
    agentTree("DbtrAgt", bicOf(c.debtor.bic)),
    ["Dbtr", [["Nm", sepaText(c.debtor.account_holder_name, NAME_MAX)]]],
    accountTree("DbtrAcct", ibanOf(c.debtor.iban) ?? ""),
    remittance === "" ? undefined : ["RmtInf", [["Ustrd", remittance]]]
  ]]
}

/** What the creditor's side of the file needs, or undefined. */
const headerProblem = (header: SubmissionHeader): string | undefined => {
  const creditor = header.originator
  if (header.currency !== "EUR") return `a SEPA Core submission is in EUR, not ${header.currency}`
  if (!Number.isSafeInteger(header.item_count) || header.item_count < 0) return `the item count ${header.item_count} is not a count`
  if (!Number.isSafeInteger(header.total_amount) || header.total_amount < 0) return `the total ${header.total_amount} is not an amount`
  if (sepaIdentifier(header.id, ID_MAX) === "") return "the submission's id is empty"
  if (sepaText(creditor.name, NAME_MAX) === "") return "the creditor's name is empty"
  if (ibanOf(creditor.account.iban) === undefined) return "the creditor's account has no valid IBAN"
  if (creditor.account.bic !== undefined && bicOf(creditor.account.bic) === undefined) return `the creditor's BIC ${creditor.account.bic} is not a BIC`
  if (sepaIdentifier(creditor.scheme_identifier, ID_MAX) === "") return "the creditor has no SEPA creditor identifier"
  return undefined
}

const groupHeader = (header: SubmissionHeader): string =>
  XML_DECLARATION +
  `<Document xmlns="${PAIN_008_NAMESPACE}">\n` +
  openTag(MESSAGE, 1) +
  render(["GrpHdr", [
    ["MsgId", sepaIdentifier(header.id, ID_MAX)],
    ["CreDtTm", header.created_at],
    ["NbOfTxs", String(header.item_count)],
    ["CtrlSum", decimalOf(header.total_amount)],
    ["InitgPty", [["Nm", sepaText(header.originator.name, NAME_MAX)]]]
  ]], 2)

/** A batch's opening: everything of `PmtInf` before its transactions. */
const batchOpening = (header: SubmissionHeader, id: string, sequenceType: string, date: LocalDate): string => {
  const creditor = header.originator
  const fields: ReadonlyArray<Tree> = [
    ["PmtInfId", id],
    ["PmtMtd", "DD"],
    ["PmtTpInf", [["SvcLvl", [["Cd", "SEPA"]]], ["LclInstrm", [["Cd", "CORE"]]], ["SeqTp", sequenceType]]],
    ["ReqdColltnDt", date],
    ["Cdtr", [["Nm", sepaText(creditor.name, NAME_MAX)]]],
    accountTree("CdtrAcct", ibanOf(creditor.account.iban) ?? ""),
    agentTree("CdtrAgt", bicOf(creditor.account.bic)),
    ["ChrgBr", "SLEV"],
    ["CdtrSchmeId", [["Id", [["PrvtId", [["Othr", [
      ["Id", sepaIdentifier(creditor.scheme_identifier, ID_MAX)],
      ["SchmeNm", [["Prtry", "SEPA"]]]
    ]]]]]]]]
  ]
  return openTag("PmtInf", 2) + fields.map((field) => render(field, 3)).join("")
}

/**
 * Writes a pain.008: the group header (which states the item count and control sum the header
 * promised), then a batch whenever the sequence type or the collection date changes. A mandate
 * instruction has no record here (SEPA carries the mandate with its first collection): handing
 * one makes `end` fail, as does any collection the file cannot carry, or totals that differ
 * from the header's.
 */
export const pain008Writer = (header: SubmissionHeader): SubmissionWriter => {
  const problem = headerProblem(header)
  let failure: FileFormatError | undefined = problem === undefined ? undefined : new FileFormatError(`${ROOT}/GrpHdr`, problem)
  let count = 0
  let total = 0
  let batches = 0
  let inBatch = 0
  let run: string | undefined
  const refuse = (location: string, message: string): string => {
    failure ??= new FileFormatError(location, message)
    return ""
  }
  const item = (item: SubmissionItem): string => {
    if (item.kind === "mandate") {
      return refuse(ROOT, `pain.008 has no record for a mandate instruction (${item.mandate}): a SEPA mandate travels with its first collection`)
    }
    const sequenceType = SEQUENCE_TYPES[item.sequence]
    const key = `${sequenceType} ${item.charge_date}`
    const opens = key !== run
    const trouble = collectionProblem(item)
    if (trouble !== undefined) return refuse(transactionPath(opens ? batches + 1 : batches, opens ? 1 : inBatch + 1), trouble)
    let text = ""
    if (opens) {
      if (run !== undefined) text += closeTag("PmtInf", 2)
      batches += 1
      inBatch = 0
      run = key
      text += batchOpening(header, `${sepaIdentifier(header.id, BATCH_PREFIX_MAX)}-${batches}`, sequenceType, item.charge_date)
    }
    inBatch += 1
    count += 1
    total += item.amount
    return text + render(transactionTree(item), 3)
  }
  const end = (): string | FileFormatError => {
    if (failure !== undefined) return failure
    if (count === 0) return new FileFormatError(ROOT, "a pain.008 carries at least one collection")
    if (count !== header.item_count || total !== header.total_amount) {
      return new FileFormatError(`${ROOT}/GrpHdr`, `the header promised ${header.item_count} collections totalling ${header.total_amount}; ${count} totalling ${total} were written`)
    }
    return closeTag("PmtInf", 2) + closeTag(MESSAGE, 1) + "</Document>\n"
  }
  return { begin: () => groupHeader(header), item, end }
}

// ---------------------------------------------------------------------------------------------
// Reading

interface Batch {
  id?: string
  sequence?: string
  date?: LocalDate
}

interface Transaction {
  endToEnd?: string
  sequence?: string
  amount?: number
  mandate?: string
  readonly debtor: ReturnType<typeof debtorAccount>
}

const TRANSACTION = "PmtInf/DrctDbtTxInf"

/** Reads a pain.008 back into the collections it carries, as the bank it is handed to would. */
export const pain008Reader = (): SubmissionReader => {
  let messageId: string | undefined
  let declaredCount: string | undefined
  let declaredTotal: number | undefined
  let initiator: string | undefined
  let creditorName: string | undefined
  let creditorIdentifier: string | undefined
  let earliest: LocalDate | undefined
  let count = 0
  let total = 0
  let batch: Batch = {}
  let transaction: Transaction = { debtor: debtorAccount() }

  const problem = (el: MessageElement, message: string): FileFormatError => new FileFormatError(at(el.path, el.line), message)
  const date = (el: MessageElement): LocalDate | FileFormatError => parseLocalDate(el.text) ?? problem(el, `${el.text} is not a date (YYYY-MM-DD)`)

  const finish = (el: MessageElement, out: Array<SubmittedItem>): FileFormatError | undefined => {
    const { endToEnd, amount, mandate } = transaction
    const sequence = SEQUENCES[transaction.sequence ?? batch.sequence ?? ""]
    const debtor = transaction.debtor.account()
    if (endToEnd === undefined) return problem(el, "the collection has no EndToEndId")
    if (amount === undefined) return problem(el, "the collection has no InstdAmt")
    if (mandate === undefined) return problem(el, "the collection has no MndtId")
    if (sequence === undefined) return problem(el, "the collection has no sequence type (FRST, RCUR, FNAL or OOFF)")
    if (batch.date === undefined) return problem(el, "the collection's batch has no ReqdColltnDt")
    if (debtor === undefined) return problem(el, "the collection has no Dbtr/Nm")
    if (debtor.iban === undefined) return problem(el, "the collection has no DbtrAcct IBAN")
    count += 1
    total += amount
    out.push({
      kind: "collection",
      target: { by: "end_to_end", id: endToEnd },
      mandate_reference: mandate,
      amount,
      charge_date: batch.date,
      sequence,
      debtor,
      ...(batch.id === undefined ? {} : { batch: batch.id }),
      location: el.path
    })
    return undefined
  }

  const amount = (el: MessageElement): FileFormatError | undefined => {
    if (el.attributes["Ccy"] !== "EUR") return problem(el, `a SEPA Core collection is in EUR, not ${el.attributes["Ccy"] ?? "no currency"}`)
    const minor = minorOf(el.text)
    if (minor === undefined) return problem(el, `${el.text} is not an amount in euros and cents`)
    transaction.amount = minor
    return undefined
  }
  const collectionDate = (el: MessageElement): FileFormatError | undefined => {
    const d = date(el)
    if (d instanceof FileFormatError) return d
    batch.date = d
    if (earliest === undefined || d < earliest) earliest = d
    return undefined
  }
  const controlSum = (el: MessageElement): FileFormatError | undefined => {
    declaredTotal = minorOf(el.text)
    return declaredTotal === undefined ? problem(el, `${el.text} is not an amount in euros and cents`) : undefined
  }
  const close = handlers<SubmittedItem>({
    "GrpHdr/MsgId": (el) => void (messageId = el.text),
    "GrpHdr/NbOfTxs": (el) => void (declaredCount = el.text),
    "GrpHdr/CtrlSum": controlSum,
    "GrpHdr/InitgPty/Nm": (el) => void (initiator = el.text),
    "PmtInf/PmtInfId": (el) => void (batch.id = el.text),
    "PmtInf/PmtTpInf/SeqTp": (el) => void (batch.sequence = el.text),
    "PmtInf/ReqdColltnDt": collectionDate,
    "PmtInf/Cdtr/Nm": (el) => void (creditorName ??= el.text),
    "PmtInf/CdtrSchmeId/Id/PrvtId/Othr/Id": (el) => void (creditorIdentifier ??= el.text),
    [`${TRANSACTION}/PmtId/EndToEndId`]: (el) => void (transaction.endToEnd = el.text),
    [`${TRANSACTION}/PmtTpInf/SeqTp`]: (el) => void (transaction.sequence = el.text),
    [`${TRANSACTION}/InstdAmt`]: amount,
    [`${TRANSACTION}/DrctDbtTx/MndtRltdInf/MndtId`]: (el) => void (transaction.mandate = el.text),
    [`${TRANSACTION}/DbtrAgt/FinInstnId/BIC`]: (el) => transaction.debtor.bic(el.text),
    [`${TRANSACTION}/Dbtr/Nm`]: (el) => transaction.debtor.name(el.text),
    [`${TRANSACTION}/DbtrAcct/Id/IBAN`]: (el) => transaction.debtor.iban(el.text),
    [TRANSACTION]: finish
  })
  const open = handlers<SubmittedItem>({
    PmtInf: () => void (batch = {}),
    [TRANSACTION]: () => void (transaction = { debtor: debtorAccount() })
  })
  let facts: SubmissionFacts | undefined
  const end = (): FileFormatError | undefined => {
    if (messageId === undefined) return new FileFormatError(`${ROOT}/GrpHdr`, "the group header has no MsgId")
    if (count === 0 || earliest === undefined) return new FileFormatError(ROOT, "the file carries no collection")
    if (declaredCount !== String(count)) return new FileFormatError(`${ROOT}/GrpHdr/NbOfTxs`, `the group header says ${declaredCount ?? "nothing"}; the file has ${count} collections`)
    if (declaredTotal !== undefined && declaredTotal !== total) {
      return new FileFormatError(`${ROOT}/GrpHdr/CtrlSum`, `the group header says ${decimalOf(declaredTotal)}; the collections total ${decimalOf(total)}`)
    }
    facts = {
      id: messageId,
      processing_date: earliest,
      originator: { name: initiator ?? creditorName ?? "", scheme_identifier: creditorIdentifier ?? "" },
      item_count: count,
      total_amount: total
    }
    return undefined
  }
  const reader = messageReader<SubmittedItem>({
    format: PAIN_008,
    namespace: PAIN_008_NAMESPACE,
    message: MESSAGE,
    open,
    close,
    end
  })
  return {
    write: reader.write,
    end: () => {
      const items = reader.end()
      if (items instanceof FileFormatError) return items
      return facts === undefined ? new FileFormatError(ROOT, "the file carries no collection") : { items, facts }
    }
  }
}
