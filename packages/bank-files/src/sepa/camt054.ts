import { type LocalDate, parseLocalDate } from "@paykit/core"
import { type EntryTarget, FileFormatError, type ReportEntry, type ReportEntryKind, type ReportHeader, type ReportReader, type ReportWriter } from "../model.ts"
import { accountTree, agentTree, bicOf, debtorAccount, ibanOf, ID_MAX, NAME_MAX, NOT_PROVIDED } from "./fields.ts"
import { SEPA_REFUND_CODES } from "./reasons.ts"
import { decimalOf, minorOf, sepaIdentifier, sepaText } from "./text.ts"
import { at, type ElementHandler, handlers, messageReader, type MessageElement, step } from "./iso-message.ts"
import { closeTag, currencyAttribute, openTag, render, type Tree, XML_DECLARATION } from "./xml-writer.ts"

/**
 * The bank's debit notification (`camt.054.001.02`, BankToCustomerDebitCreditNotificationV02)
 * of the collections taken back from the creditor's account after settlement: returns by the
 * payer's bank, refunds the payer asked for, and reversals. Each is a booked debit entry (`Ntry`)
 * whose transaction details (`TxDtls`) carry the return reason (`RtrInf/Rsn`) and name the
 * collection by `Refs/EndToEndId` (or by `Refs/MndtId` when the end-to-end id was not
 * provided). A refund request (`MD06`, or `MD01` for an unauthorised collection) is a chargeback;
 * any other code a late failure. Entries without a return reason (the credit of the collections
 * themselves, fees, other payments) are not R-transactions, and the reader passes over them.
 */

export const CAMT_054 = "camt.054.001.02"
export const CAMT_054_NAMESPACE = "urn:iso:std:iso:20022:tech:xsd:camt.054.001.02"
const MESSAGE = "BkToCstmrDbtCdtNtfctn"
const ROOT = `/Document/${MESSAGE}`
const SCHEME = "sepa_core"

/** What a returned code says happened: a refund request is a chargeback, any other code a return. */
export const camtKindOf = (code: string): ReportEntryKind => (SEPA_REFUND_CODES.has(code) ? "collection_charged_back" : "collection_returned")

// ---------------------------------------------------------------------------------------------
// Reading

interface Entry {
  amount?: number
  currency?: string
  debit?: boolean
  booked?: boolean
  date?: LocalDate
  /** Transaction details read so far. */
  details: number
  /** The first details, held until the entry ends: alone, they take the entry's amount. */
  held: Details | undefined
}

interface Details {
  readonly path: string
  readonly line: number
  batch?: string
  endToEnd?: string
  mandate?: string
  instructed?: { readonly amount: number; readonly currency?: string }
  transacted?: { readonly amount: number; readonly currency?: string }
  code?: string
  readonly debtor: ReturnType<typeof debtorAccount>
}

const ENTRY = "Ntfctn/Ntry"
const DETAILS = `${ENTRY}/NtryDtls/TxDtls`

