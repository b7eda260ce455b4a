import { Schema } from "effect"
import { decodeInput, FasterPaymentsReference, IdOf, InputDate, LocalDate, Metadata, OUTBOUND_PAYMENT_IMPORT_MAX_ENTRIES } from "@paykit/core"
import { optionalNullable, PositiveInteger } from "./fields.ts"
import { issue, perValue, type Rule, withRules } from "./rules.ts"

/** Outbound payments (GBP over Faster Payments only) and their batch imports. */

export const OUTBOUND_PAYMENTS = "outbound_payments"
export const OUTBOUND_PAYMENT_IMPORTS = "outbound_payment_imports"

export const OutboundPaymentScheme = Schema.Literals(["faster_payments"]).annotate({ message: "must be faster_payments" })

const paymentFields = {
  amount: PositiveInteger,
  scheme: OutboundPaymentScheme,
  description: Schema.optionalKey(Schema.String),
  execution_date: Schema.optionalKey(InputDate),
  metadata: optionalNullable(Metadata),
  reference: Schema.optionalKey(FasterPaymentsReference)
}

export const OutboundPaymentCreateFields = Schema.Struct({
  ...paymentFields,
  links: Schema.Struct({
    creditor: Schema.optionalKey(IdOf("creditor")),
    recipient_bank_account: IdOf("customer_bank_account"),
    outbound_payment_import: Schema.optionalKey(IdOf("outbound_payment_import"))
  })
}).annotate({ identifier: "OutboundPaymentCreate" })
export type OutboundPaymentCreate = typeof OutboundPaymentCreateFields.Type

/** POST /outbound_payments/withdrawal: the recipient is the creditor's own verified account. */
export const OutboundPaymentWithdrawalFields = Schema.Struct({
  ...paymentFields,
  links: Schema.optionalKey(Schema.Struct({ creditor: Schema.optionalKey(IdOf("creditor")) }))
}).annotate({ identifier: "OutboundPaymentWithdrawal" })
export type OutboundPaymentWithdrawal = typeof OutboundPaymentWithdrawalFields.Type

export const OutboundPaymentUpdate = Schema.Struct({ metadata: optionalNullable(Metadata) }).annotate({ identifier: "OutboundPaymentUpdate" })

/** `execution_date` may be today or later, never in the past (`today` in the scheme's time zone). */
export const executionDateRule = (today: LocalDate): Rule<{ readonly execution_date?: LocalDate | undefined }> => (p) =>
  p.execution_date !== undefined && p.execution_date < today ? [issue(["execution_date"], `must not be in the past (today is ${today})`)] : []

const createValidator = perValue((today: LocalDate) => decodeInput(withRules(OutboundPaymentCreateFields, [executionDateRule(today)]), OUTBOUND_PAYMENTS))
export const validateOutboundPaymentCreate = (input: unknown, today: LocalDate) => createValidator(today)(input)

const withdrawalValidator = perValue((today: LocalDate) =>
  decodeInput(withRules(OutboundPaymentWithdrawalFields, [executionDateRule(today)]), OUTBOUND_PAYMENTS))
export const validateOutboundPaymentWithdrawal = (input: unknown, today: LocalDate) => withdrawalValidator(today)(input)

export const validateOutboundPaymentUpdate = decodeInput(OutboundPaymentUpdate, OUTBOUND_PAYMENTS)

/** One entry of an import (request only). */
export const OutboundPaymentImportEntryItem = Schema.Struct({
  scheme: OutboundPaymentScheme,
  amount: PositiveInteger,
  recipient_bank_account_id: IdOf("customer_bank_account"),
  reference: Schema.optionalKey(FasterPaymentsReference),
  metadata: optionalNullable(Metadata)
}).annotate({ identifier: "OutboundPaymentImportEntryItem" })
export type OutboundPaymentImportEntryItem = typeof OutboundPaymentImportEntryItem.Type

/** An import creates one payment per entry: one without entries is refused, and so is one above GoCardless's cap. */
export const OutboundPaymentImportCreate = Schema.Struct({
  entry_items: Schema.Array(OutboundPaymentImportEntryItem).check(
    Schema.makeFilter((items: ReadonlyArray<unknown>) => items.length > 0, { message: "must hold at least one entry" }),
    Schema.makeFilter((items: ReadonlyArray<unknown>) => items.length <= OUTBOUND_PAYMENT_IMPORT_MAX_ENTRIES, {
      message: `must hold at most ${OUTBOUND_PAYMENT_IMPORT_MAX_ENTRIES} entries; split a larger batch into several imports`
    })
  ),
  links: Schema.optionalKey(Schema.Struct({ creditor: Schema.optionalKey(IdOf("creditor")) }))
}).annotate({ identifier: "OutboundPaymentImportCreate" })
export type OutboundPaymentImportCreate = typeof OutboundPaymentImportCreate.Type

export const validateOutboundPaymentImportCreate = decodeInput(OutboundPaymentImportCreate, OUTBOUND_PAYMENT_IMPORTS)
