import type { BankAccount, ReasonMeaning, ReportEntryKind, ReportFormat } from "../model.ts"
import { alpha, isAccountNumber } from "./records.ts"

/**
 * The codes of NACHA returns (Addenda 99, `R01`...`R85`) and notifications of change (Addenda 98,
 * `C01`...`C13`), with what each means in the API's words. The titles are the Operating Rules'
 * (Appendix Four, "Return Entries", and Appendix Five, "Notification of Change"); the causes are
 * GoCardless's event causes, chosen as its ACH failure table does where it names the code.
 */

interface Code {
  /** The Rules' name of the code. */
  readonly title: string
  /** The event's `details.cause`. */
  readonly cause: string
  /** The event's `details.description`. */
  readonly description: string
}

const CLOSED = "The bank account for this payment has been closed. The mandate will also be cancelled."
const INVALID = "The account number was invalid. The mandate will also be cancelled or failed."
const DISPUTED = "The customer has disputed having authorised you to take this payment."
const DECEASED = "This payment failed because the customer is deceased."
const REFUSED_BY_BANK = "The customer's bank returned the payment for a reason of its own; contact the customer about it."
const BETWEEN_BANKS = "The banks disputed the return of this payment between themselves; contact the customer about it."
const INTERNATIONAL = "The payment was returned by an international gateway; paykit does not originate international (IAT) entries."

const refer = (title: string, description = REFUSED_BY_BANK): Code => ({ title, cause: "refer_to_payer", description })

