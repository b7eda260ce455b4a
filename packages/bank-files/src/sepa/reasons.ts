import type { ReasonMeaning, ReportEntryKind, ReportFormat } from "../model.ts"

/**
 * The reason codes of SEPA Core R-transactions: the ISO 20022 external codes
 * (ExternalStatusReason1Code in pain.002, ExternalReturnReason1Code in camt.054) that the EPC's
 * "Guidance on reason codes for SDD R-transactions" (EPC173-14) lets a bank give for a reject, a
 * return, a refund or a reversal, each with the API's `cause` and a description in GoCardless's
 * words (its API reference's table of event reason codes). `reason_code` is the code itself, as
 * GoCardless gives SEPA's. docs/bank-rails.md prints this table.
 */

/** What one code means, and which kinds of entry it may explain. */
export interface SepaReason {
  /** The ISO 20022 name of the code. */
  readonly iso: string
  readonly cause: string
  readonly description: string
  readonly kinds: ReadonlyArray<ReportEntryKind>
}

const RETURNED: ReadonlyArray<ReportEntryKind> = ["collection_returned"]
const RETURNED_OR_MANDATE: ReadonlyArray<ReportEntryKind> = ["collection_returned", "mandate_rejected"]

const CATCH_ALL = "The customer's bank wasn't able to pay the Direct Debit. This is almost always due to insufficient funds, but is occasionally used as a catch-all for other failures."
const NOT_ENABLED = "The customer's bank account does not allow Direct Debit payments to be taken."

export const SEPA_REASON_CODES: Readonly<Record<string, SepaReason>> = {
  AC01: { iso: "IncorrectAccountNumber", cause: "invalid_bank_details", description: "The account number was invalid. The mandate will also be cancelled or failed.", kinds: RETURNED_OR_MANDATE },
  AC04: { iso: "ClosedAccountNumber", cause: "bank_account_closed", description: "The bank account for this payment has been closed. The mandate will also be cancelled.", kinds: RETURNED_OR_MANDATE },
  AC06: { iso: "BlockedAccount", cause: "direct_debit_not_enabled", description: "The customer's bank account is blocked for Direct Debit payments.", kinds: RETURNED_OR_MANDATE },
  AG01: { iso: "TransactionForbidden", cause: "direct_debit_not_enabled", description: NOT_ENABLED, kinds: RETURNED_OR_MANDATE },
  AG02: { iso: "InvalidBankOperationCode", cause: "refer_to_payer", description: "The customer's bank refused the collection's transaction code (for example a sequence type that does not fit the mandate).", kinds: RETURNED },
  AM04: { iso: "InsufficientFunds", cause: "insufficient_funds", description: "The customer's account had insufficient funds to make this payment.", kinds: RETURNED },
  AM05: { iso: "Duplication", cause: "refer_to_payer", description: "The customer's bank refused this payment as a duplicate of one already collected.", kinds: RETURNED },
  BE05: { iso: "UnrecognisedInitiatingParty", cause: "invalid_bank_details", description: "The customer's bank did not recognise the creditor identifier this payment was collected under.", kinds: RETURNED_OR_MANDATE },
  DNOR: { iso: "DebtorBankIsNotRegistered", cause: "direct_debit_not_enabled", description: "The customer's bank cannot be reached for SEPA Direct Debits.", kinds: RETURNED_OR_MANDATE },
  ED05: { iso: "SettlementFailed", cause: "refer_to_payer", description: "The payment failed because its settlement between the banks failed.", kinds: RETURNED },
  FF01: { iso: "InvalidFileFormat", cause: "refer_to_payer", description: "The payment was rejected because the file it was submitted in was not valid.", kinds: RETURNED_OR_MANDATE },
  MD01: { iso: "NoMandate", cause: "authorisation_disputed", description: "The customer has disputed having authorised you to take this payment.", kinds: ["collection_returned", "collection_charged_back", "mandate_rejected"] },
  MD02: { iso: "MissingMandatoryInformationInMandate", cause: "refer_to_payer", description: "The customer's bank rejected this payment because the mandate's information was missing or wrong.", kinds: RETURNED_OR_MANDATE },
  MD06: { iso: "RefundRequestByEndCustomer", cause: "authorisation_disputed", description: "The customer asked their bank to refund this payment.", kinds: ["collection_charged_back"] },
  MD07: { iso: "EndCustomerDeceased", cause: "bank_account_closed", description: "This payment failed because the customer is deceased.", kinds: RETURNED_OR_MANDATE },
  MS02: { iso: "NotSpecifiedReasonCustomerGenerated", cause: "refer_to_payer", description: "The customer refused to accept this payment.", kinds: RETURNED_OR_MANDATE },
  MS03: { iso: "NotSpecifiedReasonAgentGenerated", cause: "refer_to_payer", description: CATCH_ALL, kinds: RETURNED_OR_MANDATE },
  RC01: { iso: "BankIdentifierIncorrect", cause: "invalid_bank_details", description: "The customer's bank identifier (BIC) was invalid.", kinds: RETURNED_OR_MANDATE },
  RR01: { iso: "MissingDebtorAccountOrIdentification", cause: "invalid_bank_details", description: "The payment failed because the customer's account details were missing, for regulatory reasons.", kinds: RETURNED_OR_MANDATE },
  RR02: { iso: "MissingDebtorNameOrAddress", cause: "invalid_bank_details", description: "The payment failed because the customer's name or address was missing, for regulatory reasons.", kinds: RETURNED_OR_MANDATE },
  RR03: { iso: "MissingCreditorNameOrAddress", cause: "refer_to_payer", description: "The payment failed because your name or address was missing, for regulatory reasons.", kinds: RETURNED_OR_MANDATE },
  RR04: { iso: "RegulatoryReason", cause: "refer_to_payer", description: "The payment failed but the reason for the failure was not provided, usually for regulatory reasons.", kinds: RETURNED_OR_MANDATE },
  SL01: { iso: "SpecificServiceOfferedByDebtorAgent", cause: "refer_to_payer", description: "The customer's bank refused this payment under a service it offers the customer (such as a block on this creditor or a limit on amounts).", kinds: RETURNED }
}

/**
 * The codes a refund request carries (MD06 for an authorised payment within eight weeks, MD01
 * for an unauthorised one within thirteen months): in a camt.054, which notifies what happened
 * after settlement, they are chargebacks; every other returned code is a late failure.
 */
export const SEPA_REFUND_CODES: ReadonlySet<string> = new Set(["MD01", "MD06"])

/** Which kinds of entry each report format carries. */
const KINDS_OF_FORMAT: Partial<Record<ReportFormat, ReadonlyArray<ReportEntryKind>>> = {
  "pain.002.001.03": ["collection_returned", "mandate_rejected"],
  "camt.054.001.02": ["collection_returned", "collection_charged_back"]
}

export const sepaMeaning = (format: ReportFormat, kind: ReportEntryKind, code: string): ReasonMeaning | undefined => {
  const reason = Object.hasOwn(SEPA_REASON_CODES, code) ? SEPA_REASON_CODES[code] : undefined
  if (reason === undefined || !reason.kinds.includes(kind) || !(KINDS_OF_FORMAT[format] ?? []).includes(kind)) return undefined
  return { cause: reason.cause, description: reason.description, reason_code: code }
}
