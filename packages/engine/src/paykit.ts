import { Context, Effect, Layer } from "effect"
import { Events } from "./kernel/events.ts"
import { Creditors } from "./creditors/creditors.ts"
import { PayerThemes } from "./creditors/payer-themes.ts"
import { SchemeIdentifiers } from "./creditors/scheme-identifier-records.ts"
import { NegativeBalanceLimits } from "./ledger/negative-balance-limits.ts"
import { Customers } from "./customers/customers.ts"
import { BankSubmissions } from "./bank-submissions/bank-submissions.ts"
import { Mandates } from "./mandates/mandates.ts"
import { Payments } from "./payments/payments.ts"
import { FundsAvailabilities } from "./payments/funds-availability.ts"
import { Subscriptions } from "./subscriptions/subscriptions.ts"
import { InstalmentSchedules } from "./instalments/instalment-schedules.ts"
import { Payouts } from "./payouts/payouts.ts"
import { PayoutItems } from "./payouts/payout-items.ts"
import { Balances } from "./payouts/balances.ts"
import { CurrencyExchangeRates } from "./payouts/currency-exchange-rates.ts"
import { TaxRates } from "./payouts/tax-rates.ts"
import { PaymentAccounts } from "./payment-accounts/payment-accounts.ts"
import { PaymentAccountTransactions } from "./payment-accounts/payment-account-transactions.ts"
import { OutboundPayments } from "./outbound-payments/outbound-payments.ts"
import { OutboundPaymentImports } from "./outbound-payments/outbound-payment-imports.ts"
import { OutboundPaymentStatistics } from "./outbound-payments/outbound-payment-stats.ts"
import { Institutions } from "./institutions/institutions.ts"
import { BillingRequests } from "./billing-requests/billing-requests.ts"
import { BankAuthorisations } from "./bank-authorisations/bank-authorisations.ts"
import { PayerAuthorisations } from "./payer-authorisations/payer-authorisations.ts"
import { BillingRequestFlows } from "./flows/billing-request-flows.ts"
import { BillingRequestTemplates } from "./flows/billing-request-templates.ts"
import { BillingRequestsWithActions } from "./flows/billing-requests-with-actions.ts"
import { RedirectFlows } from "./flows/redirect-flows.ts"
import { BankAccountHolderVerifications } from "./bank-account-holder-verifications/bank-account-holder-verifications.ts"
import { CustomerNotifications } from "./customer-notifications/customer-notifications.ts"
import { WebhookEndpoints } from "./webhooks/webhook-endpoints.ts"
import { Webhooks } from "./webhooks/webhooks.ts"
import { Logos } from "./documents/logos.ts"
import { PublicKeys } from "./documents/public-keys.ts"
import { MandatePdfs } from "./mandate-pdfs/mandate-pdfs.ts"
import { Blocks } from "./blocks/blocks.ts"
import { MandateImports } from "./mandate-imports/mandate-imports.ts"
import { Exports } from "./exports/exports.ts"
import { BankReports } from "./bank-reports/bank-reports.ts"
import { ScenarioSimulators } from "./scenarios/scenario-simulators.ts"

/**
 * The engine's API as one service: `const paykit = yield* Paykit`, then
 * `paykit.payments.create(organisation, { amount: 1500, currency: "GBP", links: { mandate } })`,
 * each operation taking the API's plain request values. Its members are the engine's services
 * themselves (each also its own tag, `Payments`, for code that needs only one). Every engine
 * composition (`inMemoryEngine`, `testEngine`, `engineOn`, `engineServicesOn`, `productionEngine`)
 * provides it; `Paykit.layer` builds it from the services where an embedder composes its own.
 * The simulator is not a member: only a sandbox or a test moves time (`Simulator`).
 */
