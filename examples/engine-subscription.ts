import { Effect } from "effect"
import { Paykit, Simulator } from "@paykit/engine"
import { ORG, setUpPayment } from "./engine-program.ts"

const DAY = 86_400_000

/**
 * A membership of £25 on the last business day of each month, six times, on the mandate of
 * `setUpPayment`: paused for one cycle after the first charge, then three months of daily runs.
 * The subscription makes each payment ahead of its charge date; each is collected and paid out.
 */
export const subscriptionProgram = Effect.gen(function*() {
  const { mandate } = yield* setUpPayment
  const { subscriptions, payments } = yield* Paykit
  const created = yield* subscriptions.create(ORG, {
    amount: 2500, currency: "GBP", name: "Gym membership", interval_unit: "monthly", day_of_month: -1, count: 6,
    links: { mandate: mandate.id }
  })
  console.log(created.id, created.status, created.upcoming_payments.map((p) => p.charge_date).join(" "))
  const simulator = yield* Simulator
  yield* simulator.advanceBy(10 * DAY)
  // Skip one month: the six payments are all still taken, the last a month later.
  const paused = yield* subscriptions.pause(ORG, created.id, { pause_cycles: 1 })
  console.log(paused.status, "until", paused.upcoming_payments[0]?.charge_date, "ending", paused.end_date)
  yield* simulator.advanceBy(90 * DAY)
  const taken = yield* payments.list(ORG, { subscription: created.id })
  for (const payment of taken.items.toReversed()) console.log(payment.charge_date, payment.amount, payment.status)
  return { created, paused, subscription: yield* subscriptions.get(ORG, created.id), payments: taken.items }
})
