import { type LocalDate, parseLocalDate } from "@paykit/core"
import { type EntryTarget, FileFormatError, type ReportEntry, type ReportHeader, type ReportReader, type ReportWriter } from "../model.ts"
import { accountTree, agentTree, bicOf, debtorAccount, ibanOf, ID_MAX, NAME_MAX, NOT_PROVIDED } from "./fields.ts"
import { PAIN_008 } from "./pain008.ts"
import { decimalOf, minorOf, sepaIdentifier, sepaText } from "./text.ts"
import { at, type ElementHandler, handlers, messageReader, type MessageElement, step } from "./iso-message.ts"
import { closeTag, currencyAttribute, openTag, render, type Tree, XML_DECLARATION } from "./xml-writer.ts"

/**
 * The bank's status report on a pain.008 (`pain.002.001.03`, CustomerPaymentStatusReportV03):
 * the collections it rejected before settlement, each with the reason code of its
 * `StsRsnInf/Rsn`. A rejected transaction names its collection by `OrgnlEndToEndId` (the
 * payment's id); one naming only a mandate (`OrgnlTxRef/MndtRltdInf/MndtId`, no end-to-end id
 * and no amount) rejects the mandate. A whole batch (`PmtInfSts`) or the whole file (`GrpSts`)
 * refused without its transactions listed is one entry naming the submission.
 */

export const PAIN_002 = "pain.002.001.03"
export const PAIN_002_NAMESPACE = "urn:iso:std:iso:20022:tech:xsd:pain.002.001.03"
const MESSAGE = "CstmrPmtStsRpt"
const ROOT = `/Document/${MESSAGE}`
const REJECTED = "RJCT"
const SCHEME = "sepa_core"

/** A reason as `Rsn` states it: an ISO code (`Cd`, four characters) or a bank's own (`Prtry`). */
const ISO_CODE = /^[A-Z0-9]{4}$/

const reasonTree = (code: string): Tree => ["StsRsnInf", [["Rsn", [ISO_CODE.test(code) ? ["Cd", code] : ["Prtry", sepaText(code, ID_MAX)]]]]]

// ---------------------------------------------------------------------------------------------
// Reading

interface Status {
  status?: string
  code?: string
}

interface Batch extends Status {
  id?: string
  /** Transactions listed (rejected or not). */
  listed: number
}

interface Transaction extends Status {
  endToEnd?: string
  amount?: number
  currency?: string
  requestedDate?: LocalDate
  mandate?: string
  readonly debtor: ReturnType<typeof debtorAccount>
}

const BATCH = "OrgnlPmtInfAndSts"
const TRANSACTION = `${BATCH}/TxInfAndSts`