export const camt054Reader = (): ReportReader => {
  let entry: Entry = { details: 0, held: undefined }
  let details: Details = { path: "", line: 0, debtor: debtorAccount() }

  const problem = (el: MessageElement, message: string): FileFormatError => new FileFormatError(at(el.path, el.line), message)
  const amountOf = (el: MessageElement): { readonly amount: number; readonly currency?: string } | FileFormatError => {
    const amount = minorOf(el.text)
    const currency = el.attributes["Ccy"]
    if (amount === undefined) return problem(el, `${el.text} is not an amount in euros and cents`)
    return currency === undefined ? { amount } : { amount, currency }
  }

  /** The report entry of `d`, or nothing when it is not a returned collection. */
  const emit = (d: Details, alone: boolean, out: Array<ReportEntry>): FileFormatError | undefined => {
    if (d.code === undefined || entry.debit !== true || entry.booked !== true) return undefined
    const stated = d.instructed ?? d.transacted ?? (alone && entry.amount !== undefined ? { amount: entry.amount, currency: entry.currency } : undefined)
    let target: EntryTarget
    if (d.endToEnd !== undefined && d.endToEnd !== NOT_PROVIDED) target = { by: "end_to_end", id: d.endToEnd }
    else if (d.mandate !== undefined) target = { by: "mandate_reference", reference: d.mandate, ...(stated === undefined ? {} : { amount: stated.amount }) }
    else return new FileFormatError(at(d.path, d.line), "the returned collection names neither its EndToEndId nor its MndtId (Refs)")
    const debtor = d.debtor.account()
    out.push({
      kind: camtKindOf(d.code),
      scheme: SCHEME,
      format: CAMT_054,
      target,
      code: d.code,
      ...(stated === undefined ? {} : { amount: stated.amount }),
      ...(stated?.currency === undefined ? {} : { currency: stated.currency }),
      ...(entry.date === undefined ? {} : { effective_date: entry.date }),
      ...(debtor === undefined ? {} : { debtor }),
      ...(d.batch === undefined ? {} : { batch: d.batch }),
      location: d.path
    })
    return undefined
  }

  const dateOf = (el: MessageElement): FileFormatError | undefined => {
    const date = parseLocalDate(el.text.slice(0, 10))
    if (date === undefined) return problem(el, `${el.text} is not a date`)
    entry.date ??= date
    return undefined
  }

  const stated = (set: (amount: { readonly amount: number; readonly currency?: string }) => void): ElementHandler<ReportEntry> => (el) => {
    const amount = amountOf(el)
    if (amount instanceof FileFormatError) return amount
    set(amount)
    return undefined
  }
  const detailsEnd = (_el: MessageElement, out: Array<ReportEntry>): FileFormatError | undefined => {
    entry.details += 1
    if (entry.details === 1) {
      entry.held = details
      return undefined
    }
    const held = entry.held
    entry.held = undefined
    return (held === undefined ? undefined : emit(held, false, out)) ?? emit(details, false, out)
  }
  const close = handlers<ReportEntry>({
    [`${ENTRY}/Amt`]: stated((amount) => {
      entry.amount = amount.amount
      if (amount.currency !== undefined) entry.currency = amount.currency
    }),
    [`${ENTRY}/CdtDbtInd`]: (el) => void (entry.debit = el.text === "DBIT"),
    [`${ENTRY}/Sts`]: (el) => void (entry.booked = el.text === "BOOK"),
    [`${ENTRY}/BookgDt/Dt`]: dateOf,
    [`${ENTRY}/BookgDt/DtTm`]: dateOf,
    [`${ENTRY}/ValDt/Dt`]: dateOf,
    [`${ENTRY}/ValDt/DtTm`]: dateOf,
    [`${DETAILS}/Refs/PmtInfId`]: (el) => void (details.batch = el.text),
    [`${DETAILS}/Refs/EndToEndId`]: (el) => void (details.endToEnd = el.text),
    [`${DETAILS}/Refs/MndtId`]: (el) => void (details.mandate = el.text),
    [`${DETAILS}/AmtDtls/InstdAmt/Amt`]: stated((amount) => void (details.instructed = amount)),
    [`${DETAILS}/AmtDtls/TxAmt/Amt`]: stated((amount) => void (details.transacted = amount)),
    [`${DETAILS}/RltdPties/Dbtr/Nm`]: (el) => details.debtor.name(el.text),
    [`${DETAILS}/RltdPties/DbtrAcct/Id/IBAN`]: (el) => details.debtor.iban(el.text),
    [`${DETAILS}/RltdAgts/DbtrAgt/FinInstnId/BIC`]: (el) => details.debtor.bic(el.text),
    [`${DETAILS}/RtrInf/Rsn/Cd`]: (el) => void (details.code ??= el.text),
    [`${DETAILS}/RtrInf/Rsn/Prtry`]: (el) => void (details.code ??= el.text),
    [DETAILS]: detailsEnd,
    [ENTRY]: (_el, out) => (entry.held === undefined ? undefined : emit(entry.held, true, out))
  })
  const open = handlers<ReportEntry>({
    [ENTRY]: () => void (entry = { details: 0, held: undefined }),
    [DETAILS]: (el) => void (details = { path: el.path, line: el.line, debtor: debtorAccount() })
  })
  return messageReader<ReportEntry>({
    format: CAMT_054,
    namespace: CAMT_054_NAMESPACE,
    message: MESSAGE,
    open,
    close,
    end: () => undefined
  })
}

// ---------------------------------------------------------------------------------------------
// Writing

