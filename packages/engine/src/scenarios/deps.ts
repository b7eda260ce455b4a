import { Effect } from "effect"
import { captureUnitOfWork, type UnitOfWork } from "../kernel/support.ts"
import type { PaymentDeps } from "../payments/payment-rules.ts"
import { paymentDeps } from "../payments/payments.ts"
import { type PayoutStores, payoutStores } from "../payouts/repositories.ts"
import { BankAuthorisations } from "../bank-authorisations/bank-authorisations.ts"
import { BillingRequests } from "../billing-requests/billing-requests.ts"
import { Customers } from "../customers/customers.ts"
import { CustomerBankAccountRepository } from "../customers/repositories.ts"
import { MandateTransferRepository } from "../documents/repositories.ts"
import type { SwitchDeps } from "../documents/account-switch.ts"
import { BankBatchRepository, BankItemRepository } from "../bank-submissions/repositories.ts"
import type { QueueDeps } from "../bank-submissions/queue.ts"
import { BankDetailsVault } from "../customers/bank-details-vault.ts"

/**
 * What the scenarios reach: the stores the due work of payments, mandates, refunds and payouts
 * moves resources in (their own use cases take these), the payer-flow services a billing request
 * is authorised and fulfilled through, and a unit of work to run a scenario's moves in.
 */
export interface ScenarioDeps {
  readonly payment: PaymentDeps
  /** Where a payment the scenario submits is queued for the bank, as the daily run queues it. */
  readonly queue: QueueDeps
  readonly payouts: PayoutStores
  readonly billingRequests: BillingRequests["Service"]
  readonly bankAuthorisations: BankAuthorisations["Service"]
  /** What a current account switch (`mandate_transferred`) moves a mandate with. */
  readonly accountSwitch: SwitchDeps
  readonly unitOfWork: UnitOfWork
}

export const scenarioDeps = Effect.gen(function*() {
  const payment = yield* paymentDeps
  const deps: ScenarioDeps = {
    payment,
    queue: { items: yield* BankItemRepository, batches: yield* BankBatchRepository, accounts: payment.accounts, vault: yield* BankDetailsVault },
    payouts: yield* payoutStores,
    billingRequests: yield* BillingRequests,
    bankAuthorisations: yield* BankAuthorisations,
    accountSwitch: {
      customers: yield* Customers,
      accounts: yield* CustomerBankAccountRepository,
      mandates: payment.mandates,
      transfers: yield* MandateTransferRepository
    },
    unitOfWork: yield* captureUnitOfWork
  }
  return deps
})