export const pain002Reader = (): ReportReader => {
  const group: Status & { message?: string } = {}
  let batch: Batch = { listed: 0 }
  let transaction: Transaction = { debtor: debtorAccount() }
  /** Whether any batch or transaction was reported rejected: then the group's status is their sum, not an entry. */
  let namedAny = false

  const problem = (el: MessageElement, message: string): FileFormatError => new FileFormatError(at(el.path, el.line), message)
  const base = (code: string, location: string) => ({
    scheme: SCHEME,
    format: PAIN_002,
    code,
    ...(group.message === undefined ? {} : { submission: group.message }),
    location
  } as const)

  const targetOf = (el: MessageElement): EntryTarget | FileFormatError => {
    const { endToEnd, mandate, amount, requestedDate } = transaction
    if (endToEnd !== undefined && endToEnd !== NOT_PROVIDED) return { by: "end_to_end", id: endToEnd }
    if (mandate === undefined) return problem(el, "the rejected transaction names neither its OrgnlEndToEndId nor its mandate (OrgnlTxRef/MndtRltdInf/MndtId)")
    return {
      by: "mandate_reference",
      reference: mandate,
      ...(amount === undefined ? {} : { amount }),
      ...(requestedDate === undefined ? {} : { original_date: requestedDate })
    }
  }

  const finishTransaction = (el: MessageElement, out: Array<ReportEntry>): FileFormatError | undefined => {
    batch.listed += 1
    const status = transaction.status ?? batch.status ?? group.status
    if (status !== REJECTED) return undefined
    const code = transaction.code ?? batch.code ?? group.code
    if (code === undefined) return problem(el, "the rejected transaction gives no reason code (StsRsnInf/Rsn)")
    const target = targetOf(el)
    if (target instanceof FileFormatError) return target
    const debtor = transaction.debtor.account()
    namedAny = true
    out.push({
      ...base(code, el.path),
      kind: target.by === "mandate_reference" && target.amount === undefined ? "mandate_rejected" : "collection_returned",
      target,
      ...(transaction.amount === undefined ? {} : { amount: transaction.amount }),
      ...(transaction.currency === undefined ? {} : { currency: transaction.currency }),
      ...(debtor === undefined ? {} : { debtor }),
      ...(batch.id === undefined ? {} : { batch: batch.id })
    })
    return undefined
  }

  const finishBatch = (el: MessageElement, out: Array<ReportEntry>): FileFormatError | undefined => {
    if (batch.status !== REJECTED || batch.listed > 0) return undefined
    const code = batch.code ?? group.code
    if (code === undefined) return problem(el, "the rejected batch gives no reason code (StsRsnInf/Rsn)")
    if (group.message === undefined || batch.id === undefined) return problem(el, "the rejected batch names no OrgnlPmtInfId")
    namedAny = true
    out.push({ ...base(code, el.path), kind: "collection_returned", target: { by: "submission", id: group.message, batch: batch.id }, batch: batch.id })
    return undefined
  }

  const amountOf = (el: MessageElement): FileFormatError | undefined => {
    const amount = minorOf(el.text)
    if (amount === undefined) return problem(el, `${el.text} is not an amount in euros and cents`)
    transaction.amount = amount
    const currency = el.attributes["Ccy"]
    if (currency !== undefined) transaction.currency = currency
    return undefined
  }

  const requestedDate = (el: MessageElement): FileFormatError | undefined => {
    const date = parseLocalDate(el.text)
    if (date === undefined) return problem(el, `${el.text} is not a date (YYYY-MM-DD)`)
    transaction.requestedDate = date
    return undefined
  }
  const messageName = (el: MessageElement): FileFormatError | undefined =>
    el.text.startsWith("pain.008") ? undefined : problem(el, `the report answers a ${el.text} message, not a ${PAIN_008} (direct debits)`)
  /** `Rsn/Cd` and `Rsn/Prtry` of the status of `prefix`: the first one given. */
  const reasons = (prefix: string, status: () => Status): Record<string, ElementHandler<ReportEntry>> => ({
    [`${prefix}/StsRsnInf/Rsn/Cd`]: (el) => void (status().code ??= el.text),
    [`${prefix}/StsRsnInf/Rsn/Prtry`]: (el) => void (status().code ??= el.text)
  })
  const close = handlers<ReportEntry>({
    ...reasons("OrgnlGrpInfAndSts", () => group),
    ...reasons(BATCH, () => batch),
    ...reasons(TRANSACTION, () => transaction),
    "OrgnlGrpInfAndSts/OrgnlMsgId": (el) => void (group.message = el.text),
    "OrgnlGrpInfAndSts/OrgnlMsgNmId": messageName,
    "OrgnlGrpInfAndSts/GrpSts": (el) => void (group.status = el.text),
    OrgnlGrpInfAndSts: (el) => (group.message === undefined ? problem(el, "the report names no OrgnlMsgId") : undefined),
    [`${BATCH}/OrgnlPmtInfId`]: (el) => void (batch.id = el.text),
    [`${BATCH}/PmtInfSts`]: (el) => void (batch.status = el.text),
    [BATCH]: finishBatch,
    [`${TRANSACTION}/OrgnlEndToEndId`]: (el) => void (transaction.endToEnd = el.text),
    [`${TRANSACTION}/TxSts`]: (el) => void (transaction.status = el.text),
    [`${TRANSACTION}/OrgnlTxRef/Amt/InstdAmt`]: amountOf,
    [`${TRANSACTION}/OrgnlTxRef/ReqdColltnDt`]: requestedDate,
    [`${TRANSACTION}/OrgnlTxRef/MndtRltdInf/MndtId`]: (el) => void (transaction.mandate = el.text),
    [`${TRANSACTION}/OrgnlTxRef/Dbtr/Nm`]: (el) => transaction.debtor.name(el.text),
    [`${TRANSACTION}/OrgnlTxRef/DbtrAcct/Id/IBAN`]: (el) => transaction.debtor.iban(el.text),
    [`${TRANSACTION}/OrgnlTxRef/DbtrAgt/FinInstnId/BIC`]: (el) => transaction.debtor.bic(el.text),
    [TRANSACTION]: finishTransaction
  })
  const open = handlers<ReportEntry>({
    [BATCH]: () => void (batch = { listed: 0 }),
    [TRANSACTION]: () => void (transaction = { debtor: debtorAccount() })
  })
  const end = (out: Array<ReportEntry>): FileFormatError | undefined => {
    if (group.message === undefined) return new FileFormatError(`${ROOT}/OrgnlGrpInfAndSts`, "the report names no OrgnlMsgId")
    if (group.status !== REJECTED || namedAny) return undefined
    if (group.code === undefined) return new FileFormatError(`${ROOT}/OrgnlGrpInfAndSts`, "the rejected file gives no reason code (StsRsnInf/Rsn)")
    out.push({ ...base(group.code, `${ROOT}/OrgnlGrpInfAndSts`), kind: "collection_returned", target: { by: "submission", id: group.message } })
    return undefined
  }
  return messageReader<ReportEntry>({
    format: PAIN_002,
    namespace: PAIN_002_NAMESPACE,
    message: MESSAGE,
    open,
    close,
    end
  })
}

