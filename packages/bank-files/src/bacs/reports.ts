import { type LocalDate, parseLocalDate } from "@paykit/core"
import {
  type BankAccount,
  FileFormatError,
  type ReportEntry,
  type ReportEntryKind,
  type ReportFormat,
  type ReportHeader,
  type ReportReader,
  type ReportSniff,
  type ReportWriter
} from "../model.ts"
import { xmlAttributes, xmlEscape, type XmlElement, xmlLocation, xmlReader } from "../xml.ts"
import { ADDACS_REASONS, aruddCodeOf, ARUDD_REASONS, AUDDIS_REASONS, type BacsReason, DDICA_REASONS } from "./reasons.ts"

/**
 * Bacs' reports, read and written: ARUDD (returned debits), ADDACS (mandates cancelled, amended
 * or reinstated by the payer's bank), AUDDIS (instructions the payer's bank refused) in the
 * `BACSDocument` layouts Bacs publishes its advices in, and DDICA (indemnity claims) in its
 * `VocaDocument` layout. Readers stream (one element at a time); writers write one entry at a
 * time, as a bank would: the sandbox bank's side. Bacs names a collection by the mandate's
 * reference with its amount and original processing day, and a mandate by its reference alone.
 */

const SCHEME = "bacs"
const CURRENCY = "GBP"

// ---------------------------------------------------------------------------------------------
// Values

/** Pence from a Bacs report's amount (`65.00`), or undefined if it is not one. */
export const penceOf = (text: string): number | undefined => {
  const m = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text.trim())
  if (m === null) return undefined
  return Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"))
}

/** A Bacs report's amount from pence: `65.00`. */
export const poundsOf = (pence: number): string => `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, "0")}`

/** A sort code as reports print it (`20-00-00`, or bare digits), as its 6 digits. */
const sortCodeOf = (text: string | undefined): string | undefined => {
  const digits = text?.replace(/[-\s]/g, "")
  return digits !== undefined && /^\d{6}$/.test(digits) ? digits : undefined
}
const accountNumberOf = (text: string | undefined): string | undefined => {
  const digits = text?.trim()
  return digits !== undefined && /^\d{8}$/.test(digits) ? digits : undefined
}
const dashed = (sortCode: string): string => `${sortCode.slice(0, 2)}-${sortCode.slice(2, 4)}-${sortCode.slice(4, 6)}`

/** The payer's account from an element's attributes, when it names a sort code and an account number. */
const accountFrom = (name: string | undefined, sort: string | undefined, account: string | undefined): BankAccount | undefined => {
  const sort_code = sortCodeOf(sort)
  const account_number = accountNumberOf(account)
  return sort_code === undefined || account_number === undefined ? undefined : { account_holder_name: name?.trim() ?? "", sort_code, account_number }
}

const problem = (element: XmlElement, message: string) => new FileFormatError(xmlLocation(element), message)

/** A required attribute, trimmed, or the error naming it. */
const required = (element: XmlElement, name: string): string | FileFormatError => {
  const value = element.attributes[name]?.trim()
  return value === undefined || value === "" ? problem(element, `${element.name} has no ${name}`) : value
}

const dateAttribute = (element: XmlElement, name: string): LocalDate | undefined | FileFormatError => {
  const value = element.attributes[name]?.trim()
  if (value === undefined || value === "") return undefined
  return parseLocalDate(value) ?? problem(element, `${element.name}'s ${name} "${value}" is not a date (yyyy-mm-dd)`)
}

const rootCheck = (element: XmlElement, root: string, report: string): FileFormatError | undefined =>
  element.parents.length === 0 && element.name !== root ? problem(element, `a ${report} report's root element is ${root}, not ${element.name}`) : undefined

const entry = (format: ReportFormat, kind: ReportEntryKind, fields: Omit<ReportEntry, "kind" | "scheme" | "format">): ReportEntry => ({
  kind,
  scheme: SCHEME,
  format,
  ...fields
})

const XML_DECLARATION = `<?xml version="1.0" encoding="UTF-8"?>\n`
const SCHEMA_LOCATION = `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="newbacs-advices.xsd"`

