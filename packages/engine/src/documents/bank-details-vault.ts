import { Effect, Layer, Option, Schema } from "effect"
import { now } from "@paykit/core"
import { BankDetailsVault, FullBankDetails } from "../customers/bank-details-vault.ts"
import { WebhookSecretKey } from "../webhooks/secret-box.ts"
import { insertNew, save } from "../kernel/support.ts"
import { SealedBankDetailsRepository } from "./repositories.ts"

/** What seals an account's details to that account of that organisation (distinct from a webhook secret's context). */
const contextOf = (organisation: string, account: string): string => `bank_details/${organisation}/${account}`

/** What seals another record carrying bank details (distinct from an account's details and a webhook secret's). */
const recordContextOf = (organisation: string, context: string): string => `bank_record/${organisation}/${context}`

const encode = Schema.encodeSync(Schema.fromJsonString(FullBankDetails))
const decode = Schema.decodeUnknownOption(Schema.fromJsonString(FullBankDetails))

/**
 * The vault of customer bank accounts' full details: sealed with AES-256-GCM under the server key
 * that seals webhook secrets (one key for an operator to keep), the organisation and account as
 * associated data, so a sealed box copied onto another account or organisation does not open.
 */
export const BankDetailsVaultLive: Layer.Layer<BankDetailsVault, never, SealedBankDetailsRepository | WebhookSecretKey> = Layer.effect(
  BankDetailsVault,
  Effect.gen(function*() {
    const records = yield* SealedBankDetailsRepository
    const box = yield* WebhookSecretKey
    return BankDetailsVault.of({
      keep: (organisation, account, details) =>
        Effect.flatMap(now, (created_at) =>
          Effect.asVoid(insertNew(records, organisation, { id: account, created_at, sealed: box.seal(encode(details), contextOf(organisation, account)) }))),
      open: (organisation, account) =>
        Effect.match(records.get(organisation, account), {
          onFailure: () => undefined,
          onSuccess: ({ resource }) => {
            const plain = resource.sealed === null ? undefined : box.open(resource.sealed, contextOf(organisation, account))
            return plain === undefined ? undefined : Option.getOrUndefined(decode(plain))
          }
        }),
      replace: (organisation, account, details) =>
        Effect.flatMap(Effect.option(records.get(organisation, account)), (found) => {
          const sealed = box.seal(encode(details), contextOf(organisation, account))
          return found._tag === "None"
            ? Effect.flatMap(now, (created_at) => Effect.asVoid(insertNew(records, organisation, { id: account, created_at, sealed })))
            : Effect.asVoid(Effect.orDie(save(records, organisation, found.value, { ...found.value.resource, sealed })))
        }),
      readAhead: (organisation, accounts) => Effect.asVoid(records.getMany(organisation, accounts)),
      sealBytes: (organisation, context, plain) => box.sealBytes(plain, recordContextOf(organisation, context)),
      openBytes: (organisation, context, sealed) => box.openBytes(sealed, recordContextOf(organisation, context)),
      erase: (organisation, account) =>
        Effect.flatMap(Effect.option(records.get(organisation, account)), (found) =>
          found._tag === "None" ? Effect.void : Effect.asVoid(Effect.orDie(save(records, organisation, found.value, { ...found.value.resource, sealed: null }))))
    })
  })
)
