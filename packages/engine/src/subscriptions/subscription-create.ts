import { Effect } from "effect"
import { InvalidState, invalidField, newId, now, type Timestamp, today } from "@paykit/core"
import { subscriptionMachine } from "@paykit/machines"
import { calendarFor, planSubscriptionRequest, settleSubscriptionRequest, type SubscriptionPlan } from "@paykit/schedule"
import { CallingApp, recordAttribution } from "../ledger/app-fees.ts"
import type { PartnerApp } from "../ledger/domain/app-fees.ts"
import { API_CAUSE, applyCreation, insertNew } from "../kernel/support.ts"
import { CHARGEABLE_MANDATE_STATUSES } from "../mandates/domain/mandates.ts"
import { type Subscription, type SubscriptionCreateRequest, SUBSCRIPTIONS_ROOT } from "./domain/subscriptions.ts"
import { mandateCurrencyRefusal } from "../payments/payment-rules.ts"
import { mandateToday, present, type SubscriptionDeps, subscriptionLinks } from "./subscription-rules.ts"

/** `origin.app`: the partner app the subscription's app fees go to; defaults to the `CallingApp` of the call. */
export interface SubscriptionOrigin {
  readonly app?: PartnerApp | null
}

/** The stored fields of a planned subscription, all but the status its machine sets. */
const subscriptionFields = (id: string, created_at: Timestamp, plan: SubscriptionPlan, mandate: string): Omit<Subscription, "status"> => {
  const r = plan.request
  return {
    id,
    created_at,
    ...settleSubscriptionRequest(r),
    start_date: plan.start_date,
    end_date: plan.end_date,
    interval: plan.interval,
    upcoming_payments: plan.upcoming_payments,
    earliest_charge_date_after_resume: null,
    links: { mandate }
  }
}

/** POST /subscriptions: planned by @paykit/schedule on the mandate's calendar, then created by its machine. */
export const createSubscription = (deps: SubscriptionDeps, organisation: string, req: SubscriptionCreateRequest, origin: SubscriptionOrigin = {}) =>
  Effect.gen(function*() {
    const mandate = yield* mandateToday(deps, organisation, req.links.mandate).pipe(
      Effect.mapError(() => invalidField(SUBSCRIPTIONS_ROOT, ["links", "mandate"], "must be a mandate of this organisation"))
    )
    if (!CHARGEABLE_MANDATE_STATUSES.includes(mandate.status) || mandate.next_possible_charge_date === null) {
      return yield* new InvalidState({ reason: "mandate_is_inactive", message: `The mandate is ${mandate.status}`, links: { mandate: mandate.id } })
    }
    const plan = yield* Effect.fromResult(planSubscriptionRequest(req, {
      calendar: calendarFor(mandate.scheme),
      today: yield* today(),
      next_possible_charge_date: mandate.next_possible_charge_date
    }))
    // The daily run creates each payment in the mandate's currency: a subscription in another could never charge.
    const currencyRefusal = mandateCurrencyRefusal(mandate.scheme, req.currency)
    if (currencyRefusal !== undefined) return yield* invalidField(SUBSCRIPTIONS_ROOT, ["currency"], currencyRefusal)
    const created_at = yield* now
    const fields = subscriptionFields(yield* newId("subscription"), created_at, plan, mandate.id)
    const { resource: subscription } = yield* applyCreation(deps.subscriptions, {
      organisation,
      machine: subscriptionMachine,
      state: "active",
      resource: fields,
      cause: API_CAUSE("subscription_created"),
      links: subscriptionLinks(fields, mandate)
    })
    yield* insertNew(deps.schedules, organisation, { id: subscription.id, created_at, schedule: plan.schedule, due_on: yield* today() })
    // Recorded even without an app fee yet: one can be set later by an update.
    const app = origin.app === undefined ? yield* CallingApp : origin.app
    if (app !== null) yield* recordAttribution(deps, organisation, subscription.id, app)
    return yield* present(deps, organisation, subscription)
  })

