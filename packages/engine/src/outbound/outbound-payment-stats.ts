import { Context, Effect, Layer, Schema } from "effect"
import { OUTBOUND_PAYMENT_STATUSES } from "@paykit/machines"
import { sumBig } from "@paykit/money"
import { eq } from "../kernel/ports/list-query.ts"
import { OutboundPaymentRepository } from "./repositories.ts"

/**
 * `GET /outbound_payments/stats`. The client calls it and reads the answer under
 * `outbound_payments`, but GoCardless publishes no shape for it; paykit answers the organisation's
 * outbound payments counted and summed per status (every status, zeros included), all in GBP, the
 * one currency of outbound payments (docs/money-reads.md).
 */
export const OutboundPaymentStats = Schema.Struct({
  currency: Schema.Literal("GBP"),
  total_count: Schema.Int,
  total_amount: Schema.Int,
  statuses: Schema.Array(Schema.Struct({
    status: Schema.Literals(OUTBOUND_PAYMENT_STATUSES),
    count: Schema.Int,
    amount: Schema.Int
  }))
})
export type OutboundPaymentStats = typeof OutboundPaymentStats.Type

export class OutboundPaymentStatistics extends Context.Service<OutboundPaymentStatistics, {
  readonly stats: (organisation: string) => Effect.Effect<OutboundPaymentStats>
}>()("@paykit/engine/OutboundPaymentStatistics") {
  static readonly layer: Layer.Layer<OutboundPaymentStatistics, never, OutboundPaymentRepository> = Layer.effect(
    OutboundPaymentStatistics,
    Effect.gen(function*() {
      const payments = yield* OutboundPaymentRepository
      // Each status is read through the `status` filter index.
      const ofStatus = (organisation: string, status: (typeof OUTBOUND_PAYMENT_STATUSES)[number]) =>
        Effect.map(payments.scan(organisation, { status: eq(status) }), (rows) => ({
          status,
          count: rows.length,
          amount: Number(sumBig(rows.map((r) => r.resource.amount)))
        }))
      return OutboundPaymentStatistics.of({
        stats: (organisation) =>
          Effect.map(Effect.forEach(OUTBOUND_PAYMENT_STATUSES, (status) => ofStatus(organisation, status)), (statuses) => ({
            currency: "GBP" as const,
            total_count: statuses.reduce((n, s) => n + s.count, 0),
            total_amount: Number(sumBig(statuses.map((s) => s.amount))),
            statuses
          }))
      })
    })
  )
}
