import { createHash } from "node:crypto"
import { Effect, Layer } from "effect"
import { BlockScreen } from "../customers/payer-ports.ts"
import { invalidField, now } from "@paykit/core"
import { accountIdentityOf, type ResolvedBankAccount } from "@paykit/validation"
import { oneOf } from "../kernel/ports/list-query.ts"
import { insertNew } from "../kernel/support.ts"
import type { BlockType } from "./domain/blocks.ts"
import { BankAccountFingerprintRepository, BlockMatchRepository } from "./repositories.ts"

/** What a block of `type` on `value` matches: `<type>:<value>`, emails, domains and bank names compared without case. */
export const matchOf = (type: BlockType, value: string): string =>
  `${type}:${type === "bank_account" ? value : value.trim().toLowerCase()}`

/**
 * A one-way fingerprint of a bank account: its identity however its details were written (an
 * IBAN or the local details it carries), so the same account given twice matches without its
 * number being kept.
 */
export const fingerprintOf = (account: ResolvedBankAccount): string => createHash("sha256").update(accountIdentityOf(account)).digest("hex")

/** The domain of an email address, after its last `@`. */
const domainOf = (email: string): string => email.slice(email.lastIndexOf("@") + 1)

/** The customers' `BlockScreen` port, answered from the active blocks' matches. */
export const BlockScreenLive: Layer.Layer<BlockScreen, never, BlockMatchRepository | BankAccountFingerprintRepository> = Layer.effect(
  BlockScreen,
  Effect.gen(function*() {
    const matches = yield* BlockMatchRepository
    const fingerprints = yield* BankAccountFingerprintRepository
    const blocked = (organisation: string, values: ReadonlyArray<string>) =>
      Effect.map(matches.scan(organisation, { match: oneOf(values) }), (found) => found.some((m) => m.resource.active))
    return BlockScreen.of({
      customer: (organisation, root, email) =>
        email === null ? Effect.void : Effect.flatMap(blocked(organisation, [matchOf("email", email), matchOf("email_domain", domainOf(email))]), (hit) =>
          hit ? invalidField(root, ["email"], "has been blocked from setting up mandates") : Effect.void),
      bankAccount: (organisation, root, accountId, account, bankName) =>
        Effect.gen(function*() {
          const fingerprint = fingerprintOf(account)
          const values = [matchOf("bank_account", fingerprint), ...(bankName === null ? [] : [matchOf("bank_name", bankName)])]
          if (yield* blocked(organisation, values)) {
            return yield* invalidField(root, [account.iban !== null ? "iban" : "account_number"], "belongs to a bank account that has been blocked")
          }
          yield* insertNew(fingerprints, organisation, { id: accountId, created_at: yield* now, fingerprint, bank_name: bankName })
        })
    })
  })
)
