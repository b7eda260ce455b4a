import { bankReportsRoom } from "./bank-reports/room.ts"
import { bankSubmissionsRoom } from "./bank-submissions/room.ts"
import { blocksRoom } from "./blocks/room.ts"
import { creditorsRoom } from "./creditors/room.ts"
import { customersRoom } from "./customers/room.ts"
import { documentsRoom } from "./documents/room.ts"
import { exportsRoom } from "./exports/room.ts"
import { instalmentsRoom } from "./instalments/room.ts"
import { ledgerRoom } from "./ledger/room.ts"
import { mandateImportsRoom } from "./mandate-imports/room.ts"
import { mandatePdfsRoom } from "./mandate-pdfs/room.ts"
import { mandatesRoom } from "./mandates/room.ts"
import { outboundPaymentsRoom } from "./outbound-payments/room.ts"
import { paymentAccountsRoom } from "./payment-accounts/room.ts"
import { billingRequestsRoom } from "./billing-requests/room.ts"
import { bankAuthorisationsRoom } from "./bank-authorisations/room.ts"
import { payerAuthorisationsRoom } from "./payer-authorisations/room.ts"
import { flowsRoom } from "./flows/room.ts"
import { bankAccountHolderVerificationsRoom } from "./bank-account-holder-verifications/room.ts"
import { customerNotificationsRoom } from "./customer-notifications/room.ts"
import { paymentsRoom } from "./payments/room.ts"
import { payoutsRoom } from "./payouts/room.ts"
import { refundsRoom } from "./refunds/room.ts"
import { subscriptionsRoom } from "./subscriptions/room.ts"
import { webhooksRoom } from "./webhooks/room.ts"
import { institutionsRoom } from "./institutions/room.ts"
import { scenariosRoom } from "./scenarios/room.ts"

/**
 * The registry of the engine's rooms, lowest first (the order of `docs/architecture.md`'s arrows):
 * each room's `room.ts` declares its stored resources, repositories, request bodies, due work,
 * services and the ports it implements, and `repositories.ts`, `request-schemas.ts` and
 * `engine.ts` derive theirs from this list. A new
 * room is one line here; a new resource in a room touches only its room.
 */
export const ROOMS = [
  creditorsRoom,
  ledgerRoom,
  customersRoom,
  bankSubmissionsRoom,
  mandatesRoom,
  refundsRoom,
  paymentsRoom,
  subscriptionsRoom,
  instalmentsRoom,
  payoutsRoom,
  paymentAccountsRoom,
  outboundPaymentsRoom,
  institutionsRoom,
  billingRequestsRoom,
  bankAuthorisationsRoom,
  payerAuthorisationsRoom,
  flowsRoom,
  bankAccountHolderVerificationsRoom,
  customerNotificationsRoom,
  webhooksRoom,
  documentsRoom,
  mandatePdfsRoom,
  blocksRoom,
  mandateImportsRoom,
  exportsRoom,
  bankReportsRoom,
  scenariosRoom
] as const
