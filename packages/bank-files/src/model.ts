import type { LocalDate, Timestamp } from "@paykit/core"

/**
 * What a bank file says, apart from how each scheme spells it: the items a submission carries to
 * the bank, the entries a bank's report carries back, and the incremental writers and readers each
 * scheme's folder implements. Nothing here reads a clock or storage: a writer is handed every
 * value it prints (the submission's id, creation time, processing date), so the same submission
 * always writes the same bytes.
 *
 * Files can be large (a day's collections of a big creditor), so nothing here holds a whole file:
 * a writer is called once per item and answers that item's text; a reader is fed chunks as they
 * arrive and answers the entries each chunk completes. The caller decides how chunks move (an
 * Effect Stream, a Node stream, a loop over a database cursor).
 */

// ---------------------------------------------------------------------------------------------
// Formats

/** The submission file formats: one per scheme with files, and paykit's own for the others. */
export const SUBMISSION_FILE_FORMATS = ["pain.008.001.02", "bacs_standard18", "nacha", "paykit_submission"] as const
export type SubmissionFileFormat = (typeof SUBMISSION_FILE_FORMATS)[number]

/** The report formats a bank sends back; `paykit_report` is the sandbox's for schemes without files. */
export const REPORT_FORMATS = [
  "pain.002.001.03",
  "camt.054.001.02",
  "bacs_arudd",
  "bacs_addacs",
  "bacs_auddis",
  "bacs_ddica",
  "nacha_returns",
  "paykit_report"
] as const
export type ReportFormat = (typeof REPORT_FORMATS)[number]

// ---------------------------------------------------------------------------------------------
// Submissions

/**
 * A bank account as a scheme file names it. Each scheme uses its own fields: SEPA the IBAN (and
 * the BIC when known), Bacs the sort code and 8-digit account number, ACH the routing number,
 * account number and account type.
 */
export interface BankAccount {
  readonly account_holder_name: string
  readonly iban?: string
  readonly bic?: string
  /** Bacs: 6 digits. */
  readonly sort_code?: string
  /** ACH: 9 digits (ABA routing transit number). */
  readonly routing_number?: string
  /** Bacs: 8 digits; ACH: up to 17 characters. */
  readonly account_number?: string
  /** ACH: which transaction codes apply (27/37 for debits, 28/38 for prenotes). */
  readonly account_type?: "checking" | "savings"
  /**
   * The bank's and the branch's codes where no field above names them, as the customer bank
   * account gives them (`bank_code`, `branch_code`): the BECS BSB, the PAD institution and transit
   * numbers, the Autogiro clearing number. Unset where a field above carries them.
   */
  readonly bank_code?: string
  readonly branch_code?: string
}

/** Who collects: the creditor, as the scheme knows it. */
export interface Originator {
  /** The creditor's id (`CR...`). */
  readonly creditor: string
  readonly name: string
  /**
   * The creditor's scheme identifier: the SEPA creditor identifier (`DE98ZZZ09999999999`), the
   * Bacs service user number (6 digits), the ACH company identification (10 characters).
   */
  readonly scheme_identifier: string
  /** Where collections are credited (the Bacs contra record, the SEPA creditor account, the ACH ODFI). */
  readonly account: BankAccount
}

/**
 * What a submission file's header needs before its first item: every value a writer prints that
 * is not an item's. `item_count` and `total_amount` are known when the submission is closed, so a
 * format that states them up front (pain.008's group header) can be written in one pass.
 */
export interface SubmissionHeader {
  /** The submission's id (`BS...`): pain.008's `MsgId`, the NACHA file id modifier's source, the Bacs file's serial. */
  readonly id: string
  readonly scheme: string
  readonly format: SubmissionFileFormat
  readonly currency: string
  /** The day the bank processes it: the SEPA collection date, the Bacs processing day, the ACH effective entry date. */
  readonly processing_date: LocalDate
  readonly created_at: Timestamp
  readonly originator: Originator
  /** Every item the file carries: mandate instructions included, unless the format refuses them (`mandateActions`). */
  readonly item_count: number
  /** The sum of the collections' amounts, in minor units. */
  readonly total_amount: number
}

