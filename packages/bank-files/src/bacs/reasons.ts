import { PAYKIT_REPORT_CODES } from "../internal/paykit-files.ts"
import type { ReasonMeaning, ReportEntryKind, ReportFormat } from "../model.ts"

/**
 * What the codes of Bacs' four reports mean, in the API's words. Each report has its own table
 * (an ARUDD `1` is not an ADDACS `1`), and the API's `reason_code` names both, as GoCardless
 * spells it: `ARUDD-0`, `ADDACS-B`, `AUDDIS-5`, `DDICA-1`. The tables' sources and the reasons
 * for each `cause` are in docs/bank-rails.md.
 */

/** One code of a report: the entry it makes, Bacs' own words for it, and what the API says. */
export interface BacsReason {
  readonly kind: ReportEntryKind
  /** Bacs' description, as its reports print it (ARUDD's `returnDescription`). */
  readonly bacs: string
  readonly cause: string
  readonly description: string
}

const reason = (kind: ReportEntryKind, bacs: string, cause: string, description: string): BacsReason => ({ kind, bacs, cause, description })

/** The API's own words for a cause, as paykit's report codes give them: one description per cause. */
const apiWords = (cause: string): string => {
  const found = PAYKIT_REPORT_CODES[cause]
  if (found === undefined) throw new Error(`paykit's report codes describe no ${cause}`)
  return found.description
}

const INSUFFICIENT_FUNDS = apiWords("insufficient_funds")
const MANDATE_CANCELLED = apiWords("mandate_cancelled")
const BANK_ACCOUNT_CLOSED = apiWords("bank_account_closed")
const BANK_ACCOUNT_TRANSFERRED = apiWords("bank_account_transferred")
const INVALID_BANK_DETAILS = apiWords("invalid_bank_details")
const AUTHORISATION_DISPUTED = apiWords("authorisation_disputed")
const DIRECT_DEBIT_NOT_ENABLED = apiWords("direct_debit_not_enabled")
const PAYER_DECEASED = "The customer has died, so their bank cancelled the mandate."

/** ARUDD: a collection the payer's bank returned unpaid. */
export const ARUDD_REASONS: Readonly<Record<string, BacsReason>> = {
  "0": reason("collection_returned", "REFER TO PAYER", "insufficient_funds", INSUFFICIENT_FUNDS),
  "1": reason("collection_returned", "INSTRUCTION CANCELLED", "mandate_cancelled", "The mandate for this payment was cancelled at the customer's bank before the payment was taken."),
  "2": reason("collection_returned", "PAYER DECEASED", "mandate_cancelled", PAYER_DECEASED),
  "3": reason("collection_returned", "ACCOUNT TRANSFERRED", "bank_account_transferred", BANK_ACCOUNT_TRANSFERRED),
  "4": reason("collection_returned", "ADVANCE NOTICE DISPUTED", "authorisation_disputed", "The customer disputed the advance notice of this payment (its amount or date)."),
  "5": reason("collection_returned", "NO ACCOUNT", "invalid_bank_details", "The customer's bank has no account with these details (or it cannot take Direct Debits)."),
  "6": reason("collection_returned", "NO INSTRUCTION", "mandate_cancelled", "The customer's bank holds no Direct Debit Instruction for this mandate."),
  "7": reason("collection_returned", "AMOUNT DIFFERS", "refer_to_payer", "The amount differs from the one the customer's Direct Debit Instruction allows."),
  "8": reason("collection_returned", "AMOUNT NOT YET DUE", "refer_to_payer", "The payment was collected before it was due under the customer's advance notice."),
  "9": reason("collection_returned", "PRESENTATION OVERDUE", "refer_to_payer", "The payment was presented too long after the date the customer was told it would be taken."),
  A: reason("collection_returned", "SERVICE USER DIFFERS", "mandate_cancelled", "The customer's Direct Debit Instruction is held for a different service user."),
  B: reason("collection_returned", "ACCOUNT CLOSED", "bank_account_closed", BANK_ACCOUNT_CLOSED)
}

