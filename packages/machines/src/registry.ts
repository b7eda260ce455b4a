import { accessTokenMachine } from "./access-token.ts"
import { bankAccountHolderVerificationMachine } from "./bank-account-holder-verification.ts"
import { bankAuthorisationMachine } from "./bank-authorisation.ts"
import { billingRequestMachine } from "./billing-request.ts"
import { creditorBankAccountVerificationMachine } from "./creditor-bank-account-verification.ts"
import { creditorVerificationMachine } from "./creditor-verification.ts"
import type { Machine } from "./machine.ts"
import { mandateMachine } from "./mandate.ts"
import { instalmentScheduleMachine } from "./instalment-schedule.ts"
import { mandateImportMachine } from "./mandate-import.ts"
import { oauthAppMachine } from "./oauth-app.ts"
import { outboundPaymentImportMachine } from "./outbound-payment-import.ts"
import { outboundPaymentMachine } from "./outbound-payment.ts"
import { payerAuthorisationMachine } from "./payer-authorisation.ts"
import { paymentMachine } from "./payment.ts"
import { payoutMachine } from "./payout.ts"
import { refundMachine } from "./refund.ts"
import { schemeIdentifierMachine } from "./scheme-identifier.ts"
import { subscriptionMachine } from "./subscription.ts"
import { webhookDeliveryMachine } from "./webhook-delivery.ts"

/** The resource field a machine's state is stored in: `status` unless the machine names another. */
export const stateFieldOf = (machine: { readonly field?: string }): string => machine.field ?? "status"

/** Any machine, seen only through its table (its guards' facts unknown). */
export type AnyMachine = Machine<string, string, never>

/** Every machine of the engine, in the order of docs/state-machines.md. */
export const MACHINES: ReadonlyArray<AnyMachine> = [
  outboundPaymentMachine,
  outboundPaymentImportMachine,
  payoutMachine,
  payerAuthorisationMachine,
  subscriptionMachine,
  mandateMachine,
  paymentMachine,
  refundMachine,
  bankAuthorisationMachine,
  billingRequestMachine,
  creditorVerificationMachine,
  instalmentScheduleMachine,
  mandateImportMachine,
  webhookDeliveryMachine,
  creditorBankAccountVerificationMachine,
  schemeIdentifierMachine,
  bankAccountHolderVerificationMachine,
  accessTokenMachine,
  oauthAppMachine
]