/**
 * A mandate instruction: Bacs AUDDIS `0N` (setup), `0C` (cancel), `0S` (conversion of a paper
 * instruction); an ACH prenote for a setup. SEPA has no instruction of its own: a mandate's data
 * travels with its first collection, and its writer refuses them (`mandateActions` is empty).
 */
export interface MandateInstruction {
  readonly kind: "mandate"
  readonly action: "setup" | "cancel" | "convert"
  /** The mandate's id (`MD...`). */
  readonly mandate: string
  /** The mandate's `reference`: what the file names the mandate by (SEPA `MndtId`, the Bacs reference). */
  readonly mandate_reference: string
  readonly signed_on: LocalDate
  readonly debtor: BankAccount
  /** How the payer authorised it (ACH: `WEB` for `web`, `PPD` otherwise). */
  readonly authorisation_source: "web" | "telephone" | "paper"
}

/**
 * Where a collection stands among its mandate's: SEPA's sequence type (`FRST`, `RCUR`, `FNAL`,
 * `OOFF`) and Bacs's transaction code (`01`, `17`, `19`; `18` a re-presentation).
 */
export type CollectionSequence = "first" | "recurring" | "final" | "one_off" | "represented"

/** A direct debit collection. */
export interface Collection {
  readonly kind: "collection"
  /** The payment's id (`PM...`): its end-to-end reference wherever the format has room for it. */
  readonly payment: string
  readonly amount: number
  readonly currency: string
  readonly charge_date: LocalDate
  readonly sequence: CollectionSequence
  readonly mandate: string
  readonly mandate_reference: string
  readonly mandate_signed_on: LocalDate
  readonly authorisation_source: "web" | "telephone" | "paper"
  readonly debtor: BankAccount
  /** The payment's `description` or `reference`, as remittance information. */
  readonly remittance: string | null
}

export type SubmissionItem = MandateInstruction | Collection

/**
 * The order a writer is handed items in: mandate instructions first (Bacs puts them in a file of
 * their own, ACH prenotes precede debits), then collections grouped by what a format groups by
 * (the ACH standard entry class, the sequence), then by id. A writer starts a new group whenever a
 * grouped property changes, so any order is still a valid file; this one is the fewest groups.
 * Sortable as a string, so a store can keep it as a column and stream items back by it.
 */
export const itemSortKey = (item: SubmissionItem): string =>
  item.kind === "mandate"
    ? `0:${item.authorisation_source === "web" ? "W" : "P"}:${item.action}:${item.mandate}`
    : `1:${item.authorisation_source === "web" ? "W" : "P"}:${SEQUENCE_RANK[item.sequence]}:${item.payment}`

const SEQUENCE_RANK: Record<CollectionSequence, number> = { first: 0, recurring: 1, final: 2, one_off: 3, represented: 4 }

/**
 * Writes one submission file, one call per part: `begin` once, `item` per item in `itemSortKey`
 * order, `end` once. Each answers the text it adds (possibly empty). `end` checks what the header
 * promised (`item_count`, `total_amount`) against what was written and fails if they differ.
 */
export interface SubmissionWriter {
  readonly begin: () => string
  readonly item: (item: SubmissionItem) => string
  readonly end: () => string | FileFormatError
}

// ---------------------------------------------------------------------------------------------
// Reports

/**
 * What a report entry says happened:
 * - `collection_returned`: the payer's bank did not pay, or took the money back as a failure
 *   (ARUDD, pain.002 rejects, camt.054 returns, NACHA returns). Before settlement the payment
 *   fails; after it, it is a late failure.
 * - `collection_charged_back`: the payer disputed it under the scheme's indemnity (DDICA, a SEPA
 *   refund request, NACHA unauthorised returns `R05`/`R07`/`R10`/`R29`... after settlement).
 * - `mandate_rejected`: the mandate instruction was refused (AUDDIS, a prenote return, a pain.002
 *   reject naming the mandate).
 * - `mandate_cancelled`: the payer or their bank ended the mandate (ADDACS `1`, `B`, ...).
 * - `bank_details_changed`: the account moved or its details were corrected (ADDACS `C`/`E`, a
 *   NACHA notification of change): `new_details` says what to use from now on.
 * - `mandate_reinstated`: the payer's bank restored a mandate it had cancelled (ADDACS `R`), so
 *   collections may resume under it.
 */