/**
 * A report writer that refuses what its layout cannot say: `write` answers the entry's XML or
 * the reason it cannot be written, and the first such reason is the writer's answer at `end`.
 */
const writerOf = (parts: {
  readonly begin: string
  readonly entry: (entry: ReportEntry, index: number) => string | string[] | FileFormatError
  readonly end: () => string
}): ReportWriter => {
  let refused: FileFormatError | undefined
  let index = 0
  return {
    begin: () => parts.begin,
    entry: (e) => {
      index += 1
      if (e.scheme !== SCHEME) refused ??= new FileFormatError(`entry ${index}`, `a Bacs report carries Bacs entries, not ${e.scheme}`)
      if (refused !== undefined) return ""
      const written = parts.entry(e, index)
      if (written instanceof FileFormatError) {
        refused = written
        return ""
      }
      return typeof written === "string" ? written : written.join("")
    },
    end: () => refused ?? parts.end()
  }
}

/** The mandate reference (and, for a collection, the amount and day) that a Bacs report names an entry by. */
const bacsTarget = (e: ReportEntry, index: number, needs: { readonly amount: boolean; readonly date: boolean }) => {
  const where = `entry ${index}`
  if (e.target.by !== "mandate_reference") return new FileFormatError(where, `Bacs names this entry by the mandate's reference, not by ${e.target.by === "end_to_end" ? "an end-to-end id" : "the submission"}`)
  const amount = e.target.amount ?? e.amount
  if (needs.amount && (amount === undefined || !Number.isSafeInteger(amount) || amount < 1)) return new FileFormatError(where, "a Bacs collection entry needs its amount in pence")
  if (needs.date && e.target.original_date === undefined) return new FileFormatError(where, "an ARUDD item needs the collection's original processing day")
  return { reference: e.target.reference, amount: amount ?? 0, date: e.target.original_date }
}

const codeCheck = (e: ReportEntry, index: number, reasons: Readonly<Record<string, BacsReason>>, report: string): BacsReason | FileFormatError => {
  const found = reasons[e.code]
  if (found === undefined) return new FileFormatError(`entry ${index}`, `${e.code} is not an ${report} reason code`)
  if (found.kind !== e.kind) return new FileFormatError(`entry ${index}`, `${report} ${e.code} makes a ${found.kind} entry, not ${e.kind}`)
  return found
}

// ---------------------------------------------------------------------------------------------
// ARUDD

const aruddReader = (): ReportReader => {
  let sawArudd = false
  let processingDate: LocalDate | undefined
  let item: { readonly element: XmlElement; readonly fields: Omit<ReportEntry, "kind" | "scheme" | "format" | "debtor">; debtor?: BankAccount } | undefined
  let count = 0
  let value = 0
  return xmlReader<ReportEntry>({
    open: (el) => {
      const wrongRoot = rootCheck(el, "BACSDocument", "ARUDD")
      if (wrongRoot !== undefined) return wrongRoot
      switch (el.name) {
        case "ARUDD":
          sawArudd = true
          return undefined
        case "Header": {
          if (el.parents.at(-1) !== "ARUDD") return undefined
          const date = dateAttribute(el, "currentProcessingDate")
          if (date instanceof FileFormatError) return date
          processingDate = date
          return undefined
        }
        case "OriginatingAccountRecord":
          count = 0
          value = 0
          return undefined
        case "ReturnedDebitItem": {
          const ref = required(el, "ref")
          if (ref instanceof FileFormatError) return ref
          const returnCode = required(el, "returnCode")
          if (returnCode instanceof FileFormatError) return returnCode
          const valueText = required(el, "valueOf")
          if (valueText instanceof FileFormatError) return valueText
          const amount = penceOf(valueText)
          if (amount === undefined || amount < 1) return problem(el, `ReturnedDebitItem's valueOf "${valueText}" is not an amount in pounds`)
          const original = dateAttribute(el, "originalProcessingDate")
          if (original instanceof FileFormatError) return original
          if (original === undefined) return problem(el, "ReturnedDebitItem has no originalProcessingDate")
          const currency = el.attributes["currency"]?.trim() ?? CURRENCY
          if (currency !== CURRENCY) return problem(el, `ReturnedDebitItem is in ${currency}; Bacs collects sterling`)
          count += 1
          value += amount
          item = {
            element: el,
            fields: {
              target: { by: "mandate_reference", reference: ref, amount, original_date: original },
              code: aruddCodeOf(returnCode, el.attributes["returnDescription"] ?? ""),
              amount,
              currency,
              ...(processingDate === undefined ? {} : { effective_date: processingDate }),
              location: xmlLocation(el)
            }
          }
          return undefined
        }
        case "PayerAccount": {
          if (item === undefined || el.parents.at(-1) !== "ReturnedDebitItem") return undefined
          const debtor = accountFrom(el.attributes["name"], el.attributes["sortCode"], el.attributes["number"])
          if (debtor !== undefined) item.debtor = debtor
          return undefined
        }
        case "Totals": {
          if (el.parents.at(-1) !== "OriginatingAccountRecord") return undefined
          const number = el.attributes["numberOf"]?.trim()
          const total = penceOf(el.attributes["valueOf"] ?? "")
          if (number !== undefined && Number(number) !== count) return problem(el, `Totals gives numberOf ${number}; the record has ${count} items`)
          if (total !== undefined && total !== value) return problem(el, `Totals gives valueOf ${el.attributes["valueOf"]}; the record's items total ${poundsOf(value)}`)
          return undefined
        }
        default:
          return undefined
      }
    },
    close: (el) => {
      if (el.name !== "ReturnedDebitItem" || item === undefined) return undefined
      const done = item
      item = undefined
      return [entry("bacs_arudd", "collection_returned", { ...done.fields, ...(done.debtor === undefined ? {} : { debtor: done.debtor }) })]
    },
    finish: () => (sawArudd ? undefined : new FileFormatError("/BACSDocument", "the document has no ARUDD element"))
  })
}