/** ADDACS: the payer's bank cancelled, amended or reinstated a mandate. */
export const ADDACS_REASONS: Readonly<Record<string, BacsReason>> = {
  "0": reason("mandate_cancelled", "INSTRUCTION CANCELLED - REFER TO PAYER", "refer_to_payer", "The customer's bank cancelled the mandate and asked them to contact you."),
  "1": reason("mandate_cancelled", "INSTRUCTION CANCELLED BY PAYER", "mandate_cancelled", "The mandate was cancelled at the customer's request at their bank."),
  "2": reason("mandate_cancelled", "PAYER DECEASED", "mandate_cancelled", PAYER_DECEASED),
  "3": reason("mandate_cancelled", "ACCOUNT TRANSFERRED TO A NEW BANK", "bank_account_transferred", `${BANK_ACCOUNT_TRANSFERRED} The mandate must be set up again on the new account.`),
  B: reason("mandate_cancelled", "ACCOUNT CLOSED", "bank_account_closed", BANK_ACCOUNT_CLOSED),
  C: reason("bank_details_changed", "ACCOUNT TRANSFERRED TO A DIFFERENT BRANCH", "bank_account_transferred", "The customer's bank account moved to a different branch; collections continue on the new details."),
  D: reason("mandate_cancelled", "ADVANCE NOTICE DISPUTED", "authorisation_disputed", "The customer disputed the advance notice of their payments (amount, date or frequency); nothing more may be collected until it is resolved."),
  E: reason("bank_details_changed", "INSTRUCTION AMENDED", "bank_account_transferred", "The customer's bank amended the mandate's account details; collections continue on the new details."),
  R: reason("mandate_reinstated", "INSTRUCTION REINSTATED", "mandate_reinstated", "The customer's bank reinstated the mandate it had cancelled.")
}

/** AUDDIS: the payer's bank refused a Direct Debit Instruction. */
export const AUDDIS_REASONS: Readonly<Record<string, BacsReason>> = {
  "1": reason("mandate_rejected", "INSTRUCTION CANCELLED BY PAYER", "mandate_cancelled", "The customer cancelled the mandate at their bank."),
  "2": reason("mandate_rejected", "PAYER DECEASED", "mandate_cancelled", PAYER_DECEASED),
  "3": reason("mandate_rejected", "ACCOUNT TRANSFERRED", "bank_account_transferred", BANK_ACCOUNT_TRANSFERRED),
  "5": reason("mandate_rejected", "NO ACCOUNT", "invalid_bank_details", INVALID_BANK_DETAILS),
  "6": reason("mandate_rejected", "NO INSTRUCTION", "mandate_cancelled", "The customer's bank holds no Direct Debit Instruction to cancel or convert."),
  "7": reason("mandate_rejected", "DDI AMOUNT NOT ZERO", "scheme_rejected", "Bacs refused the mandate: its instruction carried an amount."),
  B: reason("mandate_rejected", "ACCOUNT CLOSED", "bank_account_closed", BANK_ACCOUNT_CLOSED),
  C: reason("mandate_rejected", "ACCOUNT TRANSFERRED TO A DIFFERENT BRANCH", "bank_account_transferred", BANK_ACCOUNT_TRANSFERRED),
  F: reason("mandate_rejected", "INVALID ACCOUNT TYPE", "direct_debit_not_enabled", DIRECT_DEBIT_NOT_ENABLED),
  G: reason("mandate_rejected", "BANK WILL NOT ACCEPT DIRECT DEBITS ON ACCOUNT", "direct_debit_not_enabled", DIRECT_DEBIT_NOT_ENABLED),
  H: reason("mandate_rejected", "INSTRUCTION HAS EXPIRED", "mandate_expired", "The customer's bank holds this Direct Debit Instruction as expired."),
  I: reason("mandate_rejected", "PAYER REFERENCE IS NOT UNIQUE", "scheme_rejected", "The customer's bank already holds a mandate with this reference."),
  K: reason("mandate_rejected", "INSTRUCTION CANCELLED BY PAYING BANK", "mandate_cancelled", MANDATE_CANCELLED),
  L: reason("mandate_rejected", "INCORRECT PAYER'S ACCOUNT DETAILS", "invalid_bank_details", INVALID_BANK_DETAILS),
  M: reason("mandate_rejected", "TRANSACTION CODE / USER STATUS INCOMPATIBLE", "scheme_rejected", "Bacs refused the mandate: its transaction code is not allowed for this service user."),
  N: reason("mandate_rejected", "TRANSACTION DISALLOWED AT PAYER'S BRANCH", "direct_debit_not_enabled", DIRECT_DEBIT_NOT_ENABLED),
  O: reason("mandate_rejected", "INVALID REFERENCE", "scheme_rejected", "Bacs refused the mandate's reference."),
  P: reason("mandate_rejected", "PAYER'S NAME NOT PRESENT", "invalid_bank_details", "The mandate's instruction did not name the account holder."),
  Q: reason("mandate_rejected", "SERVICE USER'S NAME IS BLANK", "scheme_rejected", "Bacs refused the mandate: its instruction did not name the service user.")
}