export class Paykit extends Context.Service<Paykit, {
  readonly creditors: Creditors["Service"]
  readonly payerThemes: PayerThemes["Service"]
  readonly schemeIdentifiers: SchemeIdentifiers["Service"]
  readonly negativeBalanceLimits: NegativeBalanceLimits["Service"]
  readonly customers: Customers["Service"]
  readonly bankSubmissions: BankSubmissions["Service"]
  readonly mandates: Mandates["Service"]
  readonly payments: Payments["Service"]
  readonly fundsAvailabilities: FundsAvailabilities["Service"]
  readonly subscriptions: Subscriptions["Service"]
  readonly instalmentSchedules: InstalmentSchedules["Service"]
  readonly payouts: Payouts["Service"]
  readonly payoutItems: PayoutItems["Service"]
  readonly balances: Balances["Service"]
  readonly currencyExchangeRates: CurrencyExchangeRates["Service"]
  readonly taxRates: TaxRates["Service"]
  readonly paymentAccounts: PaymentAccounts["Service"]
  readonly paymentAccountTransactions: PaymentAccountTransactions["Service"]
  readonly outboundPayments: OutboundPayments["Service"]
  readonly outboundPaymentImports: OutboundPaymentImports["Service"]
  readonly outboundPaymentStatistics: OutboundPaymentStatistics["Service"]
  readonly institutions: Institutions["Service"]
  readonly billingRequests: BillingRequests["Service"]
  readonly bankAuthorisations: BankAuthorisations["Service"]
  readonly payerAuthorisations: PayerAuthorisations["Service"]
  readonly billingRequestFlows: BillingRequestFlows["Service"]
  readonly billingRequestTemplates: BillingRequestTemplates["Service"]
  readonly billingRequestsWithActions: BillingRequestsWithActions["Service"]
  readonly redirectFlows: RedirectFlows["Service"]
  readonly bankAccountHolderVerifications: BankAccountHolderVerifications["Service"]
  readonly customerNotifications: CustomerNotifications["Service"]
  readonly webhookEndpoints: WebhookEndpoints["Service"]
  readonly webhooks: Webhooks["Service"]
  readonly logos: Logos["Service"]
  readonly publicKeys: PublicKeys["Service"]
  readonly mandatePdfs: MandatePdfs["Service"]
  readonly blocks: Blocks["Service"]
  readonly mandateImports: MandateImports["Service"]
  readonly exports: Exports["Service"]
  readonly bankReports: BankReports["Service"]
  readonly scenarioSimulators: ScenarioSimulators["Service"]
  readonly events: Events["Service"]
}>()("@paykit/engine/Paykit") {
  static readonly layer = Layer.effect(
    Paykit,
    Effect.gen(function*() {
      return Paykit.of({
        creditors: yield* Creditors,
        payerThemes: yield* PayerThemes,
        schemeIdentifiers: yield* SchemeIdentifiers,
        negativeBalanceLimits: yield* NegativeBalanceLimits,
        customers: yield* Customers,
        bankSubmissions: yield* BankSubmissions,
        mandates: yield* Mandates,
        payments: yield* Payments,
        fundsAvailabilities: yield* FundsAvailabilities,
        subscriptions: yield* Subscriptions,
        instalmentSchedules: yield* InstalmentSchedules,
        payouts: yield* Payouts,
        payoutItems: yield* PayoutItems,
        balances: yield* Balances,
        currencyExchangeRates: yield* CurrencyExchangeRates,
        taxRates: yield* TaxRates,
        paymentAccounts: yield* PaymentAccounts,
        paymentAccountTransactions: yield* PaymentAccountTransactions,
        outboundPayments: yield* OutboundPayments,
        outboundPaymentImports: yield* OutboundPaymentImports,
        outboundPaymentStatistics: yield* OutboundPaymentStatistics,
        institutions: yield* Institutions,
        billingRequests: yield* BillingRequests,
        bankAuthorisations: yield* BankAuthorisations,
        payerAuthorisations: yield* PayerAuthorisations,
        billingRequestFlows: yield* BillingRequestFlows,
        billingRequestTemplates: yield* BillingRequestTemplates,
        billingRequestsWithActions: yield* BillingRequestsWithActions,
        redirectFlows: yield* RedirectFlows,
        bankAccountHolderVerifications: yield* BankAccountHolderVerifications,
        customerNotifications: yield* CustomerNotifications,
        webhookEndpoints: yield* WebhookEndpoints,
        webhooks: yield* Webhooks,
        logos: yield* Logos,
        publicKeys: yield* PublicKeys,
        mandatePdfs: yield* MandatePdfs,
        blocks: yield* Blocks,
        mandateImports: yield* MandateImports,
        exports: yield* Exports,
        bankReports: yield* BankReports,
        scenarioSimulators: yield* ScenarioSimulators,
        events: yield* Events
      })
    })
  )
}
