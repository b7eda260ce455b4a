import { formatMinorUnits } from "@paykit/core"
import type { MandateDocument } from "../domain/mandate-pdfs.ts"
import type { Notice, Row, SchemeTexts } from "./form.ts"

/**
 * The schemes whose forms are in English only (spec rule 4): Bacs (the Direct Debit Instruction
 * and the Direct Debit Guarantee), ACH (the authorisation with its amount and frequency, the
 * account type, the payer's IP address and the revocation), BECS (the Direct Debit Request), BECS
 * NZ (the Authority to accept Direct Debits) and PAD (the Pre-Authorized Debit Agreement with its
 * recourse rights).
 */

const directDebitGuarantee = (c: string): Notice => ({
  heading: "The Direct Debit Guarantee",
  paragraphs: [
    "This Guarantee is offered by all banks and building societies that accept instructions to pay Direct Debits.",
    `If there are any changes to the amount, date or frequency of your Direct Debit ${c} will notify you 3 working days in advance of your account being debited or as otherwise agreed. If you request ${c} to collect a payment, confirmation of the amount and date will be given to you at the time of the request.`,
    `If an error is made in the payment of your Direct Debit, by ${c} or your bank or building society, you are entitled to a full and immediate refund of the amount paid from your bank or building society. If you receive a refund you are not entitled to, you must pay it back when ${c} asks you to.`,
    "You can cancel a Direct Debit at any time by simply contacting your bank or building society. Written confirmation may be required. Please also notify us."
  ]
})

const FREQUENCY_WORDS = { weekly: "every week", monthly: "every month", yearly: "every year" } as const

const achAmount = (d: MandateDocument): string =>
  d.subscription === null
    ? "the amounts due to them, on the dates they fall due,"
    : `${formatMinorUnits(d.subscription.amount, "USD")} ${d.subscription.currency} ${FREQUENCY_WORDS[d.subscription.frequency]}`

const achAccountRows = (d: MandateDocument): ReadonlyArray<Row> => [
  ["Routing number", d.account.bank_code],
  ["Account number", d.account.account_number],
  ["Account type", d.account.account_type]
]

export const ENGLISH_TEXTS: Readonly<Record<"bacs" | "ach" | "becs" | "becs_nz" | "pad", SchemeTexts>> = {
  bacs: {
    en: {
      title: "Instruction to your bank or building society to pay by Direct Debit",
      subtitle: "Bacs Direct Debit",
      identifier: "Service user number",
      reference: "Reference",
      account: (d) => [["Branch sort code", d.account.branch_code], ["Account number", d.account.account_number]],
      authorisation: (c) => [
        `Instruction to your bank or building society: please pay ${c} Direct Debits from the account detailed in this Instruction subject to the safeguards assured by the Direct Debit Guarantee. I understand that this Instruction may remain with ${c} and, if so, details will be passed electronically to my bank or building society.`,
        "Banks and building societies may not accept Direct Debit Instructions for some types of account."
      ],
      notices: (c) => [directDebitGuarantee(c)]
    }
  },
  ach: {
    en: {
      title: "ACH Debit Authorization",
      subtitle: "ACH",
      identifier: "Company ID",
      account: achAccountRows,
      payerExtra: (d) => [["IP address", d.payer.ip_address]],
      authorisation: (c, d) => [
        `I authorize ${c} to electronically debit my ${d.account.account_type ?? "checking or savings"} account named above ${achAmount(d)} through the Automated Clearing House (ACH) network, and, if necessary, to credit the account to correct an erroneous debit.`,
        `This authorization remains in effect until I revoke it by notifying ${c} in writing. I must give notice at least 3 business days before the next debit, in such time and manner as to give ${c} and my bank a reasonable opportunity to act on it.`,
        "I certify that I am an authorized signer on this account and agree that the ACH transactions I authorize comply with all applicable U.S. law and the Nacha Operating Rules.",
        ...(d.payer.ip_address === null ? [] : [`This authorization was given online from IP address ${d.payer.ip_address}.`])
      ]
    }
  },
  becs: {
    en: {
      title: "Direct Debit Request",
      subtitle: "BECS (Australia)",
      identifier: "User ID",
      account: (d) => [["BSB", d.account.branch_code], ["Account number", d.account.account_number]],
      authorisation: (c) => [
        `I/We request and authorise ${c} to arrange, through its own financial institution, for any amount ${c} may debit or charge me/us to be debited through the Bulk Electronic Clearing System (BECS) from the account identified above, subject to the terms and conditions of the Direct Debit Request Service Agreement.`,
        `I/We may stop or defer a debit, or cancel this request, by contacting ${c} at least 7 days before the debit or through my/our financial institution. Debits that I/we believe are wrong may be disputed with ${c} or my/our financial institution. Direct debiting may not be available on all accounts.`
      ]
    }
  },
  becs_nz: {
    en: {
      title: "Authority to accept Direct Debits",
      subtitle: "BECS NZ",
      identifier: "Authorisation code",
      account: (d) => [["Bank", d.account.bank_code], ["Branch", d.account.branch_code], ["Account number", d.account.account_number]],
      payerExtra: (d) => [["Phone number", d.payer.phone_number]],
      authorisation: (c) => [
        `I/We authorise you, my/our bank, until further notice in writing to debit my/our account with you all amounts which ${c}, the registered initiator of the above authorisation code, may initiate by Direct Debit.`,
        `I/We acknowledge and accept that the bank accepts this authority only upon the conditions listed below. The initiator will give advance notice of the amount and date of each debit. I/We may ask my/our bank to reverse a debit that does not comply with this authority within 120 days of the debit. I/We may cancel this authority at any time by notice to my/our bank.`
      ]
    }
  },
  pad: {
    en: {
      title: "Pre-Authorized Debit (PAD) Agreement",
      subtitle: "PAD (Canada)",
      identifier: "Payee ID",
      account: (d) => [["Institution number", d.account.bank_code], ["Transit number", d.account.branch_code], ["Account number", d.account.account_number]],
      authorisation: (c) => [
        `I authorize ${c} and the financial institution designated above to debit my account for payments under this Pre-Authorized Debit Agreement. ${c} will give me at least 10 days' written notice of the amount and date of each debit, or of any change to them.`,
        `I may cancel this agreement at any time with 30 days' notice to ${c}. To obtain a sample cancellation form, or more information on my right to cancel a PAD Agreement, I may contact my financial institution or visit www.payments.ca.`,
        "I have certain recourse rights if any debit does not comply with this agreement. For example, I have the right to receive reimbursement for any debit that is not authorized or is not consistent with this PAD Agreement. To obtain more information on my recourse rights, I may contact my financial institution or visit www.payments.ca."
      ]
    }
  }
}