const aruddWriter = (header: ReportHeader): ReportWriter => {
  let count = 0
  let value = 0
  const account = header.originator.account
  return writerOf({
    begin: XML_DECLARATION +
      `<BACSDocument ${SCHEMA_LOCATION}>\n<Data>\n<ARUDD>\n` +
      `<Header${xmlAttributes([["currentProcessingDate", header.report_date]])}/>\n` +
      `<AddresseeInformation${xmlAttributes([["name", header.originator.name]])}/>\n` +
      `<ServiceLicenseInformation${xmlAttributes([["userName", header.originator.name], ["userNumber", header.originator.scheme_identifier]])}/>\n` +
      `<Advice>\n<OriginatingAccountRecords>\n<OriginatingAccountRecord>\n` +
      `<OriginatingAccount${
        xmlAttributes([
          ["name", account.account_holder_name],
          ["number", account.account_number],
          ["sortCode", account.sort_code === undefined ? undefined : dashed(account.sort_code)],
          ["type", "0"]
        ])
      }/>\n`,
    entry: (e, index) => {
      if (e.kind !== "collection_returned") return new FileFormatError(`entry ${index}`, `an ARUDD reports returned collections, not ${e.kind}`)
      const reason = codeCheck(e, index, ARUDD_REASONS, "ARUDD")
      if (reason instanceof FileFormatError) return reason
      const target = bacsTarget(e, index, { amount: true, date: true })
      if (target instanceof FileFormatError) return target
      count += 1
      value += target.amount
      const debtor = e.debtor
      return [
        `<ReturnedDebitItem${
          xmlAttributes([
            ["ref", target.reference],
            ["returnCode", e.code],
            ["returnDescription", reason.bacs],
            ["originalProcessingDate", target.date],
            ["valueOf", poundsOf(target.amount)],
            ["currency", CURRENCY]
          ])
        }>\n`,
        debtor === undefined ? "" : `<PayerAccount${
          xmlAttributes([
            ["number", debtor.account_number],
            ["ref", target.reference],
            ["name", debtor.account_holder_name],
            ["sortCode", debtor.sort_code === undefined ? undefined : dashed(debtor.sort_code)]
          ])
        }/>\n`,
        `</ReturnedDebitItem>\n`
      ]
    },
    end: () =>
      `<Totals${xmlAttributes([["numberOf", String(count)], ["valueOf", poundsOf(value)], ["currency", CURRENCY]])}/>\n` +
      `</OriginatingAccountRecord>\n</OriginatingAccountRecords>\n</Advice>\n</ARUDD>\n</Data>\n</BACSDocument>\n`
  })
}

