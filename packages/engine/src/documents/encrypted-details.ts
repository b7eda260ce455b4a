import { constants, createCipheriv, createPublicKey, publicEncrypt, randomBytes } from "node:crypto"
import { FlattenedEncrypt } from "jose"
import { Context, Effect, Layer, Schema } from "effect"
import { type InvalidApiUsage, InvalidState, type NotFound, type OrganisationId, type StorageError } from "@paykit/core"
import { BankDetailsVault, type FullBankDetails } from "../customers/bank-details-vault.ts"
import { CustomerBankAccountRepository } from "../customers/repositories.ts"
import { MandateRepository } from "../mandates/repositories.ts"
import type { PublicKey } from "./domain/public-keys.ts"
import { PublicKeys } from "./public-keys.ts"
import { MandateTransferRepository } from "./repositories.ts"

/** The JWE algorithms of `GET /bank_account_details/:id` (spec: Encrypted bank account details). */
export const JWE_ALG = "RSA-OAEP-256"
export const JWE_ENC = "A256GCM"

/** A flattened JWE (RFC 7516, section 7.2.2): every member base64url. The client's `BankAccountDetail`. */
export const FlattenedJwe = Schema.Struct({
  protected: Schema.String,
  encrypted_key: Schema.String,
  iv: Schema.String,
  ciphertext: Schema.String,
  tag: Schema.String
})
export type FlattenedJwe = typeof FlattenedJwe.Type

/** The spec's transferred mandate: the new details under a random AES-256 key, that key under the caller's RSA key. */
export const TransferredMandate = Schema.Struct({
  encrypted_customer_bank_details: Schema.String,
  encrypted_decryption_key: Schema.String,
  public_key_id: Schema.String,
  links: Schema.Struct({ customer_bank_account: Schema.String, mandate: Schema.String })
})
export type TransferredMandate = typeof TransferredMandate.Type

/** The bytes of `encrypted_customer_bank_details`: AES-256-GCM's 12-byte IV, the ciphertext, then its 16-byte tag. */
const GCM_IV_BYTES = 12
const AES_KEY_BYTES = 32

/** The five fields the spec names, in SWIFT's terms: the local bank, branch and account numbers. */
export const transferredDetailsOf = (d: FullBankDetails) => ({
  iban: d.iban,
  account_holder_name: d.account_holder_name,
  swift_bank_code: d.bank_code,
  swift_branch_code: d.branch_code,
  swift_account_number: d.account_number
})

/** jose's answer in the spec's shape: with a protected header, RSA-OAEP and GCM, every member is present (a defect if not). */
const decodeJwe = Schema.decodeUnknownEffect(FlattenedJwe)

const jweOf = (details: FullBankDetails, key: PublicKey): Effect.Effect<FlattenedJwe, StorageError> =>
  Effect.orDie(Effect.flatMap(
    Effect.tryPromise(() =>
      new FlattenedEncrypt(new TextEncoder().encode(JSON.stringify(details)))
        .setProtectedHeader({ alg: JWE_ALG, enc: JWE_ENC, kid: key.id })
        .encrypt(createPublicKey(key.public_key))
    ),
    (jwe) => decodeJwe({ protected: jwe.protected, encrypted_key: jwe.encrypted_key, iv: jwe.iv, ciphertext: jwe.ciphertext, tag: jwe.tag })
  ))

/** `plain` under a fresh AES-256-GCM key, and that key under `key` with RSA-OAEP (SHA-256); both base64. */
export const sealTo = (plain: string, key: PublicKey): { readonly sealed: string; readonly encryptedKey: string } => {
  const aesKey = randomBytes(AES_KEY_BYTES)
  const iv = randomBytes(GCM_IV_BYTES)
  const cipher = createCipheriv("aes-256-gcm", aesKey, iv)
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()])
  const encryptedKey = publicEncrypt({ key: key.public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, aesKey)
  return { sealed: Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64"), encryptedKey: encryptedKey.toString("base64") }
}

/**
 * The reads that hand a customer bank account's full details to the caller, encrypted to one of
 * its public keys: an account's (`GET /bank_account_details/:id`, a JWE made with `jose`) and the
 * new account of a mandate moved by a current account switch (`GET /transferred_mandates/:id`).
 */
export class EncryptedBankDetails extends Context.Service<EncryptedBankDetails, {
  readonly ofAccount: (organisation: OrganisationId, account: string, keyId: string | undefined) => Effect.Effect<FlattenedJwe, NotFound | InvalidState | InvalidApiUsage | StorageError>
  readonly ofTransfer: (organisation: OrganisationId, mandate: string, keyId: string | undefined) => Effect.Effect<TransferredMandate, NotFound | InvalidState | InvalidApiUsage | StorageError>
}>()("@paykit/engine/EncryptedBankDetails") {
  static readonly layer: Layer.Layer<
    EncryptedBankDetails,
    never,
    PublicKeys | BankDetailsVault | CustomerBankAccountRepository | MandateRepository | MandateTransferRepository
  > = Layer.effect(
    EncryptedBankDetails,
    Effect.gen(function*() {
      const keys = yield* PublicKeys
      const vault = yield* BankDetailsVault
      const accounts = yield* CustomerBankAccountRepository
      const mandates = yield* MandateRepository
      const transfers = yield* MandateTransferRepository

      const detailsOf = (organisation: OrganisationId, account: string) =>
        Effect.flatMap(vault.open(organisation, account), (details) =>
          details === undefined
            ? Effect.fail(new InvalidState({
              reason: "bank_account_details_unavailable",
              message: "The account's full details are not held: it was created before paykit kept them, or its customer was removed",
              links: { customer_bank_account: account }
            }))
            : Effect.succeed(details))

      const ofAccount = (organisation: OrganisationId, account: string, keyId: string | undefined) =>
        Effect.gen(function*() {
          yield* accounts.get(organisation, account)
          const key = yield* keys.usable(organisation, keyId, "required")
          return yield* jweOf(yield* detailsOf(organisation, account), key)
        })

      const ofTransfer = (organisation: OrganisationId, mandate: string, keyId: string | undefined) =>
        Effect.gen(function*() {
          yield* mandates.get(organisation, mandate)
          const transfer = yield* Effect.option(transfers.get(organisation, mandate))
          if (transfer._tag === "None") {
            return yield* new InvalidState({
              reason: "mandate_not_transferred",
              message: "The mandate was never moved to another bank account by a current account switch",
              links: { mandate }
            })
          }
          const account = transfer.value.resource.customer_bank_account
          // The spec names no header for this read: without one, the organisation's newest key.
          const key = yield* keys.usable(organisation, keyId, "newest")
          const { sealed, encryptedKey } = sealTo(JSON.stringify(transferredDetailsOf(yield* detailsOf(organisation, account))), key)
          return {
            encrypted_customer_bank_details: sealed,
            encrypted_decryption_key: encryptedKey,
            public_key_id: key.id,
            links: { customer_bank_account: account, mandate }
          }
        })

      return EncryptedBankDetails.of({ ofAccount, ofTransfer })
    })
  )
}
