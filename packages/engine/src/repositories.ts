import { Layer } from "effect"
import { fromBackend } from "./kernel/repository-service.ts"
import { creditorBankAccounts } from "./creditors/domain/creditor-bank-accounts.ts"
import { creditors } from "./creditors/domain/creditors.ts"
import { verificationDetails } from "./creditors/domain/verification-details.ts"
import { customerBankAccounts } from "./collections/domain/customer-bank-accounts.ts"
import { customers } from "./collections/domain/customers.ts"
import { mandates } from "./collections/domain/mandates.ts"
import { negativeBalanceLimits } from "./payouts/domain/negative-balance-limits.ts"
import { payments } from "./collections/domain/payments.ts"
import { instalmentScheduleChecks } from "./collections/domain/instalment-schedule-checks.ts"
import { mandateDormancies } from "./collections/domain/mandate-dormancy.ts"
import { paymentReversals } from "./collections/domain/payment-reversals.ts"
import { payouts } from "./payouts/domain/payouts.ts"
import { refunds } from "./collections/domain/refunds.ts"
import { ledgerEntries } from "./payouts/domain/settlement-entries.ts"
import { subscriptionSchedules, subscriptions } from "./collections/domain/subscriptions.ts"
import { outboundPayments } from "./outbound-payments/domain/outbound-payments.ts"
import { outboundPaymentImportEntries, outboundPaymentImports } from "./outbound-payments/domain/outbound-payment-imports.ts"
import { paymentAccounts } from "./payment-accounts/domain/payment-accounts.ts"
import { paymentAccountStatements, paymentAccountTransactions } from "./payment-accounts/domain/payment-account-transactions.ts"
import { bankAuthorisations } from "./bank-authorisations/domain/bank-authorisations.ts"
import { customerBillingDetails } from "./billing-requests/domain/billing-details.ts"
import { billingRequests } from "./billing-requests/domain/billing-requests.ts"
import { payerAuthorisations } from "./payer-authorisations/domain/payer-authorisations.ts"
import { appAttributions, appFeeEntries } from "./payouts/domain/app-fees.ts"
import { payerThemes } from "./creditors/domain/payer-themes.ts"
import { dataExports } from "./exports/domain/exports.ts"
import { ExportRepository } from "./exports/repositories.ts"
import { mandatePdfs } from "./mandate-pdfs/domain/mandate-pdfs.ts"
import { MandatePdfRepository } from "./mandate-pdfs/repositories.ts"
import { schemeIdentifierLocations } from "./creditors/domain/scheme-identifiers.ts"
import { webhookEndpoints } from "./webhooks/domain/webhook-endpoints.ts"
import { webhookDeliveries, webhooks } from "./webhooks/domain/webhooks.ts"
import { WebhookDeliveryRepository, WebhookEndpointRepository, WebhookRepository } from "./webhooks/repositories.ts"
import { instalmentSchedules } from "./instalments/domain/instalment-schedules.ts"
import { InstalmentScheduleRepository } from "./instalments/repositories.ts"
import { bankAccountFingerprints, blockMatches, blocks } from "./blocks/domain/blocks.ts"
import { BankAccountFingerprintRepository, BlockMatchRepository, BlockRepository } from "./blocks/repositories.ts"
import { mandateImportEntries, mandateImportEntryRequests, mandateImports } from "./mandate-imports/domain/mandate-imports.ts"
import { logos } from "./documents/domain/logos.ts"
import { publicKeys } from "./documents/domain/public-keys.ts"
import { mandateTransfers, sealedBankDetails } from "./documents/domain/sealed-records.ts"
import { LogoRepository, MandateTransferRepository, PublicKeyRepository, SealedBankDetailsRepository } from "./documents/repositories.ts"
import { MandateImportEntryRepository, MandateImportEntryRequestRepository, MandateImportRepository } from "./mandate-imports/repositories.ts"
import { BillingRequestRepository, CustomerBillingDetailRepository } from "./billing-requests/repositories.ts"
import { BankAuthorisationRepository } from "./bank-authorisations/repositories.ts"
import { PayerAuthorisationRepository } from "./payer-authorisations/repositories.ts"
import { FLOW_DEFINITIONS, FlowRepositoriesFromBackend } from "./composed-rooms.ts"
import {
  CreditorBankAccountRepository, CreditorRepository, PayerThemeRepository, SchemeIdentifierLocationRepository, VerificationDetailRepository
} from "./creditors/repositories.ts"
import {
  CustomerBankAccountRepository, CustomerRepository, InstalmentScheduleCheckRepository, MandateDormancyRepository, MandateRepository, PaymentRepository, PaymentReversalRepository, RefundRepository,
  SubscriptionRepository, SubscriptionScheduleRepository
} from "./collections/repositories.ts"
import { OutboundPaymentImportEntryRepository, OutboundPaymentImportRepository, OutboundPaymentRepository } from "./outbound-payments/repositories.ts"
import { PaymentAccountRepository, PaymentAccountStatementRepository, PaymentAccountTransactionRepository } from "./payment-accounts/repositories.ts"
import {
  AppAttributionRepository, AppFeeLedgerRepository, LedgerRepository, NegativeBalanceLimitRepository, PayoutRepository
} from "./payouts/repositories.ts"

