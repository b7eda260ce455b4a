import { Result, Schema } from "effect"
import { LocalDate, Timestamp } from "@paykit/core"
import { lineSplitter, type NumberedLine } from "../chunks.ts"
import { BankAccountSchema, EntryTargetSchema, OriginatorSchema, SubmissionItemSchema } from "../schemas.ts"
import {
  FileFormatError,
  type ReasonMeaning,
  REPORT_ENTRY_KINDS,
  type ReportEntry,
  type ReportEntryKind,
  type ReportHeader,
  type ReportReader,
  type ReportWriter,
  type SchemeFiles,
  type SubmissionFacts,
  type SubmissionHeader,
  type SubmissionItem,
  type SubmissionReader,
  type SubmissionWriter,
  type SubmittedItem
} from "../model.ts"

/**
 * paykit's own files, for the schemes whose file formats are not written yet (BECS, BECS NZ, PAD,
 * Autogiro, Betalingsservice, PayTo, Faster Payments): JSON Lines, a header line then one line per
 * item or entry, so they stream as the scheme files do. The sandbox bank writes its reports for
 * those schemes in this format, and a bank adapter for them may too until their own are added.
 */

const SubmissionHeaderLine = Schema.Struct({
  format: Schema.Literal("paykit_submission"),
  version: Schema.Literal(1),
  id: Schema.String,
  scheme: Schema.String,
  currency: Schema.String,
  processing_date: LocalDate,
  created_at: Timestamp,
  originator: OriginatorSchema,
  item_count: Schema.Int,
  total_amount: Schema.Int
})

const ReportHeaderLine = Schema.Struct({
  format: Schema.Literal("paykit_report"),
  version: Schema.Literal(1),
  id: Schema.String,
  scheme: Schema.String,
  created_at: Timestamp,
  report_date: LocalDate,
  currency: Schema.String,
  originator: Schema.Struct({ creditor: Schema.String, name: Schema.String, scheme_identifier: Schema.String })
})

const EntryLine = Schema.Struct({
  kind: Schema.Literals(REPORT_ENTRY_KINDS),
  target: EntryTargetSchema,
  code: Schema.String,
  amount: Schema.optionalKey(Schema.Int),
  currency: Schema.optionalKey(Schema.String),
  effective_date: Schema.optionalKey(LocalDate),
  debtor: Schema.optionalKey(BankAccountSchema),
  new_details: Schema.optionalKey(Schema.Struct({
    account_holder_name: Schema.optionalKey(Schema.String),
    iban: Schema.optionalKey(Schema.String),
    bic: Schema.optionalKey(Schema.String),
    sort_code: Schema.optionalKey(Schema.String),
    routing_number: Schema.optionalKey(Schema.String),
    account_number: Schema.optionalKey(Schema.String),
    account_type: Schema.optionalKey(Schema.Literals(["checking", "savings"])),
    bank_code: Schema.optionalKey(Schema.String),
    branch_code: Schema.optionalKey(Schema.String)
  })),
  submission: Schema.optionalKey(Schema.String),
  batch: Schema.optionalKey(Schema.String)
})

/** A line decoded by its Schema, or the error naming the line and the first issue. */
const decodeLine = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, line: NumberedLine): S["Type"] | FileFormatError => {
  let json: unknown
  try {
    json = JSON.parse(line.text)
  } catch {
    return new FileFormatError(`line ${line.number}`, "not a JSON object")
  }
  const decoded = Schema.decodeUnknownResult(schema)(json)
  return Result.isSuccess(decoded) ? decoded.success : new FileFormatError(`line ${line.number}`, decoded.failure.message.split("\n")[0] ?? "not valid")
}

const json = (value: unknown): string => `${JSON.stringify(value)}\n`

const submissionWriter = (header: SubmissionHeader): SubmissionWriter => {
  let count = 0
  let total = 0
  return {
    begin: () =>
      json({
        format: "paykit_submission",
        version: 1,
        id: header.id,
        scheme: header.scheme,
        currency: header.currency,
        processing_date: header.processing_date,
        created_at: header.created_at,
        originator: header.originator,
        item_count: header.item_count,
        total_amount: header.total_amount
      }),
    item: (item: SubmissionItem) => {
      count += 1
      if (item.kind === "collection") total += item.amount
      return json(item)
    },
    end: () =>
      count !== header.item_count || total !== header.total_amount
        ? new FileFormatError(`line ${count + 1}`, `the header promised ${header.item_count} items totalling ${header.total_amount}; ${count} totalling ${total} were written`)
        : ""
  }
}

/**
 * Reads a line-based file: its first line through `first`, every other line through `rest`. Each
 * answers a value or an error; `end` runs `finish` once the last line is read.
 */
const lineReader = <H, T>(
  first: (line: NumberedLine) => H | FileFormatError,
  rest: (header: H, line: NumberedLine) => T | FileFormatError
) => {
  const lines = lineSplitter()
  let header: H | undefined
  const feed = (got: ReadonlyArray<NumberedLine> | FileFormatError): ReadonlyArray<T> | FileFormatError => {
    if (got instanceof FileFormatError) return got
    const out: Array<T> = []
    for (const line of got) {
      if (header === undefined) {
        const h = first(line)
        if (h instanceof FileFormatError) return h
        header = h
        continue
      }
      const value = rest(header, line)
      if (value instanceof FileFormatError) return value
      out.push(value)
    }
    return out
  }
  return {
    write: (chunk: Uint8Array) => feed(lines.write(chunk)),
    end: () => feed(lines.end()),
    header: () => header
  }
}