/** Every return reason code of the Rules, by code. */
export const ACH_RETURN_CODES: Readonly<Record<string, Code>> = {
  R01: { title: "Insufficient Funds", cause: "insufficient_funds", description: "The customer's account had insufficient funds to make this payment." },
  R02: { title: "Account Closed", cause: "bank_account_closed", description: CLOSED },
  R03: { title: "No Account/Unable to Locate Account", cause: "invalid_bank_details", description: "The bank account specified does not exist. The mandate will also be cancelled." },
  R04: { title: "Invalid Account Number Structure", cause: "invalid_bank_details", description: INVALID },
  R05: { title: "Unauthorized Debit to Consumer Account Using Corporate SEC Code", cause: "authorisation_disputed", description: DISPUTED },
  R06: { title: "Returned per ODFI's Request", cause: "return_on_odfi_request", description: "The payment was returned at the request of the originating bank." },
  R07: {
    title: "Authorization Revoked by Customer",
    cause: "authorisation_disputed",
    description: "The customer claims that they asked you to cancel their mandate before you took the payment."
  },
  R08: { title: "Payment Stopped", cause: "refer_to_payer", description: "The customer asked their bank to stop this payment." },
  R09: { title: "Uncollected Funds", cause: "insufficient_funds", description: "The customer's account had insufficient funds to make this payment." },
  R10: { title: "Customer Advises Originator is Not Known to Receiver and/or Not Authorized", cause: "authorisation_disputed", description: DISPUTED },
  R11: {
    title: "Customer Advises Entry Not in Accordance with the Terms of the Authorization",
    cause: "authorisation_disputed",
    description: "The customer says this payment was not taken as they authorised it (its amount or its date)."
  },
  R12: {
    title: "Account Sold to Another DFI",
    cause: "bank_account_closed",
    description: "This payment has been cancelled because the account has been sold to another financial institution."
  },
  R13: { title: "Invalid ACH Routing Number", cause: "invalid_bank_details", description: INVALID },
  R14: { title: "Representative Payee Deceased or Unable to Continue in that Capacity", cause: "bank_account_closed", description: DECEASED },
  R15: { title: "Beneficiary or Account Holder (Other Than a Representative Payee) Deceased", cause: "bank_account_closed", description: DECEASED },
  R16: {
    title: "Account Frozen/Entry Returned per OFAC Instruction",
    cause: "refer_to_payer",
    description: "This payment has been cancelled because the payer's bank account is frozen."
  },
  R17: refer("File Record Edit Criteria/Entry with Invalid Account Number Initiated Under Questionable Circumstances"),
  R18: refer("Improper Effective Entry Date"),
  R19: refer("Amount Field Error"),
  R20: {
    title: "Non-Transaction Account",
    cause: "direct_debit_not_enabled",
    description: "The customer's bank account does not accept ACH debits."
  },
  R21: refer("Invalid Company Identification"),
  R22: refer("Invalid Individual ID Number"),
  R23: refer("Credit Entry Refused by Receiver"),
  R24: refer("Duplicate Entry"),
  R25: refer("Addenda Error"),
  R26: refer("Mandatory Field Error"),
  R27: refer("Trace Number Error"),
  R28: { title: "Routing Number Check Digit Error", cause: "invalid_bank_details", description: INVALID },
  R29: { title: "Corporate Customer Advises Not Authorized", cause: "authorisation_disputed", description: DISPUTED },
  R30: refer("RDFI Not Participant in Check Truncation Program"),
  R31: refer("Permissible Return Entry (CCD and CTX Only)"),
  R32: refer("RDFI Non-Settlement"),
  R33: refer("Return of XCK Entry"),
  R34: refer("Limited Participation DFI"),
  R35: refer("Return of Improper Debit Entry"),
  R36: refer("Return of Improper Credit Entry"),
  R37: refer("Source Document Presented for Payment"),
  R38: refer("Stop Payment on Source Document"),
  R39: refer("Improper Source Document/Source Document Presented for Payment"),
  R40: refer("Return of ENR Entry by Federal Government Agency"),
  R41: refer("Invalid Transaction Code (ENR Only)"),
  R42: refer("Routing Number/Check Digit Error (ENR Only)"),
  R43: refer("Invalid DFI Account Number (ENR Only)"),
  R44: refer("Invalid Individual ID Number/Identification Number (ENR Only)"),
  R45: refer("Invalid Individual Name/Company Name (ENR Only)"),
  R46: refer("Invalid Representative Payee Indicator (ENR Only)"),
  R47: refer("Duplicate Enrollment (ENR Only)"),
  R50: refer("State Law Affecting RCK Acceptance"),
  R51: { title: "Item Related to RCK Entry is Ineligible or RCK Entry is Improper", cause: "authorisation_disputed", description: DISPUTED },
  R52: refer("Stop Payment on Item Related to RCK Entry"),
  R53: refer("Item and RCK Entry Presented for Payment"),
  R61: refer("Misrouted Return", BETWEEN_BANKS),
  R62: refer("Return of Erroneous or Reversing Debit", BETWEEN_BANKS),
  R67: refer("Duplicate Return", BETWEEN_BANKS),
  R68: refer("Untimely Return", BETWEEN_BANKS),
  R69: refer("Field Error(s)", BETWEEN_BANKS),
  R70: refer("Permissible Return Entry Not Accepted/Return Not Requested by ODFI", BETWEEN_BANKS),
  R71: refer("Misrouted Dishonored Return", BETWEEN_BANKS),
  R72: refer("Untimely Dishonored Return", BETWEEN_BANKS),
  R73: refer("Timely Original Return", BETWEEN_BANKS),
  R74: refer("Corrected Return", BETWEEN_BANKS),
  R75: refer("Return Not a Duplicate", BETWEEN_BANKS),
  R76: refer("No Errors Found", BETWEEN_BANKS),
  R77: refer("Non-Acceptance of R62 Dishonored Return", BETWEEN_BANKS),
  R80: refer("IAT Entry Coding Error", INTERNATIONAL),
  R81: refer("Non-Participant in IAT Program", INTERNATIONAL),
  R82: { title: "Invalid Foreign Receiving DFI Identification", cause: "invalid_bank_details", description: INVALID },
  R83: refer("Foreign Receiving DFI Unable to Settle", INTERNATIONAL),
  R84: refer("Entry Not Processed by Gateway", INTERNATIONAL),
  R85: refer("Incorrectly Coded Outbound International Payment", INTERNATIONAL)
}

/**
 * The return codes by which the payer disputes the debit itself (the Rules' "unauthorized"
 * returns, with their longer return deadline): read as `collection_charged_back`.
 */
export const UNAUTHORISED_RETURN_CODES: ReadonlyArray<string> = ["R05", "R07", "R10", "R11", "R29", "R51"]

/** What a notification of change corrects of the payer's account, in `BankAccount`'s fields. */
export type Correction = "account_number" | "routing_number" | "account_type" | "account_holder_name"

