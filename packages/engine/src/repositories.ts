import { Context, Effect, Layer } from "effect"
import { type Repository, RepositoryBackend } from "./ports/repository.ts"
import type { FilterKeyOf, ResourceDefinition, ResourceOf } from "./resources/definition.ts"
import { creditorBankAccounts } from "./resources/creditor-bank-accounts.ts"
import { creditors } from "./resources/creditors.ts"
import { verificationDetails } from "./resources/verification-details.ts"
import { customerBankAccounts } from "./resources/customer-bank-accounts.ts"
import { customers } from "./resources/customers.ts"
import { mandates } from "./resources/mandates.ts"
import { negativeBalanceLimits } from "./resources/negative-balance-limits.ts"
import { payments } from "./resources/payments.ts"
import { payouts } from "./resources/payouts.ts"
import { refunds } from "./resources/refunds.ts"
import { ledgerEntries } from "./resources/settlement-entries.ts"
import { subscriptionSchedules, subscriptions } from "./resources/subscriptions.ts"
import { outboundPayments } from "./resources/outbound-payments.ts"
import { outboundPaymentImportEntries, outboundPaymentImports } from "./resources/outbound-payment-imports.ts"
import { paymentAccounts } from "./resources/payment-accounts.ts"
import { bankAuthorisations } from "./resources/bank-authorisations.ts"
import { customerBillingDetails } from "./resources/billing-details.ts"
import { billingRequests } from "./resources/billing-requests.ts"
import { payerAuthorisations } from "./resources/payer-authorisations.ts"
import { appAttributions, appFeeEntries } from "./resources/app-fees.ts"
import { payerThemes } from "./resources/payer-themes.ts"

/** The repository port of the resource a definition describes. */
export type RepositoryOf<D> = Repository<ResourceOf<D>, FilterKeyOf<D>>

export class CreditorRepository extends Context.Service<CreditorRepository, RepositoryOf<typeof creditors>>()(
  "@paykit/engine/CreditorRepository"
) {}
export class CreditorBankAccountRepository
  extends Context.Service<CreditorBankAccountRepository, RepositoryOf<typeof creditorBankAccounts>>()(
    "@paykit/engine/CreditorBankAccountRepository"
  )
{}
export class VerificationDetailRepository
  extends Context.Service<VerificationDetailRepository, RepositoryOf<typeof verificationDetails>>()(
    "@paykit/engine/VerificationDetailRepository"
  )
{}
export class CustomerRepository extends Context.Service<CustomerRepository, RepositoryOf<typeof customers>>()(
  "@paykit/engine/CustomerRepository"
) {}
export class CustomerBankAccountRepository
  extends Context.Service<CustomerBankAccountRepository, RepositoryOf<typeof customerBankAccounts>>()(
    "@paykit/engine/CustomerBankAccountRepository"
  )
{}
export class MandateRepository extends Context.Service<MandateRepository, RepositoryOf<typeof mandates>>()(
  "@paykit/engine/MandateRepository"
) {}
export class PaymentRepository extends Context.Service<PaymentRepository, RepositoryOf<typeof payments>>()(
  "@paykit/engine/PaymentRepository"
) {}
export class RefundRepository extends Context.Service<RefundRepository, RepositoryOf<typeof refunds>>()(
  "@paykit/engine/RefundRepository"
) {}
export class NegativeBalanceLimitRepository
  extends Context.Service<NegativeBalanceLimitRepository, RepositoryOf<typeof negativeBalanceLimits>>()(
    "@paykit/engine/NegativeBalanceLimitRepository"
  )
{}
export class LedgerRepository extends Context.Service<LedgerRepository, RepositoryOf<typeof ledgerEntries>>()(
  "@paykit/engine/LedgerRepository"
) {}

export class OutboundPaymentRepository
  extends Context.Service<OutboundPaymentRepository, RepositoryOf<typeof outboundPayments>>()(
    "@paykit/engine/OutboundPaymentRepository"
  )
{}
export class OutboundPaymentImportRepository
  extends Context.Service<OutboundPaymentImportRepository, RepositoryOf<typeof outboundPaymentImports>>()(
    "@paykit/engine/OutboundPaymentImportRepository"
  )
{}
export class OutboundPaymentImportEntryRepository
  extends Context.Service<OutboundPaymentImportEntryRepository, RepositoryOf<typeof outboundPaymentImportEntries>>()(
    "@paykit/engine/OutboundPaymentImportEntryRepository"
  )
{}
export class PaymentAccountRepository extends Context.Service<PaymentAccountRepository, RepositoryOf<typeof paymentAccounts>>()(
  "@paykit/engine/PaymentAccountRepository"
) {}
export class SubscriptionRepository extends Context.Service<SubscriptionRepository, RepositoryOf<typeof subscriptions>>()(
  "@paykit/engine/SubscriptionRepository"
) {}
export class SubscriptionScheduleRepository
  extends Context.Service<SubscriptionScheduleRepository, RepositoryOf<typeof subscriptionSchedules>>()(
    "@paykit/engine/SubscriptionScheduleRepository"
  )
{}