const submittedOf = (item: typeof SubmissionItemSchema.Type, line: NumberedLine): SubmittedItem =>
  item.kind === "mandate"
    ? { kind: "mandate", action: item.action, target: { by: "mandate_reference", reference: item.mandate_reference }, mandate_reference: item.mandate_reference, debtor: item.debtor, location: `line ${line.number}` }
    : {
      kind: "collection",
      target: { by: "end_to_end", id: item.payment },
      mandate_reference: item.mandate_reference,
      amount: item.amount,
      charge_date: item.charge_date,
      sequence: item.sequence,
      debtor: item.debtor,
      location: `line ${line.number}`
    }

const submissionReader = (): SubmissionReader => {
  let count = 0
  let total = 0
  const reader = lineReader((line) => decodeLine(SubmissionHeaderLine, line), (_header, line) => {
    const item = decodeLine(SubmissionItemSchema, line)
    if (item instanceof FileFormatError) return item
    count += 1
    if (item.kind === "collection") total += item.amount
    return submittedOf(item, line)
  })
  return {
    write: reader.write,
    end: () => {
      const items = reader.end()
      if (items instanceof FileFormatError) return items
      const header = reader.header()
      if (header === undefined) return new FileFormatError("line 1", "the file is empty")
      if (count !== header.item_count || total !== header.total_amount) {
        return new FileFormatError("line 1", `the header says ${header.item_count} items totalling ${header.total_amount}; the file has ${count} totalling ${total}`)
      }
      const facts: SubmissionFacts = {
        id: header.id,
        processing_date: header.processing_date,
        originator: { name: header.originator.name, scheme_identifier: header.originator.scheme_identifier },
        item_count: header.item_count,
        total_amount: header.total_amount
      }
      return { items, facts }
    }
  }
}

const reportWriter = (header: ReportHeader): ReportWriter => ({
  begin: () =>
    json({
      format: "paykit_report",
      version: 1,
      id: header.id,
      scheme: header.scheme,
      created_at: header.created_at,
      report_date: header.report_date,
      currency: header.currency,
      originator: { creditor: header.originator.creditor, name: header.originator.name, scheme_identifier: header.originator.scheme_identifier }
    }),
  entry: (entry: ReportEntry) => {
    const { format: _format, scheme: _scheme, location: _location, ...line } = entry
    return json(line)
  },
  end: () => ""
})

const reportReader = (): ReportReader => {
  const reader = lineReader((line) => decodeLine(ReportHeaderLine, line), (header, line): ReportEntry | FileFormatError => {
    const entry = decodeLine(EntryLine, line)
    if (entry instanceof FileFormatError) return entry
    return { ...entry, scheme: header.scheme, format: "paykit_report", location: `line ${line.number}` }
  })
  return {
    write: reader.write,
    end: () => {
      const entries = reader.end()
      if (entries instanceof FileFormatError) return entries
      return reader.header() === undefined ? new FileFormatError("line 1", "the file is empty") : entries
    }
  }
}

/**
 * The codes of paykit's own reports: the API's causes themselves, so a report for a scheme
 * without a file format says what happened in the API's words.
 */
export const PAYKIT_REPORT_CODES: Readonly<Record<string, { readonly kinds: ReadonlyArray<ReportEntryKind>; readonly description: string }>> = {
  insufficient_funds: { kinds: ["collection_returned"], description: "The customer's account had insufficient funds to make this payment." },
  refer_to_payer: { kinds: ["collection_returned"], description: "The customer's bank asked them to contact you about this payment." },
  bank_account_closed: {
    kinds: ["collection_returned", "mandate_rejected", "mandate_cancelled"],
    description: "The customer's bank account has been closed."
  },
  invalid_bank_details: { kinds: ["collection_returned", "mandate_rejected"], description: "The bank account details for this mandate are invalid." },
  authorisation_disputed: {
    kinds: ["collection_charged_back", "collection_returned", "mandate_cancelled"],
    description: "The customer has disputed having authorised you to take this payment."
  },
  mandate_cancelled: { kinds: ["collection_returned", "mandate_cancelled"], description: "The mandate was cancelled at the customer's bank." },
  direct_debit_not_enabled: { kinds: ["mandate_rejected"], description: "The customer's bank account does not accept direct debits." },
  bank_account_transferred: { kinds: ["bank_details_changed"], description: "The customer's bank account was moved to another bank or branch." }
}

const meaning = (format: string, kind: ReportEntryKind, code: string): ReasonMeaning | undefined => {
  if (format !== "paykit_report") return undefined
  const known = Object.hasOwn(PAYKIT_REPORT_CODES, code) ? PAYKIT_REPORT_CODES[code] : undefined
  return known === undefined || !known.kinds.includes(kind) ? undefined : { cause: code, description: known.description, reason_code: code }
}

/** paykit's own files: what every scheme without a file format of its own is written and read in. */
export const paykitFiles: SchemeFiles = {
  schemes: [],
  submission: {
    format: "paykit_submission",
    contentType: "application/x-ndjson",
    extension: "jsonl",
    writer: submissionWriter,
    reader: submissionReader
  },
  reports: [{
    format: "paykit_report",
    contentType: "application/x-ndjson",
    sniff: { format: "paykit_report", matches: (head) => /^\s*\{"format":"paykit_report"/.test(head) },
    reader: reportReader,
    writer: reportWriter
  }],
  meaning
}