interface ChangeCode extends Code {
  readonly corrects: ReadonlyArray<Correction>
}

const ORIGINATOR = "The customer's bank says data the creditor sent with the payment is wrong and must be corrected; the customer's bank account is unchanged."
const MOVED = "The customer's bank account was moved: its routing number changed (a bank merger or a branch sale)."
const CORRECTED = "The customer's bank corrected the bank account details for this mandate."

/**
 * The change codes a notification of change can carry to an originator. `C08` and `C14` concern
 * international (IAT) entries, which paykit does not originate; `C61`-`C69` refuse a
 * notification and travel from an ODFI to an RDFI, never to an originator.
 */
export const ACH_CHANGE_CODES: Readonly<Record<string, ChangeCode>> = {
  C01: { title: "Incorrect DFI Account Number", cause: "invalid_bank_details", description: CORRECTED, corrects: ["account_number"] },
  C02: { title: "Incorrect Routing Number", cause: "bank_account_transferred", description: MOVED, corrects: ["routing_number"] },
  C03: { title: "Incorrect Routing Number and Incorrect DFI Account Number", cause: "bank_account_transferred", description: MOVED, corrects: ["routing_number", "account_number"] },
  C04: { title: "Incorrect Individual Name/Receiving Company Name", cause: "invalid_bank_details", description: CORRECTED, corrects: ["account_holder_name"] },
  C05: { title: "Incorrect Transaction Code", cause: "invalid_bank_details", description: CORRECTED, corrects: ["account_type"] },
  C06: { title: "Incorrect DFI Account Number and Incorrect Transaction Code", cause: "invalid_bank_details", description: CORRECTED, corrects: ["account_number", "account_type"] },
  C07: {
    title: "Incorrect Routing Number, Incorrect DFI Account Number, and Incorrect Transaction Code",
    cause: "bank_account_transferred",
    description: MOVED,
    corrects: ["routing_number", "account_number", "account_type"]
  },
  C09: { title: "Incorrect Individual Identification Number", cause: "originator_details_incorrect", description: ORIGINATOR, corrects: [] },
  C10: { title: "Incorrect Company Name", cause: "originator_details_incorrect", description: ORIGINATOR, corrects: [] },
  C11: { title: "Incorrect Company Identification", cause: "originator_details_incorrect", description: ORIGINATOR, corrects: [] },
  C12: { title: "Incorrect Company Name and Company Identification", cause: "originator_details_incorrect", description: ORIGINATOR, corrects: [] },
  C13: { title: "Addenda Format Error", cause: "originator_details_incorrect", description: ORIGINATOR, corrects: [] }
}

/** The entry kinds a code may be read as: any return of a prenote is a rejected mandate. */
const kindsOf = (code: string): ReadonlyArray<ReportEntryKind> =>
  code in ACH_CHANGE_CODES
    ? ["bank_details_changed"]
    : UNAUTHORISED_RETURN_CODES.includes(code)
    ? ["collection_charged_back", "mandate_rejected"]
    : ["collection_returned", "mandate_rejected"]

export const achMeaning = (format: ReportFormat, kind: ReportEntryKind, code: string): ReasonMeaning | undefined => {
  if (format !== "nacha_returns") return undefined
  const known = ACH_RETURN_CODES[code] ?? ACH_CHANGE_CODES[code]
  if (known === undefined || !kindsOf(code).includes(kind)) return undefined
  return { cause: known.cause, description: known.description, reason_code: code }
}

/** What a collection's return reads as: the payer's dispute, or a return. */
export const returnKindOf = (code: string): "collection_returned" | "collection_charged_back" =>
  UNAUTHORISED_RETURN_CODES.includes(code) ? "collection_charged_back" : "collection_returned"

// ---------------------------------------------------------------------------------------------
// Corrected data (Addenda 98 positions 36-64), as the Rules lay it out per change code

type AccountCorrection = Partial<Pick<BankAccount, Correction>>

/** The corrected transaction code's account, for codes of a checking (2x) or savings (3x) account. */
const accountTypeOf = (code: string): "checking" | "savings" | undefined =>
  /^2[2-9]$/.test(code) ? "checking" : /^3[2-9]$/.test(code) ? "savings" : undefined

const DEBIT_CODE = { checking: "27", savings: "37" } as const