/** What an entry needs that a camt.054 cannot state it without, or undefined. */
const entryProblem = (entry: ReportEntry): string | undefined => {
  const { kind, target } = entry
  if (kind !== "collection_returned" && kind !== "collection_charged_back") return `a camt.054 notifies returned and charged-back collections, not ${kind}`
  if (entry.code.trim() === "") return "the entry has no reason code"
  if (camtKindOf(entry.code) !== kind) {
    return `${entry.code} reads as ${camtKindOf(entry.code)} in a camt.054: a chargeback is a refund request (${[...SEPA_REFUND_CODES].join(", ")})`
  }
  if (target.by === "submission") return "a camt.054 names each returned collection, not a whole submission"
  if (entry.currency !== undefined && entry.currency !== "EUR") return `a SEPA Core report is in EUR, not ${entry.currency}`
  const amount = entry.amount ?? (target.by === "mandate_reference" ? target.amount : undefined)
  if (amount === undefined) return "a camt.054 entry states its amount: the entry has none"
  if (target.by === "mandate_reference" && target.amount !== undefined && target.amount !== amount) {
    return `the entry's amount ${amount} differs from its target's ${target.amount}`
  }
  return undefined
}

const entryTree = (entry: ReportEntry): Tree => {
  const { target, debtor } = entry
  const amount = entry.amount ?? (target.by === "mandate_reference" ? target.amount : undefined) ?? 0
  const date = entry.effective_date
  const iban = ibanOf(debtor?.iban)
  const bic = bicOf(debtor?.bic)
  return ["Ntry", [
    ["Amt", decimalOf(amount), currencyAttribute("EUR")],
    ["CdtDbtInd", "DBIT"],
    ["Sts", "BOOK"],
    date === undefined ? undefined : ["BookgDt", [["Dt", date]]],
    date === undefined ? undefined : ["ValDt", [["Dt", date]]],
    ["BkTxCd", [["Domn", [["Cd", "PMNT"], ["Fmly", [["Cd", "IDDT"], ["SubFmlyCd", "UPDD"]]]]]]],
    ["NtryDtls", [["TxDtls", [
      ["Refs", [
        entry.batch === undefined ? undefined : ["PmtInfId", sepaIdentifier(entry.batch, ID_MAX)],
        ["EndToEndId", target.by === "end_to_end" ? target.id : NOT_PROVIDED],
        target.by === "mandate_reference" ? ["MndtId", target.reference] : undefined
      ]],
      debtor === undefined && iban === undefined ? undefined : ["RltdPties", [
        debtor === undefined ? undefined : ["Dbtr", [["Nm", sepaText(debtor.account_holder_name, NAME_MAX)]]],
        iban === undefined ? undefined : accountTree("DbtrAcct", iban)
      ]],
      bic === undefined ? undefined : ["RltdAgts", [agentTree("DbtrAgt", bic)]],
      ["RtrInf", [["Rsn", [/^[A-Z0-9]{4}$/.test(entry.code) ? ["Cd", entry.code] : ["Prtry", sepaText(entry.code, ID_MAX)]]]]]
    ]]]]
  ]]
}

/**
 * Writes a camt.054 as the creditor's bank would: one notification (`Ntfctn`) on the creditor's
 * account, one booked debit entry (`Ntry`) each returned or charged-back collection, booked on
 * the entry's effective date. What a camt.054 does not state (the submission) is not written.
 */
export const camt054Writer = (header: ReportHeader): ReportWriter => {
  let failure: FileFormatError | undefined
  let entries = 0
  const iban = ibanOf(header.originator.account.iban)
  if (iban === undefined) failure = new FileFormatError(`${ROOT}/Ntfctn/Acct`, "the creditor's account has no valid IBAN")
  return {
    begin: () =>
      XML_DECLARATION +
      `<Document xmlns="${CAMT_054_NAMESPACE}">\n` +
      openTag(MESSAGE, 1) +
      render(["GrpHdr", [["MsgId", sepaIdentifier(header.id, ID_MAX)], ["CreDtTm", header.created_at]]], 2) +
      openTag("Ntfctn", 2) +
      render(["Id", sepaIdentifier(header.id, ID_MAX)], 3) +
      render(["CreDtTm", header.created_at], 3) +
      render(["Acct", [
        ["Id", [["IBAN", iban ?? ""]]],
        ["Ccy", "EUR"],
        ["Ownr", [["Nm", sepaText(header.originator.name, NAME_MAX)]]]
      ]], 3),
    entry: (entry: ReportEntry) => {
      entries += 1
      const problem = entryProblem(entry)
      if (problem !== undefined) {
        failure ??= new FileFormatError(`${ROOT}/Ntfctn/${step("Ntry", entries)}`, problem)
        return ""
      }
      return render(entryTree(entry), 3)
    },
    end: () => (failure ?? (closeTag("Ntfctn", 2) + closeTag(MESSAGE, 1) + "</Document>\n"))
  }
}