// ---------------------------------------------------------------------------------------------
// ADDACS and AUDDIS: Bacs' messaging advices

/** The `advice-type`s each messaging report is printed with. */
const ADVICE_TYPES = {
  bacs_addacs: ["ADDACS"],
  /** AUDDIS: per-instruction advices; AUDACC and AUDREJ: a whole DDI file accepted or rejected. */
  bacs_auddis: ["AUDDIS", "AUDACC", "AUDREJ"]
} as const

/** AUDDIS record types that speak of a whole file (V accepted, R rejected) rather than one instruction. */
const AUDDIS_FILE_ACCEPTED = "V"
const AUDDIS_FILE_REJECTED = "R"
/** The ADDACS advice's record type. */
const ADDACS_RECORD_TYPE = "A"
/** ADDACS's report type, as Bacs prints it in MessagingHeader. */
const ADDACS_REPORT_TYPE = "7001"

const newDetailsFrom = (el: XmlElement): Partial<BankAccount> => {
  const sort_code = sortCodeOf(el.attributes["payer-new-sort-code"])
  const account_number = accountNumberOf(el.attributes["payer-new-account-number"])
  const name = el.attributes["payer-new-name"]?.trim()
  return {
    ...(sort_code === undefined ? {} : { sort_code }),
    ...(account_number === undefined ? {} : { account_number }),
    ...(name === undefined || name === "" ? {} : { account_holder_name: name })
  }
}

/**
 * An AUDDIS rejection of a whole DDI file (record type R): it names the submission by its VOL1
 * serial and the file by its UHL1 file number, which is the batch its instructions were read in,
 * so the entry is about every instruction of that file. Its code is Bacs' file error code.
 */
const fileRejected = (el: XmlElement): ReadonlyArray<ReportEntry> | FileFormatError => {
  const serial = required(el, "vol-serial-number")
  if (serial instanceof FileFormatError) return serial
  const file = required(el, "originator-file-number")
  if (file instanceof FileFormatError) return file
  const code = required(el, "file-error-code")
  if (code instanceof FileFormatError) return code
  const processed = dateAttribute(el, "processing-date")
  if (processed instanceof FileFormatError) return processed
  return [entry("bacs_auddis", "mandate_rejected", {
    target: { by: "submission", id: serial, batch: file },
    code,
    ...(processed === undefined ? {} : { effective_date: processed }),
    submission: serial,
    batch: file,
    location: xmlLocation(el)
  })]
}

