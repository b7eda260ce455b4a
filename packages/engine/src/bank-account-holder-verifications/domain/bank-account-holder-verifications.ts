import { Schema } from "effect"
import { ID_PREFIXES, IdOf } from "@paykit/core"
import { BANK_ACCOUNT_HOLDER_VERIFICATION_STATUSES } from "@paykit/machines"
import { defineResource } from "../../kernel/definition.ts"
import { NAME_VERIFICATION_RESULTS } from "../../kernel/ports/name-verifier.ts"
import { CreatedAt, Id, NullableString } from "../../kernel/fields.ts"

/** The kinds of verification the real API offers: confirmation of payee only. */
export const BANK_ACCOUNT_HOLDER_VERIFICATION_TYPES = ["confirmation_of_payee"] as const
export { BANK_ACCOUNT_HOLDER_VERIFICATION_STATUSES }

/**
 * A bank account holder verification with the real API's fields: the name of a customer bank
 * account checked with the account's bank (the engine's `NameVerifier`). The verifier answers at
 * once, so it is stored `completed` with its result; `created_at` and `links` are this engine's
 * additions (the real resource shows neither), and so is `reference`: the creation request's own
 * (Versioning: "`reference` added to creating bank account holder verification"), kept and
 * answered under that name, null when none was given (absent from rows stored before it was kept).
 */
export const BankAccountHolderVerification = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  type: Schema.Literals(BANK_ACCOUNT_HOLDER_VERIFICATION_TYPES),
  status: Schema.Literals(BANK_ACCOUNT_HOLDER_VERIFICATION_STATUSES),
  result: Schema.NullOr(Schema.Literals(NAME_VERIFICATION_RESULTS)),
  actual_account_name: NullableString,
  reference: Schema.optionalKey(NullableString),
  links: Schema.Struct({ bank_account: Schema.String })
})
export type BankAccountHolderVerification = typeof BankAccountHolderVerification.Type

export const bankAccountHolderVerifications = defineResource({
  name: "bank_account_holder_verifications",
  idPrefix: ID_PREFIXES.bank_account_holder_verification,
  schema: BankAccountHolderVerification,
  filters: { created_at: (r: BankAccountHolderVerification) => r.created_at }
})

/** `POST /bank_account_holder_verifications`: the body under `bank_account_holder_verifications`. */
export const BankAccountHolderVerificationCreateRequest = Schema.Struct({
  type: Schema.Literals(BANK_ACCOUNT_HOLDER_VERIFICATION_TYPES),
  reference: Schema.optionalKey(Schema.String),
  links: Schema.Struct({ bank_account: IdOf("customer_bank_account") })
})
export type BankAccountHolderVerificationCreateRequest = typeof BankAccountHolderVerificationCreateRequest.Type
