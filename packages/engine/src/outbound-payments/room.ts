import { Layer } from "effect"
import { defineRoom, store } from "../registry/room.ts"
import { outboundDeadlines } from "./due.ts"
import { outboundDueWork } from "./jobs.ts"
import { OutboundPaymentImportCreateRequest, outboundPaymentImportEntries, outboundPaymentImports } from "./domain/outbound-payment-imports.ts"
import {
  OutboundPaymentCancelRequest,
  OutboundPaymentCreateRequest,
  outboundPayments,
  OutboundPaymentUpdateRequest,
  OutboundPaymentWithdrawalRequest
} from "./domain/outbound-payments.ts"
import { OutboundPaymentImportEntryRepository, OutboundPaymentImportRepository, OutboundPaymentRepository } from "./repositories.ts"
import { OutboundPaymentImports } from "./outbound-payment-imports.ts"
import { OutboundPayments } from "./outbound-payments.ts"
import { OutboundPaymentStatistics } from "./outbound-payment-stats.ts"

/** The outbound payments' room: payments out of the creditor's payment account, and their imports. */
export const outboundPaymentsRoom = defineRoom({
  stores: [
    store(OutboundPaymentRepository, outboundPayments),
    store(OutboundPaymentImportRepository, outboundPaymentImports),
    store(OutboundPaymentImportEntryRepository, outboundPaymentImportEntries)
  ],
  requestBodies: {
    outbound_payments: {
      create: OutboundPaymentCreateRequest,
      withdrawal: OutboundPaymentWithdrawalRequest,
      update: OutboundPaymentUpdateRequest,
      cancel: OutboundPaymentCancelRequest
    },
    outbound_payment_imports: { create: OutboundPaymentImportCreateRequest }
  },
  dueWork: outboundDueWork,
  deadlines: outboundDeadlines,
  services: Layer.mergeAll(OutboundPaymentStatistics.layer, OutboundPaymentImports.layer.pipe(Layer.provideMerge(OutboundPayments.layer)))
})