// ---------------------------------------------------------------------------------------------
// Writing

/** The submission an entry is about: its target's when it names one, else the entry's own. */
const submissionOf = (entry: ReportEntry): string | undefined => (entry.target.by === "submission" ? entry.target.id : entry.submission)

/** What an entry needs that a pain.002 cannot state it without, or undefined. */
const entryProblem = (entry: ReportEntry): string | undefined => {
  const { kind, target } = entry
  if (kind !== "collection_returned" && kind !== "mandate_rejected") return `a pain.002 reports rejected collections and mandates, not ${kind}`
  if (entry.code.trim() === "") return "the entry has no reason code"
  if (entry.currency !== undefined && entry.currency !== "EUR") return `a SEPA Core report is in EUR, not ${entry.currency}`
  const aboutMandate = target.by === "mandate_reference" && target.amount === undefined
  if ((kind === "mandate_rejected") !== aboutMandate) {
    return "a pain.002 rejects a mandate by naming only its reference (no end-to-end id, no amount), and a collection otherwise"
  }
  if (target.by === "mandate_reference" && target.amount !== undefined && entry.amount !== undefined && entry.amount !== target.amount) {
    return `the entry's amount ${entry.amount} differs from its target's ${target.amount}`
  }
  if (target.by !== "submission" && entry.batch === undefined) return "a pain.002 names each rejected transaction's batch (OrgnlPmtInfId): the entry has none"
  return undefined
}

const transactionTree = (entry: ReportEntry): Tree => {
  const { target, debtor } = entry
  const amount = target.by === "mandate_reference" ? (target.amount ?? entry.amount) : entry.amount
  const iban = ibanOf(debtor?.iban)
  return ["TxInfAndSts", [
    target.by === "end_to_end" ? ["OrgnlEndToEndId", target.id] : undefined,
    ["TxSts", REJECTED],
    reasonTree(entry.code),
    ["OrgnlTxRef", [
      amount === undefined ? undefined : ["Amt", [["InstdAmt", decimalOf(amount), currencyAttribute("EUR")]]],
      target.by === "mandate_reference" && target.original_date !== undefined ? ["ReqdColltnDt", target.original_date] : undefined,
      target.by === "mandate_reference" ? ["MndtRltdInf", [["MndtId", target.reference]]] : undefined,
      debtor === undefined ? undefined : ["Dbtr", [["Nm", sepaText(debtor.account_holder_name, NAME_MAX)]]],
      iban === undefined ? undefined : accountTree("DbtrAcct", iban),
      bicOf(debtor?.bic) === undefined ? undefined : agentTree("DbtrAgt", bicOf(debtor?.bic))
    ]]
  ]]
}

