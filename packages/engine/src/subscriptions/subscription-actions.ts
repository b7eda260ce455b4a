import { Effect, Result } from "effect"
import { type InvalidState, now, today } from "@paykit/core"
import { type SubscriptionPauseFacts, subscriptionMachine } from "@paykit/machines"
import { validateAppFee } from "@paykit/money"
import { calendarFor, pauseSubscriptionRequest, resumedSubscription, type SubscriptionSchedule } from "@paykit/schedule"
import { API_CAUSE, applyTransition, save } from "../kernel/support.ts"
import {
  type SubscriptionCancelRequest,
  type SubscriptionPauseRequest,
  SUBSCRIPTIONS_ROOT,
  type SubscriptionUpdateRequest
} from "./domain/subscriptions.ts"
import { factsOf, mandateToday, present, type SubscriptionDeps, subscriptionLinks, UNGUARDED } from "./subscription-rules.ts"

// The API's actions on a subscription: update (amend), pause, resume, cancel.


export const updateSubscription = (deps: SubscriptionDeps, organisation: string, id: string, req: SubscriptionUpdateRequest) =>
  Effect.gen(function*() {
    const current = yield* deps.subscriptions.get(organisation, id)
    const amount = req.amount ?? current.resource.amount
    const appFee = req.app_fee ?? current.resource.app_fee
    if (appFee !== null) yield* Effect.fromResult(validateAppFee(SUBSCRIPTIONS_ROOT, amount, appFee))
    const next = yield* applyTransition(deps.subscriptions, {
      organisation,
      machine: subscriptionMachine,
      current,
      event: "amend",
      context: UNGUARDED,
      cause: API_CAUSE("subscription_amended", "The subscription was amended at your request."),
      links: subscriptionLinks(current.resource),
      patch: (s) => ({ ...s, ...req })
    })
    return yield* present(deps, organisation, next)
  })

/**
 * Pause (with the request's `pause_cycles`, or none for a pause until resumed) and resume: the
 * subscription machine decides (its pause guards judge the facts @paykit/schedule finds in the
 * schedule) and moves the status; the schedule moves with it.
 */
export const pauseOrResume = (deps: SubscriptionDeps, organisation: string, id: string, pause: SubscriptionPauseRequest | undefined) =>
  Effect.gen(function*() {
    const current = yield* deps.subscriptions.get(organisation, id)
    const record = yield* Effect.orDie(deps.schedules.get(organisation, id))
    const mandate = yield* Effect.orDie(mandateToday(deps, organisation, current.resource.links.mandate))
    const context = {
      calendar: calendarFor(mandate.scheme),
      next_possible_charge_date: mandate.next_possible_charge_date ?? (yield* today()),
      at: yield* now
    }
    const sub = { status: current.resource.status, schedule: record.resource.schedule }
    const result: Result.Result<{ readonly schedule: SubscriptionSchedule; readonly facts: SubscriptionPauseFacts | null }, InvalidState> =
      pause !== undefined
        ? pauseSubscriptionRequest(sub, pause, context)
        : Result.map(resumedSubscription(sub, context), (m) => ({ ...m, facts: null }))
    const moved = yield* Effect.fromResult(result)
    const event = pause !== undefined ? "pause" : "resume"
    const next = yield* applyTransition(deps.subscriptions, {
      organisation,
      machine: subscriptionMachine,
      current,
      event,
      context: { ...factsOf(record.resource.schedule, mandate.scheme), pause: moved.facts },
      cause: API_CAUSE(event === "pause" ? "subscription_paused" : "subscription_resumed"),
      links: subscriptionLinks(current.resource, mandate)
    })
    yield* save(deps.schedules, organisation, record, { ...record.resource, schedule: moved.schedule, due_on: yield* today() })
    return yield* present(deps, organisation, next)
  })

export const cancelSubscription = (deps: SubscriptionDeps, organisation: string, id: string, req: SubscriptionCancelRequest = {}) =>
  Effect.gen(function*() {
    const current = yield* deps.subscriptions.get(organisation, id)
    const next = yield* applyTransition(deps.subscriptions, {
      organisation,
      machine: subscriptionMachine,
      current,
      event: "cancel",
      context: UNGUARDED,
      cause: API_CAUSE("subscription_cancelled", "The subscription was cancelled at your request."),
      links: subscriptionLinks(current.resource),
      patch: (s) => ({ ...s, metadata: req.metadata ?? s.metadata })
    })
    return yield* present(deps, organisation, next)
  })
