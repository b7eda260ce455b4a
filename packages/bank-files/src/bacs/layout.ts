import { type LocalDate, makeLocalDate, isLeapYear, toDayNumber, fromDayNumber } from "@paykit/core"
import type { CollectionSequence, MandateInstruction } from "../model.ts"

/**
 * The Bacs Standard 18 layout, one definition per field: every position below is 1-based and
 * inclusive, as Bacs' own tables give them (the field tables are in docs/bank-rails.md with
 * their sources). The writer places values by these fields and the reader slices by them.
 */

/** A fixed-width field: where it starts (1-based) and how many characters it has. */
export interface Field {
  readonly at: number
  readonly width: number
}
const field = (at: number, width: number): Field => ({ at, width })

/** Labels (VOL1, HDR1/2, UHL1, EOF1/2, UTL1) are 80 characters. */
export const LABEL_LENGTH = 80
/** A data record of a multi-processing-day file: the 100 characters plus the processing day. */
export const RECORD_LENGTH = 106
/** A data record of a single-processing-day file, which the reader also reads. */
export const DAILY_RECORD_LENGTH = 100

export const VOL1 = {
  label: field(1, 4),
  /** The submission serial: 6 characters, not all zeros or blanks, unique for the day. */
  serial: field(5, 6),
  accessibility: field(11, 1),
  /** The owner: the service user number of the submitter. */
  owner: field(42, 6),
  standardLevel: field(80, 1)
} as const

/** HDR1, and EOF1 which repeats it. */
export const HDR1 = {
  label: field(1, 4),
  /** The file identifier, positions 5-21: `A`, the SUN, `S`, two free characters, the file's number, the SUN again. */
  identifierA: field(5, 1),
  sun: field(6, 6),
  identifierS: field(12, 1),
  identifierFree: field(13, 2),
  fileNumber: field(15, 1),
  sunAgain: field(16, 6),
  /** The set identification: the VOL1 serial. */
  setIdentification: field(22, 6),
  sectionNumber: field(28, 4),
  sequenceNumber: field(32, 4),
  generationNumber: field(36, 4),
  generationVersion: field(40, 2),
  creationDate: field(42, 6),
  expirationDate: field(48, 6),
  accessibility: field(54, 1),
  blockCount: field(55, 6),
  systemCode: field(61, 13)
} as const

/** HDR2, and EOF2 which repeats it. */
export const HDR2 = {
  label: field(1, 4),
  recordFormat: field(5, 1),
  blockLength: field(6, 5),
  recordLength: field(11, 5),
  bufferOffset: field(51, 2)
} as const

export const UHL1 = {
  label: field(1, 4),
  processingDate: field(5, 6),
  /** Identifying number of the receiving party: `999999`, then four blanks. */
  receivingParty: field(11, 6),
  currency: field(21, 2),
  country: field(23, 6),
  workCode: field(29, 9),
  fileNumber: field(38, 3),
  auditPrint: field(48, 7)
} as const

/** A data record: a payment instruction, a Direct Debit Instruction or a contra. */
export const DATA = {
  destinationSortCode: field(1, 6),
  destinationAccount: field(7, 8),
  destinationAccountType: field(15, 1),
  transactionCode: field(16, 2),
  originatingSortCode: field(18, 6),
  originatingAccount: field(24, 8),
  freeFormat: field(32, 4),
  amount: field(36, 11),
  /** The service user's name (a contra: the narrative). */
  serviceUserName: field(47, 18),
  /** The service user's reference: the mandate's reference (a contra: `CONTRA`). */
  reference: field(65, 18),
  /** The payer's account name (a contra: the service user's account name). */
  destinationName: field(83, 18),
  processingDate: field(101, 6)
} as const

export const UTL1 = {
  label: field(1, 4),
  debitValue: field(5, 13),
  creditValue: field(18, 13),
  debitCount: field(31, 7),
  creditCount: field(38, 7),
  ddiCount: field(53, 7),
  /** For the service user's own use: paykit writes the submission's id here. */
  serviceUser: field(60, 21)
} as const

export const RECEIVING_PARTY = "999999"
export const STERLING = "00"
export const COUNTRY = "000000"
/** The work code of a multi-processing-day file, whose records each carry their processing day. */
export const WORK_CODE_MULTI = "4 MULTI  "
export const WORK_CODE_DAILY = "1 DAILY  "
export const BLOCK_LENGTH = "02000"
export const CONTRA_REFERENCE = "CONTRA"

/** The Direct Debit Instruction codes (AUDDIS): a new instruction, a cancellation, a converted paper one. */
export const MANDATE_CODES: Readonly<Record<MandateInstruction["action"], string>> = { setup: "0N", cancel: "0C", convert: "0S" }