const messagingReader = (format: "bacs_addacs" | "bacs_auddis"): ReportReader => {
  const report = format === "bacs_addacs" ? "ADDACS" : "AUDDIS"
  const reasons = format === "bacs_addacs" ? ADDACS_REASONS : AUDDIS_REASONS
  let adviceType: string | undefined
  const advice = (el: XmlElement): ReadonlyArray<ReportEntry> | FileFormatError => {
    if (adviceType === undefined) return problem(el, "a MessagingAdvice before the MessagingHeader")
    const recordType = el.attributes["record-type"]?.trim() ?? ""
    if (format === "bacs_auddis" && recordType === AUDDIS_FILE_ACCEPTED) return []
    if (format === "bacs_auddis" && recordType === AUDDIS_FILE_REJECTED) return fileRejected(el)
    if (format === "bacs_addacs" && recordType !== ADDACS_RECORD_TYPE) return problem(el, `an ADDACS advice has record-type ${ADDACS_RECORD_TYPE}, not "${recordType}"`)
    const reference = required(el, "reference")
    if (reference instanceof FileFormatError) return reference
    const code = required(el, "reason-code")
    if (code instanceof FileFormatError) return code
    // An ADDACS code decides what happened to the mandate, so one Bacs has not defined is refused;
    // an AUDDIS rejection is a rejection whatever its code, kept with the code as given.
    const reason: Pick<BacsReason, "kind"> | undefined = format === "bacs_auddis" ? { kind: "mandate_rejected" } : reasons[code]
    if (reason === undefined) return problem(el, `${code} is not an ${report} reason code; nothing is applied on a guess`)
    const effective = dateAttribute(el, "effective-date")
    if (effective instanceof FileFormatError) return effective
    const debtor = accountFrom(el.attributes["payer-name"], el.attributes["payer-sort-code"], el.attributes["payer-account-number"])
    const newDetails = newDetailsFrom(el)
    const hasNew = Object.keys(newDetails).length > 0
    if (reason.kind === "bank_details_changed" && !hasNew) return problem(el, `ADDACS ${code} amends the account but the advice gives no payer-new-sort-code, payer-new-account-number or payer-new-name`)
    return [entry(format, reason.kind, {
      target: { by: "mandate_reference", reference },
      code,
      ...(effective === undefined ? {} : { effective_date: effective }),
      ...(debtor === undefined ? {} : { debtor }),
      ...(hasNew && format === "bacs_addacs" ? { new_details: newDetails } : {}),
      location: xmlLocation(el)
    })]
  }
  return xmlReader<ReportEntry>({
    open: (el) => {
      const wrongRoot = rootCheck(el, "BACSDocument", report)
      if (wrongRoot !== undefined) return wrongRoot
      if (el.name === "MessagingHeader") {
        const type = el.attributes["advice-type"]?.trim() ?? ""
        if (!(ADVICE_TYPES[format] as ReadonlyArray<string>).includes(type)) {
          return problem(el, `the advice-type is "${type}"; an ${report} report's is ${ADVICE_TYPES[format].join(" or ")}`)
        }
        adviceType = type
        return undefined
      }
      return el.name === "MessagingAdvice" ? advice(el) : undefined
    },
    finish: () => (adviceType === undefined ? new FileFormatError("/BACSDocument", `the document has no MessagingHeader: it is not an ${report} report`) : undefined)
  })
}

/** An AUDDIS advice rejecting a whole DDI file: the entry names the submission's VOL1 serial and the file's number. */
const fileRejection = (e: ReportEntry, index: number, userNumber: string): string | FileFormatError => {
  if (e.target.by !== "submission" || e.target.batch === undefined) return new FileFormatError(`entry ${index}`, "a rejected DDI file is named by the submission's serial and the file's number (its batch)")
  if (!/^\d+$/.test(e.code)) return new FileFormatError(`entry ${index}`, `a rejected DDI file's code is Bacs' numeric file error code, not ${e.code}`)
  return `<MessagingAdvice${
    xmlAttributes([
      ["user-number", userNumber],
      ["record-type", AUDDIS_FILE_REJECTED],
      ["aosn", String(index)],
      ["processing-date", e.effective_date],
      ["originator-file-number", e.target.batch],
      ["vol-serial-number", e.target.id],
      ["file-error-code", e.code]
    ])
  }/>\n`
}

const messagingWriter = (format: "bacs_addacs" | "bacs_auddis") => (header: ReportHeader): ReportWriter => {
  const report = format === "bacs_addacs" ? "ADDACS" : "AUDDIS"
  const reasons = format === "bacs_addacs" ? ADDACS_REASONS : AUDDIS_REASONS
  const userNumber = header.originator.scheme_identifier
  return writerOf({
    begin: XML_DECLARATION +
      `<BACSDocument ${SCHEMA_LOCATION}>\n<Data>\n<MessagingAdvices>\n` +
      `<MessagingHeader${
        xmlAttributes([
          ["document-number", "0"],
          ["advice-type", report],
          ["user-number", userNumber],
          ["user-name", header.originator.name],
          ["report-generation-date", header.report_date],
          ["report-type", format === "bacs_addacs" ? ADDACS_REPORT_TYPE : undefined]
        ])
      }/>\n` +
      `<AddresseeInformation${xmlAttributes([["name", header.originator.name]])}/>\n`,
    entry: (e, index) => {
      if (format === "bacs_auddis" && e.target.by === "submission") return fileRejection(e, index, userNumber)
      const reason = codeCheck(e, index, reasons, report)
      if (reason instanceof FileFormatError) return reason
      const target = bacsTarget(e, index, { amount: false, date: false })
      if (target instanceof FileFormatError) return target
      const debtor = e.debtor
      const added = format === "bacs_addacs" ? e.new_details : undefined
      if (reason.kind === "bank_details_changed" && (added === undefined || Object.keys(added).length === 0)) {
        return new FileFormatError(`entry ${index}`, `ADDACS ${e.code} needs the new account details`)
      }
      return `<MessagingAdvice${
        xmlAttributes([
          ["user-number", userNumber],
          ["record-type", format === "bacs_addacs" ? ADDACS_RECORD_TYPE : "N"],
          ["effective-date", e.effective_date ?? header.report_date],
          ["reference", target.reference],
          ["payer-name", debtor?.account_holder_name],
          ["payer-account-number", debtor?.account_number],
          ["payer-sort-code", debtor?.sort_code],
          ["reason-code", e.code],
          ["payer-new-name", added?.account_holder_name],
          ["payer-new-account-number", added?.account_number],
          ["payer-new-sort-code", added?.sort_code],
          ["aosn", String(index).padStart(8, "0")]
        ])
      }/>\n`
    },
    end: () => `</MessagingAdvices>\n</Data>\n</BACSDocument>\n`
  })
}

