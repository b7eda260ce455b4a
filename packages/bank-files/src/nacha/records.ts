import { type LocalDate, parseLocalDate, type Timestamp } from "@paykit/core"
import { abaCheckDigit, abaRoutingIssues } from "@paykit/validation"
import type { BankAccount } from "../model.ts"

/**
 * The NACHA record layouts (the Operating Rules' Appendix Three, "ACH Record Format
 * Specifications") as far as paykit writes and reads them: 94-character records, one per line,
 * in blocks of ten. Positions below are the Rules' 1-based, inclusive ones.
 */

export const RECORD_LENGTH = 94
export const BLOCKING_FACTOR = 10
/** The record that pads the last block. */
export const PADDING_RECORD = "9".repeat(RECORD_LENGTH)

// The widths of the control records' counters bound a file: beyond them a file cannot say its totals.
/** Batch control positions 5-10. */
export const MAX_BATCH_ENTRY_ADDENDA_COUNT = 999_999
/** File control positions 2-7. */
export const MAX_BATCH_COUNT = 999_999
/** File control positions 8-13. */
export const MAX_BLOCK_COUNT = 999_999
/** The trace number's sequence, positions 88-94 of an entry. */
export const MAX_TRACE_SEQUENCE = 9_999_999
/** An entry's amount, positions 30-39, in cents. */
export const MAX_ENTRY_AMOUNT = 9_999_999_999
/** A control record's debit or credit total, 12 digits of cents. */
export const MAX_TOTAL_AMOUNT = 999_999_999_999
/** The entry hash keeps the rightmost 10 digits of the sum of the receiving DFIs' 8-digit identifications. */
export const ENTRY_HASH_MODULUS = 10_000_000_000

/** The running totals a control record states: entry/addenda count, entry hash, debit and credit totals. */
export interface Totals {
  count: number
  hash: number
  debit: number
  credit: number
}

export const emptyTotals = (): Totals => ({ count: 0, hash: 0, debit: 0, credit: 0 })

/** Counts an entry and its addenda into running totals. */
export const countEntry = (totals: Totals, entry: { readonly transactionCode: string; readonly rdfi: string; readonly amount: number; readonly addenda: number }) => {
  totals.count += 1 + entry.addenda
  totals.hash = (totals.hash + Number(entry.rdfi)) % ENTRY_HASH_MODULUS
  if (isDebitCode(entry.transactionCode)) totals.debit += entry.amount
  else totals.credit += entry.amount
}

/** Adds a closed batch's totals into the file's. */
export const addTotals = (file: Totals, batch: Totals) => {
  file.count += batch.count
  file.hash = (file.hash + batch.hash) % ENTRY_HASH_MODULUS
  file.debit += batch.debit
  file.credit += batch.credit
}

/** Service class codes (batch header positions 2-4). */
export const SERVICE_CLASS = { mixed: "200", credits: "220", debits: "225" } as const

/**
 * Transaction codes (entry positions 2-3). The second digit says the side: 1-4 a credit, 5-9 a
 * debit; 6 is the return or notification of change of an original debit (7) or prenote (8).
 */
export const TRANSACTION_CODE = {
  checking: { debit: "27", prenote: "28", returnOrNoc: "26" },
  savings: { debit: "37", prenote: "38", returnOrNoc: "36" }
} as const

export type AccountType = "checking" | "savings"

/** Whether a transaction code's amount counts among a control record's debits. */
export const isDebitCode = (code: string): boolean => {
  const side = code.charCodeAt(1) - 48
  return side >= 5 && side <= 9
}

/** The account a transaction code posts to, for checking (2x) and savings (3x) codes. */
export const accountTypeOfCode = (code: string): AccountType | undefined =>
  code.startsWith("2") ? "checking" : code.startsWith("3") ? "savings" : undefined

// ---------------------------------------------------------------------------------------------
// Writing fields

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

/**
 * Text as an alphameric field takes it: ASCII only (accents dropped, other characters a space),
 * left-justified, space-filled, cut at the width. Used for names, which may be shortened; an
 * identifier is checked to fit (and to be ASCII) before it is written.
 */
export const alpha = (text: string, width: number): string => {
  const ascii = PRINTABLE_ASCII.test(text) ? text : text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^\x20-\x7e]/g, " ")
  return ascii.length >= width ? ascii.slice(0, width) : ascii.padEnd(width, " ")
}

/** A numeric field: right-justified, zero-filled. The caller has checked that it fits. */
export const numeric = (value: number, width: number): string => String(value).padStart(width, "0")

/** Whether text can be written as is into an alphameric field of `width`. */
export const fitsAlpha = (text: string, width: number): boolean => text.length <= width && PRINTABLE_ASCII.test(text)

/** `YYMMDD` of a date. */
export const yymmdd = (date: LocalDate): string => `${date.slice(2, 4)}${date.slice(5, 7)}${date.slice(8, 10)}`

/** `YYMMDD` and `HHMM` of a timestamp, in UTC. */
export const dateAndTime = (at: Timestamp): { readonly date: string; readonly time: string } => ({
  date: `${at.slice(2, 4)}${at.slice(5, 7)}${at.slice(8, 10)}`,
  time: `${at.slice(11, 13)}${at.slice(14, 16)}`
})

/** A record, checked to be 94 characters: a wrong width is a bug in this folder, never in the data. */
export const record = (...fields: ReadonlyArray<string>): string => {
  const text = fields.join("")
  if (text.length !== RECORD_LENGTH) throw new Error(`a NACHA record of ${text.length} characters: ${text}`)
  return `${text}\n`
}

/** A DFI account number (entry positions 13-29): 1-17 characters, printable ASCII without spaces. */
export const isAccountNumber = (text: string): boolean => /^[\x21-\x7e]{1,17}$/.test(text)

/** Why an account cannot be written into an entry (`who` names it in the message), or undefined. */
export const accountIssue = (who: string, account: BankAccount, needsAccountNumber = true): string | undefined => {
  const routing = account.routing_number
  if (routing === undefined) return `${who} has no routing number`
  const issues = abaRoutingIssues(routing)
  if (issues.length > 0) return `${who}'s routing number ${routing} ${issues.join(" and ")}`
  if (!needsAccountNumber) return undefined
  return account.account_number !== undefined && isAccountNumber(account.account_number) ? undefined : `${who}'s account number must be 1-17 ASCII characters without spaces`
}

/** The nine-digit routing number whose first eight digits a file gives (an entry's receiving DFI, an addenda's original RDFI). */
export const routingOf = (firstEight: string): string => `${firstEight}${abaCheckDigit(firstEight)}`

// ---------------------------------------------------------------------------------------------
// Reading fields

/** The characters at the Rules' 1-based, inclusive positions `from`-`to`. */
export const at = (text: string, from: number, to: number): string => text.slice(from - 1, to)

/** A field of digits only, as a number; undefined if any character is not a digit. */
export const digits = (text: string): number | undefined => (/^\d+$/.test(text) ? Number(text) : undefined)

/** A `YYMMDD` field as a date of 2000-2099; undefined if it is not a calendar date. */
export const dateOf = (text: string): LocalDate | undefined =>
  /^\d{6}$/.test(text) ? parseLocalDate(`20${text.slice(0, 2)}-${text.slice(2, 4)}-${text.slice(4, 6)}`) : undefined
