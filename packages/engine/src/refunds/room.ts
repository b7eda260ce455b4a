import { defineRoom, store } from "../registry/room.ts"
import { RefundCreateRequest, refunds, RefundUpdateRequest } from "./domain/refunds.ts"
import { RefundRepository } from "./repositories.ts"

/**
 * The refunds' room: the resource and its repository. Refunding is an operation of a payment
 * (`Payments.createRefund`, `payments/refund-actions.ts`), so its use cases live with the payments.
 */
export const refundsRoom = defineRoom({
  stores: [store(RefundRepository, refunds)],
  requestBodies: { refunds: { create: RefundCreateRequest, update: RefundUpdateRequest } }
})