/**
 * The composition of every feature's storage: each feature declares its repositories in its own
 * `repositories.ts`; this file lists their definitions for the storage adapters and builds every
 * repository from the backend.
 */
export * from "./kernel/repository-service.ts"
export * from "./creditors/repositories.ts"
export * from "./collections/repositories.ts"
export * from "./billing-requests/repositories.ts"
export * from "./bank-authorisations/repositories.ts"
export * from "./payer-authorisations/repositories.ts"
export * from "./flows/repositories.ts"
export * from "./bank-account-holder-verifications/repositories.ts"
export * from "./customer-notifications/repositories.ts"
export * from "./payment-accounts/repositories.ts"
export * from "./outbound-payments/repositories.ts"
export * from "./payouts/repositories.ts"
export * from "./webhooks/repositories.ts"
export * from "./instalments/repositories.ts"
export * from "./blocks/repositories.ts"
export * from "./mandate-imports/repositories.ts"
export * from "./exports/repositories.ts"
export * from "./mandate-pdfs/repositories.ts"
export * from "./documents/repositories.ts"

/** Every resource definition the engine stores: a storage adapter creates one table per entry. */
export const RESOURCE_DEFINITIONS = [
  creditors, creditorBankAccounts, verificationDetails, customers, customerBankAccounts, mandates, mandateDormancies, instalmentScheduleChecks, payments, paymentReversals, refunds,
  negativeBalanceLimits,
  ledgerEntries,
  outboundPayments, outboundPaymentImports, outboundPaymentImportEntries, paymentAccounts, paymentAccountTransactions, paymentAccountStatements,
  billingRequests, customerBillingDetails, bankAuthorisations, payerAuthorisations,
  ...FLOW_DEFINITIONS,
  subscriptions, subscriptionSchedules, payouts,
  appAttributions, appFeeEntries,
  payerThemes, schemeIdentifierLocations, dataExports, mandatePdfs,
  webhookEndpoints, webhookDeliveries, webhooks,
  instalmentSchedules,
  blocks, blockMatches, bankAccountFingerprints,
  mandateImports, mandateImportEntries, mandateImportEntryRequests,
  publicKeys, sealedBankDetails, mandateTransfers, logos
] as const

/** Every aggregate's repository, built from whichever storage backend is provided. */
export const RepositoriesFromBackend = Layer.mergeAll(
  fromBackend(CreditorRepository, creditors),
  fromBackend(CreditorBankAccountRepository, creditorBankAccounts),
  fromBackend(VerificationDetailRepository, verificationDetails),
  fromBackend(SchemeIdentifierLocationRepository, schemeIdentifierLocations),
  fromBackend(PaymentAccountTransactionRepository, paymentAccountTransactions),
  fromBackend(PaymentAccountStatementRepository, paymentAccountStatements),
  fromBackend(ExportRepository, dataExports),
  fromBackend(MandatePdfRepository, mandatePdfs),
  fromBackend(CustomerRepository, customers),
  fromBackend(CustomerBankAccountRepository, customerBankAccounts),
  fromBackend(MandateRepository, mandates),
  fromBackend(MandateDormancyRepository, mandateDormancies),
  fromBackend(InstalmentScheduleCheckRepository, instalmentScheduleChecks),
  fromBackend(PaymentRepository, payments),
  fromBackend(PaymentReversalRepository, paymentReversals),
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
  fromBackend(PayerThemeRepository, payerThemes),
  fromBackend(WebhookEndpointRepository, webhookEndpoints),
  fromBackend(WebhookDeliveryRepository, webhookDeliveries),
  fromBackend(WebhookRepository, webhooks),
  fromBackend(InstalmentScheduleRepository, instalmentSchedules),
  fromBackend(BlockRepository, blocks),
  fromBackend(BlockMatchRepository, blockMatches),
  fromBackend(BankAccountFingerprintRepository, bankAccountFingerprints),
  fromBackend(MandateImportRepository, mandateImports),
  fromBackend(MandateImportEntryRepository, mandateImportEntries),
  fromBackend(MandateImportEntryRequestRepository, mandateImportEntryRequests),
  fromBackend(PublicKeyRepository, publicKeys),
  fromBackend(SealedBankDetailsRepository, sealedBankDetails),
  fromBackend(MandateTransferRepository, mandateTransfers),
  fromBackend(LogoRepository, logos),
  FlowRepositoriesFromBackend
)