/** DDICA: the payer claimed a collection back under the Direct Debit Guarantee. */
export const DDICA_REASONS: Readonly<Record<string, BacsReason>> = {
  "1": reason("collection_charged_back", "AMOUNT AND/OR DATE DIFFER FROM ADVANCE NOTICE", "authorisation_disputed", "The customer disputed this payment: its amount or date differed from the advance notice."),
  "2": reason("collection_charged_back", "NO ADVANCE NOTICE RECEIVED OR AMOUNT DISPUTED", "authorisation_disputed", "The customer disputed this payment: they had no advance notice of it, or dispute its amount."),
  "3": reason("collection_charged_back", "DDI CANCELLED BY PAYING BANK", "mandate_cancelled", "The customer's bank had cancelled the mandate before this payment was taken."),
  "4": reason("collection_charged_back", "PAYER HAS CANCELLED DDI DIRECT WITH SERVICE USER", "mandate_cancelled", "The customer had cancelled the mandate with you before this payment was taken."),
  "5": reason("collection_charged_back", "NO INSTRUCTION HELD - PAYER DISPUTES AUTHORITY", "authorisation_disputed", AUTHORISATION_DISPUTED),
  "6": reason("collection_charged_back", "SIGNATURE ON DDI FRAUDULENT OR NOT IN ACCORDANCE WITH MANDATE", "authorisation_disputed", "The customer disputes the signature on the mandate."),
  "7": reason("collection_charged_back", "CLAIM RAISED AT SERVICE USER'S REQUEST", "refund_requested", "You asked the customer's bank to refund this payment."),
  "8": reason("collection_charged_back", "SERVICE USER NOT RECOGNISED BY PAYER", "authorisation_disputed", "The customer does not recognise you as the collector of this payment.")
}

/** Each report format's table and the prefix of its `reason_code`. */
export const BACS_REASON_TABLES: Readonly<Partial<Record<ReportFormat, { readonly prefix: string; readonly reasons: Readonly<Record<string, BacsReason>> }>>> = {
  bacs_arudd: { prefix: "ARUDD", reasons: ARUDD_REASONS },
  bacs_addacs: { prefix: "ADDACS", reasons: ADDACS_REASONS },
  bacs_auddis: { prefix: "AUDDIS", reasons: AUDDIS_REASONS },
  bacs_ddica: { prefix: "DDICA", reasons: DDICA_REASONS }
}

/** AUDDIS's rejection of a whole DDI file carries Bacs' numeric file error code instead of a reason code. */
const AUDDIS_FILE_ERROR = /^\d{4,5}$/

/** A Bacs code's meaning; undefined for a code the report does not define, or one that makes another kind of entry. */
export const bacsMeaning = (format: ReportFormat, kind: ReportEntryKind, code: string): ReasonMeaning | undefined => {
  if (format === "bacs_auddis" && kind === "mandate_rejected" && AUDDIS_FILE_ERROR.test(code)) {
    return {
      cause: "scheme_rejected",
      description: `Bacs rejected the whole file of mandate instructions this one travelled in (file error code ${code}).`,
      reason_code: `AUDDIS-${code}`
    }
  }
  const table = BACS_REASON_TABLES[format]
  const found = table?.reasons[code]
  if (table === undefined || found === undefined || found.kind !== kind) return undefined
  return { cause: found.cause, description: found.description, reason_code: `${table.prefix}-${code}` }
}

/**
 * An ARUDD item's code: its `returnCode` where that is one of the table's codes; banks that print
 * Bacs' four-digit return code there are read by `returnDescription`, which names the reason.
 */
export const aruddCodeOf = (returnCode: string, returnDescription: string): string => {
  if (ARUDD_REASONS[returnCode] !== undefined) return returnCode
  const said = returnDescription.trim().toUpperCase()
  for (const [code, r] of Object.entries(ARUDD_REASONS)) if (r.bacs === said) return code
  return returnCode
}
