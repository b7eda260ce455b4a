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

/**
 * The class-style service key of a resource's repository, keyed `@paykit/engine/<name>`; the
 * definition gives the repository's type:
 * `class XRepository extends repositoryService<XRepository>()("XRepository", xs) {}`.
 */
const repositoryService = <Self>() => <const N extends string, D>(name: N, _definition: D) =>
  Context.Service<Self, RepositoryOf<D>>()(`@paykit/engine/${name}` as const)

export class CreditorRepository extends repositoryService<CreditorRepository>()("CreditorRepository", creditors) {}
export class CreditorBankAccountRepository extends repositoryService<CreditorBankAccountRepository>()("CreditorBankAccountRepository", creditorBankAccounts) {}
export class VerificationDetailRepository extends repositoryService<VerificationDetailRepository>()("VerificationDetailRepository", verificationDetails) {}
export class CustomerRepository extends repositoryService<CustomerRepository>()("CustomerRepository", customers) {}
export class CustomerBankAccountRepository extends repositoryService<CustomerBankAccountRepository>()("CustomerBankAccountRepository", customerBankAccounts) {}
export class MandateRepository extends repositoryService<MandateRepository>()("MandateRepository", mandates) {}
export class PaymentRepository extends repositoryService<PaymentRepository>()("PaymentRepository", payments) {}
export class RefundRepository extends repositoryService<RefundRepository>()("RefundRepository", refunds) {}
export class NegativeBalanceLimitRepository extends repositoryService<NegativeBalanceLimitRepository>()("NegativeBalanceLimitRepository", negativeBalanceLimits) {}
export class LedgerRepository extends repositoryService<LedgerRepository>()("LedgerRepository", ledgerEntries) {}

export class OutboundPaymentRepository extends repositoryService<OutboundPaymentRepository>()("OutboundPaymentRepository", outboundPayments) {}
export class OutboundPaymentImportRepository extends repositoryService<OutboundPaymentImportRepository>()("OutboundPaymentImportRepository", outboundPaymentImports) {}
export class OutboundPaymentImportEntryRepository extends repositoryService<OutboundPaymentImportEntryRepository>()("OutboundPaymentImportEntryRepository", outboundPaymentImportEntries) {}
export class PaymentAccountRepository extends repositoryService<PaymentAccountRepository>()("PaymentAccountRepository", paymentAccounts) {}
export class SubscriptionRepository extends repositoryService<SubscriptionRepository>()("SubscriptionRepository", subscriptions) {}
export class SubscriptionScheduleRepository extends repositoryService<SubscriptionScheduleRepository>()("SubscriptionScheduleRepository", subscriptionSchedules) {}

export class BillingRequestRepository extends repositoryService<BillingRequestRepository>()("BillingRequestRepository", billingRequests) {}
export class CustomerBillingDetailRepository extends repositoryService<CustomerBillingDetailRepository>()("CustomerBillingDetailRepository", customerBillingDetails) {}
export class BankAuthorisationRepository extends repositoryService<BankAuthorisationRepository>()("BankAuthorisationRepository", bankAuthorisations) {}
export class PayerAuthorisationRepository extends repositoryService<PayerAuthorisationRepository>()("PayerAuthorisationRepository", payerAuthorisations) {}
export class PayoutRepository extends repositoryService<PayoutRepository>()("PayoutRepository", payouts) {}

export class AppAttributionRepository extends repositoryService<AppAttributionRepository>()("AppAttributionRepository", appAttributions) {}
export class AppFeeLedgerRepository extends repositoryService<AppFeeLedgerRepository>()("AppFeeLedgerRepository", appFeeEntries) {}

export class PayerThemeRepository extends repositoryService<PayerThemeRepository>()("PayerThemeRepository", payerThemes) {}

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
