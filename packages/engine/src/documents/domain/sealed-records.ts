import { Schema } from "effect"
import { ID_PREFIXES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString } from "../../kernel/fields.ts"

/**
 * The engine's side record of a customer bank account's full details (not an API resource),
 * keyed by the account's id: `FullBankDetails` as JSON, sealed with AES-256-GCM under the server
 * key (the webhook secrets' `WebhookSecretKey`), the organisation and account as associated data.
 * Null once erased with its customer.
 */
export const SealedBankDetails = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  sealed: NullableString
})
export type SealedBankDetails = typeof SealedBankDetails.Type

export const sealedBankDetails = defineResource({
  name: "sealed_bank_details",
  idPrefix: ID_PREFIXES.customer_bank_account,
  schema: SealedBankDetails,
  filters: { created_at: (r: SealedBankDetails) => r.created_at }
})

/**
 * The engine's side record of a mandate moved to another bank account by a current account
 * switch (the `mandate_transferred` scenarios), keyed by the mandate's id: the account it moved to
 * and the one it left. A later switch replaces it; `GET /transferred_mandates/:id` reads it.
 */
export const MandateTransfer = Schema.Struct({
  id: Id,
  /** When the mandate was last transferred. */
  created_at: CreatedAt,
  customer_bank_account: Schema.String,
  previous_customer_bank_account: Schema.String
})
export type MandateTransfer = typeof MandateTransfer.Type

export const mandateTransfers = defineResource({
  name: "mandate_transfers",
  idPrefix: ID_PREFIXES.mandate,
  schema: MandateTransfer,
  filters: { created_at: (r: MandateTransfer) => r.created_at }
})
