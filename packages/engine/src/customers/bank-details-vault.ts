import { Context, type Effect, Schema } from "effect"

/**
 * The full details of a customer bank account as they were given (normalised by the bank details
 * rules). The account resource keeps only the number's ending, as the real API shows it; these are
 * what `GET /bank_account_details/:id` and a transferred mandate hand back, encrypted to the
 * caller's public key.
 */
export const FullBankDetails = Schema.Struct({
  account_holder_name: Schema.String,
  country_code: Schema.String,
  currency: Schema.NullOr(Schema.String),
  iban: Schema.NullOr(Schema.String),
  bank_code: Schema.NullOr(Schema.String),
  branch_code: Schema.NullOr(Schema.String),
  account_number: Schema.NullOr(Schema.String),
  account_number_suffix: Schema.NullOr(Schema.String),
  account_type: Schema.NullOr(Schema.String)
})
export type FullBankDetails = typeof FullBankDetails.Type

/**
 * Where a customer bank account's full details are kept, sealed at rest (the port the customers'
 * use cases call; the documents room implements it). `keep` joins the caller's unit of work, so
 * an account is never stored without its details.
 */
export class BankDetailsVault extends Context.Service<BankDetailsVault, {
  readonly keep: (organisation: string, account: string, details: FullBankDetails) => Effect.Effect<void>
  /** The details, or undefined when none were kept (or they were erased with their customer). */
  readonly open: (organisation: string, account: string) => Effect.Effect<FullBankDetails | undefined>
  /** Erases the details for good (the customer was removed). */
  readonly erase: (organisation: string, account: string) => Effect.Effect<void>
}>()("@paykit/engine/BankDetailsVault") {}