/**
 * Writes a pain.002 on one submission, as the sandbox bank does after reading its pain.008: a
 * batch (`OrgnlPmtInfAndSts`) a run of entries with the same `batch`. Each entry names the
 * submission it answers (`submission`, or its target's) and, unless it refuses a whole batch or
 * the whole file, its batch; a whole file refused is the report's only entry. What a pain.002
 * cannot state (an effective date) is not written.
 */
export const pain002Writer = (header: ReportHeader): ReportWriter => {
  let failure: FileFormatError | undefined
  let submission: string | undefined
  let wholeFile = false
  let batches = 0
  let inBatch = 0
  let openBatch: string | undefined
  const refuse = (location: string, message: string): string => {
    failure ??= new FileFormatError(location, message)
    return ""
  }
  const closing = (): string => {
    if (openBatch === undefined) return ""
    openBatch = undefined
    return closeTag(BATCH, 2)
  }
  const groupStatus = (entry: ReportEntry, rejectsAll: boolean): string =>
    render(["OrgnlGrpInfAndSts", [
      ["OrgnlMsgId", sepaIdentifier(submissionOf(entry) ?? "", ID_MAX)],
      ["OrgnlMsgNmId", PAIN_008],
      rejectsAll ? ["GrpSts", REJECTED] : undefined,
      rejectsAll ? reasonTree(entry.code) : undefined
    ]], 2)
  const entry = (entry: ReportEntry): string => {
    const startsBatch = entry.target.by === "submission" || entry.batch !== openBatch
    const location = startsBatch ? `${ROOT}/${step(BATCH, batches + 1)}` : `${ROOT}/${step(BATCH, batches)}/${step("TxInfAndSts", inBatch + 1)}`
    const problem = entryProblem(entry)
    if (problem !== undefined) return refuse(location, problem)
    const about = submissionOf(entry)
    if (about === undefined) return refuse(location, "a pain.002 answers one submission: the entry names none")
    if (wholeFile) return refuse(location, "the report refuses the whole file: it has no other entry")
    let text = ""
    if (submission === undefined) {
      submission = about
      const rejectsAll = entry.target.by === "submission" && entry.target.batch === undefined
      wholeFile = rejectsAll
      text += groupStatus(entry, rejectsAll)
      if (rejectsAll) return text
    } else if (about !== submission) {
      return refuse(location, `a pain.002 answers one submission (${submission}), not also ${about}`)
    }
    const target = entry.target
    if (target.by === "submission") {
      if (target.batch === undefined) return refuse(location, "a whole file refused is the report's only entry")
      batches += 1
      return text + closing() + render([BATCH, [["OrgnlPmtInfId", target.batch], ["PmtInfSts", REJECTED], reasonTree(entry.code)]], 2)
    }
    const batch = entry.batch ?? ""
    if (batch !== openBatch) {
      text += closing()
      batches += 1
      inBatch = 0
      openBatch = batch
      text += openTag(BATCH, 2) + render(["OrgnlPmtInfId", batch], 3)
    }
    inBatch += 1
    return text + render(transactionTree(entry), 3)
  }
  return {
    begin: () =>
      XML_DECLARATION +
      `<Document xmlns="${PAIN_002_NAMESPACE}">\n` +
      openTag(MESSAGE, 1) +
      render(["GrpHdr", [
        ["MsgId", sepaIdentifier(header.id, ID_MAX)],
        ["CreDtTm", header.created_at],
        bicOf(header.originator.account.bic) === undefined ? undefined : agentTree("CdtrAgt", bicOf(header.originator.account.bic))
      ]], 2),
    entry,
    end: () => {
      if (failure !== undefined) return failure
      if (submission === undefined) return new FileFormatError(ROOT, "a pain.002 reports at least one rejection: no entry was written")
      return closing() + closeTag(MESSAGE, 1) + "</Document>\n"
    }
  }
}