export const REPORT_ENTRY_KINDS = [
  "collection_returned",
  "collection_charged_back",
  "mandate_rejected",
  "mandate_cancelled",
  "bank_details_changed",
  "mandate_reinstated"
] as const
export type ReportEntryKind = (typeof REPORT_ENTRY_KINDS)[number]

/**
 * How an entry names the item it is about. A format with room for the payment's id gives it
 * (`end_to_end`); Bacs names a collection by the mandate's reference with its amount and original
 * processing date, and a mandate by its reference alone. A bank that refuses a whole file, or a
 * whole batch of it, names the submission (`submission`, its id as the file gave it, with the
 * batch when only that was refused): the entry is about every item of it the report does not
 * name one by one.
 */
export type EntryTarget =
  | { readonly by: "end_to_end"; readonly id: string }
  | {
    readonly by: "mandate_reference"
    readonly reference: string
    /** A collection's amount, in minor units; absent for an entry about the mandate. */
    readonly amount?: number
    /** The collection's original processing (charge) date, where the report gives it. */
    readonly original_date?: LocalDate
  }
  | {
    readonly by: "submission"
    /** The submission's id as its file gave it (pain.008's `MsgId`: the `BS...` id). */
    readonly id: string
    /** The batch refused, when not the whole file (pain.008's `PmtInfId`, as `SubmittedItem.batch`). */
    readonly batch?: string
  }

export interface ReportEntry {
  readonly kind: ReportEntryKind
  readonly scheme: string
  readonly format: ReportFormat
  readonly target: EntryTarget
  /** The scheme's own code as the report gives it: Bacs `0`, SEPA `AM04`, ACH `R01` or `C01`. */
  readonly code: string
  /** The amount the report states for the item, in minor units, when it states one. */
  readonly amount?: number
  readonly currency?: string
  /** The day the report says it took effect, when it says. */
  readonly effective_date?: LocalDate
  /** The payer's account as the report states it (ARUDD and NACHA returns repeat it), when it does. */
  readonly debtor?: BankAccount
  /** `bank_details_changed`: the details to use from now on (only those that changed). */
  readonly new_details?: Partial<BankAccount>
  /** The submission the item travelled in, where the report names it (pain.002's `OrgnlMsgId`). */
  readonly submission?: string
  /** The batch of that submission, where the report names it (pain.002's `OrgnlPmtInfId`, camt.054's `PmtInfId`). */
  readonly batch?: string
  /**
   * The scheme's own reference of the original item, where the format carries one besides the
   * target: the NACHA original entry trace number. A report writer of such a format needs it
   * (the sandbox bank copies it from the `SubmittedItem`).
   */
  readonly scheme_reference?: string
  /** Where in the file the entry is: `line 12` or an element path, for errors and the entry's display. */
  readonly location: string
}

/**
 * What the scheme's code means, in the API's words: the event's `details.cause`, its
 * `details.description` and `details.reason_code` as GoCardless spells it (`ARUDD-0`, `AM04`, `R01`).
 */
export interface ReasonMeaning {
  readonly cause: string
  readonly description: string
  readonly reason_code: string
}

/** What a report's first bytes say about it, for detecting the format of a file posted without one. */
export interface ReportSniff {
  readonly format: ReportFormat
  /** Whether `head` (the file's first bytes, at least 512 or the whole file) is this format. */
  readonly matches: (head: string) => boolean
}

/**
 * Reads one report, fed in chunks as they arrive (a chunk may end anywhere, even inside a
 * multi-byte character), answering its entries in the order the file gives them (the engine
 * pairs a bank's notes with entries by that position). `write` answers the entries the chunk completed; `end` those left and
 * checks the file ended where the format says it must (totals, trailers). A malformed file
 * answers a `FileFormatError` naming the line or element; the caller applies nothing from a
 * file that fails anywhere.
 */
export interface ReportReader {
  readonly write: (chunk: Uint8Array) => ReadonlyArray<ReportEntry> | FileFormatError
  readonly end: () => ReadonlyArray<ReportEntry> | FileFormatError
}

/** Writes a report, as a bank would: the sandbox bank's side of the contract, and tests'. */
export interface ReportWriter {
  readonly begin: () => string
  readonly entry: (entry: ReportEntry) => string
  readonly end: () => string | FileFormatError
}

