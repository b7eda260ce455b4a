import type { OrganisationId } from "@paykit/core"
import { Context, Effect, Layer, Schema } from "effect"
import type { StorageError } from "@paykit/core"
import { OUTBOUND_PAYMENT_STATUSES } from "@paykit/machines"
import { sumBig } from "@paykit/money"
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
  readonly stats: (organisation: OrganisationId) => Effect.Effect<OutboundPaymentStats, StorageError>
}>()("@paykit/engine/OutboundPaymentStatistics") {
  static readonly layer: Layer.Layer<OutboundPaymentStatistics, never, OutboundPaymentRepository> = Layer.effect(
    OutboundPaymentStatistics,
    Effect.gen(function*() {
      const payments = yield* OutboundPaymentRepository
      return OutboundPaymentStatistics.of({
        // Counted and summed in the store, grouped by status: the cost follows the statuses, not
        // the payments the organisation ever had.
        stats: (organisation) =>
          Effect.map(payments.aggregate(organisation, {}, "status", "amount"), (groups) => {
            const statuses = OUTBOUND_PAYMENT_STATUSES.map((status) => {
              const group = groups.find((g) => g.key === status)
              return { status, count: group?.count ?? 0, amount: Number(group?.sum ?? 0n) }
            })
            return {
              currency: "GBP" as const,
              total_count: statuses.reduce((n, s) => n + s.count, 0),
              total_amount: Number(sumBig(statuses.map((s) => s.amount))),
              statuses
            }
          })
      })
    })
  )
}