export class BillingRequestRepository extends Context.Service<BillingRequestRepository, RepositoryOf<typeof billingRequests>>()(
  "@paykit/engine/BillingRequestRepository"
) {}
export class CustomerBillingDetailRepository
  extends Context.Service<CustomerBillingDetailRepository, RepositoryOf<typeof customerBillingDetails>>()(
    "@paykit/engine/CustomerBillingDetailRepository"
  )
{}
export class BankAuthorisationRepository
  extends Context.Service<BankAuthorisationRepository, RepositoryOf<typeof bankAuthorisations>>()(
    "@paykit/engine/BankAuthorisationRepository"
  )
{}
export class PayerAuthorisationRepository
  extends Context.Service<PayerAuthorisationRepository, RepositoryOf<typeof payerAuthorisations>>()(
    "@paykit/engine/PayerAuthorisationRepository"
  )
{}
export class PayoutRepository extends Context.Service<PayoutRepository, RepositoryOf<typeof payouts>>()(
  "@paykit/engine/PayoutRepository"
) {}

export class AppAttributionRepository extends Context.Service<AppAttributionRepository, RepositoryOf<typeof appAttributions>>()(
  "@paykit/engine/AppAttributionRepository"
) {}
export class AppFeeLedgerRepository extends Context.Service<AppFeeLedgerRepository, RepositoryOf<typeof appFeeEntries>>()(
  "@paykit/engine/AppFeeLedgerRepository"
) {}

export class PayerThemeRepository extends Context.Service<PayerThemeRepository, RepositoryOf<typeof payerThemes>>()(
  "@paykit/engine/PayerThemeRepository"
) {}

const fromBackend = <I, A extends { readonly id: string; readonly created_at: string }, K extends string>(
  tag: Context.Key<I, Repository<A, K>>,
  definition: ResourceDefinition<A, K>
): Layer.Layer<I, never, RepositoryBackend> =>
  Layer.effect(tag, Effect.map(RepositoryBackend, (backend: RepositoryBackend["Service"]) => backend.repository(definition)))

/** Every resource definition the engine stores: a storage adapter creates one table per entry. */
export const RESOURCE_DEFINITIONS = [
  creditors, creditorBankAccounts, verificationDetails, customers, customerBankAccounts, mandates, payments, refunds,
  negativeBalanceLimits,
  ledgerEntries,
  outboundPayments, outboundPaymentImports, outboundPaymentImportEntries, paymentAccounts,
  billingRequests, customerBillingDetails, bankAuthorisations, payerAuthorisations,
  subscriptions, subscriptionSchedules, payouts,
  appAttributions, appFeeEntries,
  payerThemes
] as const

/** Every aggregate's repository, built from whichever storage backend is provided. */
export const RepositoriesFromBackend = Layer.mergeAll(
  fromBackend(CreditorRepository, creditors),
  fromBackend(CreditorBankAccountRepository, creditorBankAccounts),
  fromBackend(VerificationDetailRepository, verificationDetails),
  fromBackend(CustomerRepository, customers),
  fromBackend(CustomerBankAccountRepository, customerBankAccounts),
  fromBackend(MandateRepository, mandates),
  fromBackend(PaymentRepository, payments),
  fromBackend(RefundRepository, refunds),
  fromBackend(NegativeBalanceLimitRepository, negativeBalanceLimits),
  fromBackend(LedgerRepository, ledgerEntries),
  fromBackend(OutboundPaymentRepository, outboundPayments),
  fromBackend(OutboundPaymentImportRepository, outboundPaymentImports),
  fromBackend(OutboundPaymentImportEntryRepository, outboundPaymentImportEntries),
  fromBackend(PaymentAccountRepository, paymentAccounts),
  fromBackend(BillingRequestRepository, billingRequests),
  fromBackend(CustomerBillingDetailRepository, customerBillingDetails),
  fromBackend(BankAuthorisationRepository, bankAuthorisations),
  fromBackend(PayerAuthorisationRepository, payerAuthorisations),
  fromBackend(SubscriptionRepository, subscriptions),
  fromBackend(SubscriptionScheduleRepository, subscriptionSchedules),
  fromBackend(PayoutRepository, payouts),
  fromBackend(AppAttributionRepository, appAttributions),
  fromBackend(AppFeeLedgerRepository, appFeeEntries),
  fromBackend(PayerThemeRepository, payerThemes)
)