// ---------------------------------------------------------------------------------------------
// DDICA

/** The DDICAdvice children a claim is read from. */
const DDICA_FIELDS = ["ReasonCode", "ReasonCodeMeaning", "SUReference", "PayingBankReference", "TotalAmount"] as const
type DdicaField = (typeof DDICA_FIELDS)[number]
const NEW_ADVICES_FIELDS = ["DateOfDebit", "TotalValueOfDebits"] as const

const ddicaReader = (): ReportReader => {
  let sawAdvices = false
  let dateOfDebit: LocalDate | undefined
  let total = 0
  let saidTotal: number | undefined
  let claim: Partial<Record<DdicaField, string>> | undefined
  return xmlReader<ReportEntry>({
    open: (el) => {
      const wrongRoot = rootCheck(el, "VocaDocument", "DDICA")
      if (wrongRoot !== undefined) return wrongRoot
      if (el.name === "NewAdvices") {
        sawAdvices = true
        total = 0
      }
      if (el.name === "DDICAdvice") claim = {}
      return undefined
    },
    wantsText: (el) =>
      (el.parents.at(-1) === "DDICAdvice" && (DDICA_FIELDS as ReadonlyArray<string>).includes(el.name)) ||
      (el.parents.at(-1) === "NewAdvices" && (NEW_ADVICES_FIELDS as ReadonlyArray<string>).includes(el.name)),
    close: (el, text) => {
      const parent = el.parents.at(-1)
      if (parent === "DDICAdvice" && claim !== undefined && (DDICA_FIELDS as ReadonlyArray<string>).includes(el.name)) {
        claim[el.name as DdicaField] = text
        return undefined
      }
      if (parent === "NewAdvices" && el.name === "DateOfDebit") {
        const date = parseLocalDate(text)
        if (date === undefined) return problem(el, `DateOfDebit "${text}" is not a date (yyyy-mm-dd)`)
        dateOfDebit = date
        return undefined
      }
      if (parent === "NewAdvices" && el.name === "TotalValueOfDebits") {
        saidTotal = penceOf(text)
        return saidTotal === undefined ? problem(el, `TotalValueOfDebits "${text}" is not an amount in pounds`) : undefined
      }
      if (el.name === "NewAdvices") {
        const said = saidTotal
        saidTotal = undefined
        return said === undefined || said === total ? undefined : problem(el, `TotalValueOfDebits is ${poundsOf(said)}; the claims total ${poundsOf(total)}`)
      }
      if (el.name !== "DDICAdvice" || claim === undefined) return undefined
      const done = claim
      claim = undefined
      const reference = done.SUReference ?? ""
      if (reference === "") return problem(el, "DDICAdvice has no SUReference")
      const code = done.ReasonCode ?? ""
      if (code === "") return problem(el, "DDICAdvice has no ReasonCode")
      const amount = penceOf(done.TotalAmount ?? "")
      if (amount === undefined || amount < 1) return problem(el, `DDICAdvice's TotalAmount "${done.TotalAmount ?? ""}" is not an amount in pounds`)
      total += amount
      return [entry("bacs_ddica", "collection_charged_back", {
        target: { by: "mandate_reference", reference, amount },
        code,
        amount,
        currency: CURRENCY,
        ...(dateOfDebit === undefined ? {} : { effective_date: dateOfDebit }),
        location: xmlLocation(el)
      })]
    },
    finish: () => (sawAdvices ? undefined : new FileFormatError("/VocaDocument", "the document has no NewAdvices: it is not a DDICA report"))
  })
}

