import { Effect, Layer } from "effect"
import { defineRoom, store } from "../registry/room.ts"
import { instalmentScheduleChecks } from "./domain/instalment-schedule-checks.ts"
import { paymentReversals } from "./domain/payment-reversals.ts"
import { PaymentCancelRequest, PaymentCreateRequest, PaymentRetryRequest, payments, PaymentUpdateRequest } from "./domain/payments.ts"
import { Payments } from "./payments.ts"
import { InstalmentScheduleCheckRepository, PaymentRepository, PaymentReversalRepository } from "./repositories.ts"
import { FundsAvailabilities } from "./funds-availability.ts"

/** The payments' room: the debits, their reversals and refunds' ledger rows, and the side records payments keep. */
export const paymentsRoom = defineRoom({
  stores: [
    store(PaymentRepository, payments),
    store(PaymentReversalRepository, paymentReversals),
    store(InstalmentScheduleCheckRepository, instalmentScheduleChecks)
  ],
  requestBodies: {
    payments: { create: PaymentCreateRequest, update: PaymentUpdateRequest, cancel: PaymentCancelRequest, retry: PaymentRetryRequest }
  },
  /** Payments are confirmed or fail, the next day's are submitted, late failures, chargebacks and refunds move. */
  dueWork: Effect.map(Payments, (payments) => [{ name: "payments", order: 40, deadline: false, run: payments.processDay }]),
  services: Layer.mergeAll(Payments.layer, FundsAvailabilities.layer)
})
