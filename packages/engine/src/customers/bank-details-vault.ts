import { Context, type Effect, Schema } from "effect"
import type { StorageError } from "@paykit/core"

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
  readonly keep: (organisation: string, account: string, details: FullBankDetails) => Effect.Effect<void, StorageError>
  /** The details, or undefined when none were kept (or they were erased with their customer). */
  readonly open: (organisation: string, account: string) => Effect.Effect<FullBankDetails | undefined, StorageError>
  /** Erases the details for good (the customer was removed). */
  readonly erase: (organisation: string, account: string) => Effect.Effect<void, StorageError>
  /**
   * The details from now on, in place of those kept (a bank's notification of change corrected
   * them, or the account moved): kept sealed as `keep` keeps them, in the caller's unit of work.
   */
  readonly replace: (organisation: string, account: string, details: FullBankDetails) => Effect.Effect<void, StorageError>
  /** Reads the details of `accounts` in one read, so a batch's `open`s that follow cost none. */
  readonly readAhead: (organisation: string, accounts: ReadonlyArray<string>) => Effect.Effect<void, StorageError>
  /**
   * Seals other records that carry full bank details (a bank submission's item snapshots, the
   * bytes of bank files) as the details are sealed: under the same key, bound to the organisation
   * and to `context` (the record's kind and id), so a sealed record copied elsewhere does not open.
   */
  readonly sealBytes: (organisation: string, context: string, plain: Uint8Array) => Uint8Array
  /** What `sealBytes` sealed, or undefined under another key, organisation or context, or altered. */
  readonly openBytes: (organisation: string, context: string, sealed: Uint8Array) => Uint8Array | undefined
}>()("@paykit/engine/BankDetailsVault") {}