const textElement = (name: string, value: string): string => `<${name}>${xmlEscape(value)}</${name}>`

const ddicaWriter = (header: ReportHeader): ReportWriter => {
  let total = 0
  return writerOf({
    begin: XML_DECLARATION +
      `<VocaDocument>\n<Data>\n<Document>\n` +
      `${textElement("ServiceUserNumber", header.originator.scheme_identifier)}\n` +
      `<NewAdvices>\n${textElement("DateOfDebit", header.report_date)}\n`,
    entry: (e, index) => {
      if (e.kind !== "collection_charged_back") return new FileFormatError(`entry ${index}`, `a DDICA reports indemnity claims, not ${e.kind}`)
      const reason = codeCheck(e, index, DDICA_REASONS, "DDICA")
      if (reason instanceof FileFormatError) return reason
      const target = bacsTarget(e, index, { amount: true, date: false })
      if (target instanceof FileFormatError) return target
      total += target.amount
      return `<DDICAdvice>\n${
        [
          textElement("SUReference", target.reference),
          textElement("ReasonCode", e.code),
          textElement("ReasonCodeMeaning", reason.bacs),
          textElement("PayingBankReference", `${header.id}-${index}`),
          textElement("TotalAmount", poundsOf(target.amount))
        ].join("\n")
      }\n</DDICAdvice>\n`
    },
    end: () => `${textElement("TotalValueOfDebits", poundsOf(total))}\n</NewAdvices>\n</Document>\n</Data>\n</VocaDocument>\n`
  })
}

// ---------------------------------------------------------------------------------------------
// The four reports

const BACS_DOCUMENT = /<BACSDocument[\s>/]/
const has = (pattern: RegExp) => (head: string) => BACS_DOCUMENT.test(head) && pattern.test(head)

const sniffs: Readonly<Record<"bacs_arudd" | "bacs_addacs" | "bacs_auddis" | "bacs_ddica", ReportSniff["matches"]>> = {
  bacs_arudd: has(/<ARUDD[\s>/]/),
  bacs_addacs: has(/advice-type\s*=\s*["']ADDACS["']/),
  bacs_auddis: has(/advice-type\s*=\s*["']AUD(?:DIS|ACC|REJ)["']/),
  bacs_ddica: (head) => /<VocaDocument[\s>/]/.test(head) && /<(?:NewAdvices|DDICAdvice)[\s>/]/.test(head)
}

const XML = "application/xml"

export const BACS_REPORTS = [
  { format: "bacs_arudd", contentType: XML, sniff: { format: "bacs_arudd", matches: sniffs.bacs_arudd }, reader: aruddReader, writer: aruddWriter },
  {
    format: "bacs_addacs",
    contentType: XML,
    sniff: { format: "bacs_addacs", matches: sniffs.bacs_addacs },
    reader: () => messagingReader("bacs_addacs"),
    writer: messagingWriter("bacs_addacs")
  },
  {
    format: "bacs_auddis",
    contentType: XML,
    sniff: { format: "bacs_auddis", matches: sniffs.bacs_auddis },
    reader: () => messagingReader("bacs_auddis"),
    writer: messagingWriter("bacs_auddis")
  },
  { format: "bacs_ddica", contentType: XML, sniff: { format: "bacs_ddica", matches: sniffs.bacs_ddica }, reader: ddicaReader, writer: ddicaWriter }
] as const satisfies ReadonlyArray<{
  readonly format: ReportFormat
  readonly contentType: string
  readonly sniff: ReportSniff
  readonly reader: () => ReportReader
  readonly writer: (header: ReportHeader) => ReportWriter
}>
