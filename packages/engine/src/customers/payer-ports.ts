import { Context, type Effect } from "effect"
import type { InvalidState, ValidationFailed, StorageError } from "@paykit/core"
import type { Cause } from "@paykit/machines"
import type { ResolvedBankAccount } from "@paykit/validation"
import type { EngineContext } from "../kernel/support.ts"

/**
 * The ports the customers' use cases call and the rooms above implement: the customers are the
 * lowest of the payer's rooms (mandates, payer flows and blocks all read them), so what those
 * rooms keep about a payer is reached through these, never by an import. Each runs in the
 * caller's unit of work.
 */

/**
 * The blocks' check of new payer details (implemented in `blocks/block-screen.ts`): a customer
 * whose email or email domain is blocked, or a bank account whose details or bank are, is refused
 * (a `validation_failed` on the field that carries the blocked detail). A bank account that passes
 * has its fingerprint kept, so a later block on it matches its details.
 */
export class BlockScreen extends Context.Service<BlockScreen, {
  readonly customer: (organisation: string, root: string, email: string | null) => Effect.Effect<void, ValidationFailed | StorageError>
  readonly bankAccount: (
    organisation: string,
    root: string,
    accountId: string,
    account: ResolvedBankAccount,
    bankName: string | null
  ) => Effect.Effect<void, ValidationFailed | StorageError>
}>()("@paykit/engine/BlockScreen") {}

/** The mandates on a payer's accounts (implemented in `mandates/account-mandates.ts`). */
export class AccountMandates extends Context.Service<AccountMandates, {
  /** Whether a mandate of the customer can still be cancelled (a removal is refused while one can). */
  readonly anyOpen: (organisation: string, customer: string) => Effect.Effect<boolean, StorageError>
  /** Every mandate of the account that can still be cancelled, cancelled with its payments (a disabled account). */
  readonly cancelOfAccount: (organisation: string, account: string, cause: Cause) => Effect.Effect<void, InvalidState | StorageError, EngineContext>
}>()("@paykit/engine/AccountMandates") {}

/**
 * What the payer flows keep about a removed customer, erased (implemented in
 * `flows/payer-erasure.ts`): billing details, and the prefilled customer of their flows.
 */
export class PayerRecordEraser extends Context.Service<PayerRecordEraser, {
  readonly erase: (organisation: string, customer: string) => Effect.Effect<void, StorageError>
}>()("@paykit/engine/PayerRecordEraser") {}