/** What a report's header says, for a writer: who it is for and when it was made. */
export interface ReportHeader {
  /** The report's own id as the bank gives it (a file name, a message id). */
  readonly id: string
  readonly scheme: string
  readonly format: ReportFormat
  readonly created_at: Timestamp
  /** The day the report covers (the Bacs processing day, the camt.054 booking date). */
  readonly report_date: LocalDate
  readonly originator: Originator
  readonly currency: string
}

// ---------------------------------------------------------------------------------------------
// Errors

/** A file that is not what its format says: where, and what is wrong there. */
export class FileFormatError {
  readonly _tag = "FileFormatError"
  constructor(
    /** `line 12`, `line 12, column 40`, or an element path such as `/Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts[2]/TxInfAndSts[3]`. */
    readonly location: string,
    readonly message: string
  ) {}
}

export const isFileFormatError = (u: unknown): u is FileFormatError => u instanceof FileFormatError

// ---------------------------------------------------------------------------------------------
// A scheme's formats

/** Everything one format family provides; each scheme folder exports one, `formats.ts` lists them. */
export interface SchemeFiles {
  /** The API's scheme names it serves (`sepa_core`, `bacs`, `ach`). */
  readonly schemes: ReadonlyArray<string>
  readonly submission: {
    readonly format: SubmissionFileFormat
    /** The `Content-Type` the file is served with. */
    readonly contentType: string
    /** The file name's extension, without the dot (`xml`, `txt`). */
    readonly extension: string
    /**
     * The mandate instruction actions the format has records for, when only some (ACH: `setup`,
     * as a prenote; ACH has no record that cancels or converts an authorisation, the originator
     * just stops or goes on debiting), or none (pain.008: a SEPA mandate travels with its first
     * collection). The writer is handed no other action: one makes its `end` fail, and the
     * header's `item_count` does not count it. Absent: every action.
     */
    readonly mandateActions?: ReadonlyArray<MandateInstruction["action"]>
    readonly writer: (header: SubmissionHeader) => SubmissionWriter
    /** Reads a submission back into its header's facts and items: the sandbox bank's way in, and tests'. */
    readonly reader: () => SubmissionReader
  }
  readonly reports: ReadonlyArray<{
    readonly format: ReportFormat
    readonly contentType: string
    readonly sniff: ReportSniff
    readonly reader: () => ReportReader
    readonly writer: (header: ReportHeader) => ReportWriter
  }>
  /** What a code of this scheme's reports means; undefined for a code the scheme does not define. */
  readonly meaning: (format: ReportFormat, kind: ReportEntryKind, code: string) => ReasonMeaning | undefined
}

/**
 * An item as a submission file states it, read back: what a bank learns from the file (the
 * sandbox bank decides its answers from this, as a real bank from the payer's account), and how
 * a report on it would name it.
 */
export interface SubmittedItem {
  readonly kind: "mandate" | "collection"
  /** A mandate instruction's action. */
  readonly action?: MandateInstruction["action"]
  /** How a report of this format names the item. */
  readonly target: EntryTarget
  readonly mandate_reference: string
  /** A collection's amount, in minor units. */
  readonly amount?: number
  readonly charge_date?: LocalDate
  readonly sequence?: CollectionSequence
  readonly debtor: BankAccount
  /** The batch the file put the item in, where the format has batches (pain.008's `PmtInfId`): what a report on it names. */
  readonly batch?: string
  /** The scheme's own reference of the item, where the format has one (the NACHA trace number): a report about it repeats it. */
  readonly scheme_reference?: string
  /** Where in the file the item is, as a `ReportEntry.location` would say. */
  readonly location: string
}

/** What a submission file says about its own header, as read back. */
export interface SubmissionFacts {
  readonly id: string
  readonly processing_date: LocalDate
  readonly originator: Pick<Originator, "name" | "scheme_identifier">
  readonly item_count: number
  readonly total_amount: number
}

/** Reads a submission file in chunks, as `ReportReader` reads a report; `end` adds the header's facts. */
export interface SubmissionReader {
  readonly write: (chunk: Uint8Array) => ReadonlyArray<SubmittedItem> | FileFormatError
  readonly end: () => { readonly items: ReadonlyArray<SubmittedItem>; readonly facts: SubmissionFacts } | FileFormatError
}
