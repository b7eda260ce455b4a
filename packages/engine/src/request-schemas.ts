import { BillingRequestCreate, CollectBankAccount } from "@paykit/validation"
import { PayerThemeCreateRequest } from "./creditors/domain/payer-themes.ts"
import { LogoCreateRequest } from "./documents/domain/logos.ts"
import { PublicKeyCreateRequest } from "./documents/domain/public-keys.ts"
import { SchemeIdentifierCreateRequest } from "./creditors/domain/scheme-identifiers.ts"
import { BankAuthorisationCreateRequest } from "./bank-authorisations/domain/bank-authorisation-commands.ts"
import {
  ChooseCurrencyRequest,
  CollectCustomerDetailsRequest,
  ConfirmPayerDetailsRequest,
  NotifyRequest,
  SelectInstitutionRequest
} from "./billing-requests/domain/billing-request-commands.ts"
import { CreditorBankAccountCreateRequest, CreditorCreateRequest, CreditorUpdateRequest, VerificationDetailCreateRequest } from "./creditors/domain/requests.ts"
import { CustomerCreateRequest, CustomerUpdateRequest } from "./collections/domain/customers.ts"
import { CustomerBankAccountCreateRequest, CustomerBankAccountUpdateRequest } from "./collections/domain/customer-bank-accounts.ts"
import { MandateCreateRequest, MandateMetadataRequest } from "./collections/domain/mandates.ts"
import { MetadataUpdateRequest } from "./kernel/metadata-requests.ts"
import { PayoutUpdateRequest } from "./payouts/domain/requests.ts"
import {
  OutboundPaymentCancelRequest,
  OutboundPaymentCreateRequest,
  OutboundPaymentUpdateRequest,
  OutboundPaymentWithdrawalRequest
} from "./outbound-payments/domain/outbound-payments.ts"
import { OutboundPaymentImportCreateRequest } from "./outbound-payments/domain/outbound-payment-imports.ts"
import { PayerAuthorisationBody } from "./payer-authorisations/domain/payer-authorisation-commands.ts"
import { PaymentCancelRequest, PaymentCreateRequest, PaymentRetryRequest, PaymentUpdateRequest } from "./collections/domain/payments.ts"
import { RefundCreateRequest, RefundUpdateRequest } from "./collections/domain/refunds.ts"
import {
  SubscriptionCancelRequest,
  SubscriptionCreateRequest,
  SubscriptionPauseRequest,
  SubscriptionResumeRequest,
  SubscriptionUpdateRequest
} from "./collections/domain/subscriptions.ts"
import { WebhookEndpointCreateRequest, WebhookEndpointUpdateRequest } from "./webhooks/domain/webhook-endpoints.ts"
import {
  InstalmentScheduleCreateRequest,
  InstalmentScheduleCreateWithDatesRequest,
  InstalmentScheduleCreateWithScheduleRequest,
  InstalmentScheduleUpdateRequest
} from "./instalments/domain/instalment-schedules.ts"
import { BlockByRefRequest, BlockCreateRequest } from "./blocks/domain/blocks.ts"
import { MandateImportCreateRequest, MandateImportEntryCreateRequest } from "./mandate-imports/domain/mandate-imports.ts"
import { FLOW_REQUEST_BODIES } from "./composed-rooms.ts"

/**
 * The body Schemas of the API requests, whose Types are the engine operations' commands, under the engine's names, so
 * an HTTP layer can describe real bodies (OpenAPI) with the very Schemas that check them. Each is
 * the body below the resource key (`{"outbound_payments": <this>}`).
 *
 * Some checks are not part of a Schema's shape because they depend on the moment or on stored
 * data: an outbound payment's `execution_date` must not be before today in London (the use case
 * applies that rule to the decoded command), and references to other resources are checked against storage.
 * The cross-field rules of billing requests, collected bank accounts and subscriptions are part of
 * their Schemas (`withRules` checks, or `@paykit/schedule`'s planning).
 */
export const BillingRequestCreateRequest = BillingRequestCreate
export const CollectBankAccountRequest = CollectBankAccount

/**
 * Every request body above by API resource and action (`create`, `update`, or the action's name in
 * the API's path, e.g. `collect_customer_details`), for generating documentation.
 */
export const REQUEST_BODIES = {
  creditors: { create: CreditorCreateRequest, update: CreditorUpdateRequest },
  scheme_identifiers: { create: SchemeIdentifierCreateRequest },
  creditor_bank_accounts: { create: CreditorBankAccountCreateRequest },
  verification_details: { create: VerificationDetailCreateRequest },
  customers: { create: CustomerCreateRequest, update: CustomerUpdateRequest },
  customer_bank_accounts: { create: CustomerBankAccountCreateRequest, update: CustomerBankAccountUpdateRequest },
  mandates: { create: MandateCreateRequest, update: MandateMetadataRequest, cancel: MandateMetadataRequest, reinstate: MandateMetadataRequest },
  payments: { create: PaymentCreateRequest, update: PaymentUpdateRequest, cancel: PaymentCancelRequest, retry: PaymentRetryRequest },
  refunds: { create: RefundCreateRequest, update: RefundUpdateRequest },
  subscriptions: {
    create: SubscriptionCreateRequest,
    update: SubscriptionUpdateRequest,
    pause: SubscriptionPauseRequest,
    resume: SubscriptionResumeRequest,
    cancel: SubscriptionCancelRequest
  },
  payouts: { update: PayoutUpdateRequest },
  outbound_payments: {
    create: OutboundPaymentCreateRequest,
    withdrawal: OutboundPaymentWithdrawalRequest,
    update: OutboundPaymentUpdateRequest,
    cancel: OutboundPaymentCancelRequest
  },
  outbound_payment_imports: { create: OutboundPaymentImportCreateRequest },
  billing_requests: {
    create: BillingRequestCreateRequest,
    collect_customer_details: CollectCustomerDetailsRequest,
    collect_bank_account: CollectBankAccountRequest,
    confirm_payer_details: ConfirmPayerDetailsRequest,
    fulfil: MetadataUpdateRequest,
    cancel: MetadataUpdateRequest,
    notify: NotifyRequest,
    choose_currency: ChooseCurrencyRequest,
    select_institution: SelectInstitutionRequest
  },
  bank_authorisations: { create: BankAuthorisationCreateRequest },
  payer_authorisations: { create: PayerAuthorisationBody, update: PayerAuthorisationBody },
  payer_themes: { create: PayerThemeCreateRequest },
  logos: { create: LogoCreateRequest },
  public_keys: { create: PublicKeyCreateRequest },
  webhook_endpoints: { create: WebhookEndpointCreateRequest, update: WebhookEndpointUpdateRequest },
  instalment_schedules: {
    create: InstalmentScheduleCreateRequest,
    create_with_dates: InstalmentScheduleCreateWithDatesRequest,
    create_with_schedule: InstalmentScheduleCreateWithScheduleRequest,
    update: InstalmentScheduleUpdateRequest
  },
  blocks: { create: BlockCreateRequest, block_by_ref: BlockByRefRequest },
  mandate_imports: { create: MandateImportCreateRequest },
  mandate_import_entries: { create: MandateImportEntryCreateRequest },
  ...FLOW_REQUEST_BODIES
} as const