/**
 * The collection codes: `01` a DDI's first collection, `17` a later one, `18` a re-presentation,
 * `19` its final one. Bacs has no code for a one-off: it is the DDI's first (and only) collection.
 */
export const COLLECTION_CODES: Readonly<Record<CollectionSequence, string>> = {
  first: "01",
  recurring: "17",
  represented: "18",
  final: "19",
  one_off: "01"
}
/** What each collection code reads back as (`01` reads as `first`, a one-off included). */
export const SEQUENCE_OF_CODE: Readonly<Record<string, CollectionSequence>> = { "01": "first", "17": "recurring", "18": "represented", "19": "final" }
export const ACTION_OF_CODE: Readonly<Record<string, MandateInstruction["action"]>> = { "0N": "setup", "0C": "cancel", "0S": "convert" }

/** A credit contra: balances a file's debits into the service user's account. */
export const CREDIT_CONTRA_CODE = "99"
/** A debit contra: balances a file of credits (read, never written: paykit submits debits). */
export const DEBIT_CONTRA_CODE = "17"

/** The largest amount one record carries: 11 digits of pence. */
export const MAX_RECORD_AMOUNT = 99_999_999_999
/** The largest value total UTL1 carries: 13 digits of pence. */
export const MAX_FILE_VALUE = 9_999_999_999_999
/** The most items of one kind one file counts: 7 digits. */
export const MAX_FILE_ITEMS = 9_999_999

/** `value` in `field` of `line` (which may be shorter: a missing tail reads as blanks). */
export const slice = (line: string, f: Field): string => line.slice(f.at - 1, f.at - 1 + f.width).padEnd(f.width, " ")

/** A record of `length` characters with each value at its field; unset positions are blanks. */
export const record = (length: number, values: ReadonlyArray<readonly [Field, string]>): string => {
  const chars = new Array<string>(length).fill(" ")
  for (const [f, value] of values) {
    if (value.length !== f.width) throw new Error(`a value of ${value.length} characters for a field of ${f.width} at ${f.at}`)
    for (let i = 0; i < value.length; i++) chars[f.at - 1 + i] = value.charAt(i)
  }
  return chars.join("")
}

/** Digits right-aligned and zero-filled to `width`. */
export const zeroFilled = (n: number, width: number): string => String(n).padStart(width, "0")

/** Text left-aligned and blank-filled to `width` (cut to it). */
export const blankFilled = (s: string, width: number): string => s.slice(0, width).padEnd(width, " ")

/**
 * Text in Bacs' character set: upper case A-Z, digits, space, full stop, ampersand, slash and
 * hyphen. Accents are dropped (É -> E), lower case is raised, anything else becomes a space;
 * runs of spaces close up and the result is cut to `width`.
 */
export const bacsText = (value: string, width: number): string =>
  value
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .replace(/[^A-Z0-9 .&/-]/g, " ")
    .replace(/ {2,}/g, " ")
    .trim()
    .slice(0, width)
    .trimEnd()

/** Whether `value` is already in Bacs' character set, as `bacsText` would leave it. */
export const isBacsText = (value: string, width: number): boolean => bacsText(value, width) === value

/**
 * Why a service user's reference would be refused, if it would: Bacs wants at least six letters
 * or digits, not all the same one, and keeps references beginning `DDIC` for indemnity claims.
 */
export const referenceProblem = (reference: string): string | undefined => {
  const letters = reference.replace(/[^A-Z0-9]/g, "")
  if (letters.length < 6) return "has fewer than six letters and digits"
  if (/^(.)\1*$/.test(letters)) return "is one character repeated"
  if (reference.startsWith("DDIC")) return "begins with DDIC, which Bacs keeps for indemnity claims"
  if (reference.toUpperCase() === CONTRA_REFERENCE) return "is CONTRA, which marks a contra record"
  return undefined
}

/** A date as Bacs writes it: a blank, the year's last two digits, the day of the year (` 26335`). */
export const bacsDate = (date: LocalDate): string => {
  const year = Number(date.slice(0, 4))
  const day = toDayNumber(date) - toDayNumber(makeLocalDate(year, 1, 1)) + 1
  return ` ${zeroFilled(year % 100, 2)}${zeroFilled(day, 3)}`
}

/** A Bacs date read back (years 2000-2099), or undefined if it is not one. */
export const parseBacsDate = (text: string): LocalDate | undefined => {
  const m = /^ (\d{2})(\d{3})$/.exec(text)
  if (m === null) return undefined
  const year = 2000 + Number(m[1])
  const day = Number(m[2])
  if (day < 1 || day > (isLeapYear(year) ? 366 : 365)) return undefined
  return fromDayNumber(toDayNumber(makeLocalDate(year, 1, 1)) + day - 1)
}