/**
 * Reads the corrected data of a change code as the Rules lay it out: the routing number in
 * positions 1-9; the account number left-justified in 1-17 (`C01`, `C06`), 13-29 (`C03`) or
 * 10-26 (`C07`); the transaction code in 1-2 (`C05`), 21-22 (`C06`) or 27-28 (`C07`). A sender
 * that instead puts the transaction code last, right-justified, is read too: the parts are then
 * told apart by the spaces between them. Answers why it cannot, as a message.
 */
export const readCorrectedData = (code: string, data: string): AccountCorrection | string => {
  const blank = (from: number, to?: number) => data.slice(from, to).trim() === ""
  const tokens = (from: number) => data.slice(from).trim().split(/\s+/).filter((p) => p.length > 0)
  const routing = /^\d{9}$/.test(data.slice(0, 9)) ? data.slice(0, 9) : undefined
  const noRouting = "the corrected data's positions 1-9 are not a routing number"
  const noAccount = "the corrected data has no account number"
  const account = (value: string | undefined): string | undefined => (value !== undefined && isAccountNumber(value) ? value : undefined)
  const type = (tc: string | undefined): "checking" | "savings" | string =>
    tc === undefined ? "the corrected data has no transaction code" : (accountTypeOf(tc) ?? `the corrected transaction code ${tc} is not a checking or savings account's`)
  /** An account number and a transaction code: at the Rules' positions, or as the last two parts from `from`. */
  const accountAndType = (from: number, accountTo: number, codeAt: number): AccountCorrection | string => {
    const ruled = /^\d\d$/.test(data.slice(codeAt, codeAt + 2)) && blank(accountTo, codeAt) && blank(codeAt + 2)
    const [number, tc] = ruled ? [data.slice(from, accountTo).trim(), data.slice(codeAt, codeAt + 2)] : tokens(from)
    const t = type(tc)
    if (account(number) === undefined || number === undefined) return noAccount
    return t === "checking" || t === "savings" ? { account_number: number, account_type: t } : t
  }
  switch (code) {
    case "C01": {
      const number = account(data.slice(0, 17).trim())
      return number === undefined ? noAccount : { account_number: number }
    }
    case "C02":
      return routing === undefined ? noRouting : { routing_number: routing }
    case "C03": {
      const number = account(data.slice(9).trim())
      if (routing === undefined) return noRouting
      return number === undefined ? noAccount : { routing_number: routing, account_number: number }
    }
    case "C04": {
      const name = data.slice(0, 22).trim()
      return name === "" ? "the corrected data has no name" : { account_holder_name: name }
    }
    case "C05": {
      const t = type(tokens(0)[0])
      return t === "checking" || t === "savings" ? { account_type: t } : t
    }
    case "C06":
      return accountAndType(0, 17, 20)
    case "C07": {
      if (routing === undefined) return noRouting
      const rest = accountAndType(9, 26, 26)
      return typeof rest === "string" ? rest : { routing_number: routing, ...rest }
    }
    default:
      return {}
  }
}

/** The corrected data field (29 characters) of a change code, laid out as the Rules say; undefined when `details` lacks what the code corrects. */
export const writeCorrectedData = (code: string, details: AccountCorrection): string | undefined => {
  const pad = (text: string, width: number) => text.padEnd(width, " ")
  const { account_number: number, routing_number: routing, account_type: type, account_holder_name: name } = details
  const tc = type === undefined ? undefined : DEBIT_CODE[type]
  switch (code) {
    case "C01":
      return number === undefined ? undefined : pad(number, 29)
    case "C02":
      return routing === undefined ? undefined : pad(routing, 29)
    case "C03":
      return routing === undefined || number === undefined ? undefined : pad(`${routing}   ${number}`, 29)
    case "C04":
      return name === undefined ? undefined : pad(alpha(name, 22), 29)
    case "C05":
      return tc === undefined ? undefined : pad(tc, 29)
    case "C06":
      return number === undefined || tc === undefined ? undefined : pad(`${pad(number, 20)}${tc}`, 29)
    case "C07":
      return routing === undefined || number === undefined || tc === undefined ? undefined : pad(`${routing}${pad(number, 17)}${tc}`, 29)
    default:
      // C09-C13 correct the creditor's own data, which a report entry does not carry.
      return undefined
  }
}
