import { OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import { defineRoom, store } from "../registry/room.ts"
import { dueDone, type DueWorkDeclarations } from "../due-work/port.ts"
import { Payments } from "../payments/payments.ts"
import { SIDE_RECORDS_KIND } from "../payments/side-records.ts"
import {
  SubscriptionCancelRequest,
  SubscriptionCreateRequest,
  SubscriptionPauseRequest,
  SubscriptionResumeRequest,
  subscriptionSchedules,
  subscriptions,
  SubscriptionUpdateRequest
} from "./domain/subscriptions.ts"
import { SubscriptionRepository, SubscriptionScheduleRepository } from "./repositories.ts"
import { Subscriptions } from "./subscriptions.ts"
import { MandateEndingsLive } from "./mandate-endings.ts"

/**
 * The `side_records` kind (`payments/side-records.ts`): the side records of payments and of
 * subscriptions kept where missing. Declared here, the room that knows both.
 */
export const sideRecordsDueWork: Effect.Effect<DueWorkDeclarations, never, Payments | Subscriptions> = Effect.gen(function*() {
  const payments = yield* Payments
  const subscriptions = yield* Subscriptions
  return {
    pumps: [],
    kinds: [{
      kind: SIDE_RECORDS_KIND,
      // The records are made in units of work of their own (`captureDailyItems`).
      ownUnitsOfWork: true,
      run: (item) => Effect.as(Effect.andThen(payments.keepMissingSideRecords(OrganisationId(item.organisation)), subscriptions.keepMissingSideRecords(OrganisationId(item.organisation))), dueDone)
    }]
  }
})

/** The subscriptions' room: the schedules that make payments, and their schedule records. */
export const subscriptionsRoom = defineRoom({
  stores: [
    store(SubscriptionRepository, subscriptions),
    store(SubscriptionScheduleRepository, subscriptionSchedules)
  ],
  requestBodies: {
    subscriptions: {
      create: SubscriptionCreateRequest,
      update: SubscriptionUpdateRequest,
      pause: SubscriptionPauseRequest,
      resume: SubscriptionResumeRequest,
      cancel: SubscriptionCancelRequest
    }
  },
  /** Subscriptions create the payments whose advance notice starts today (after the mandates, before the payments). */
  dueWork: Effect.map(Subscriptions, (subscriptions) => [{ name: "subscriptions", order: 30, deadline: false, run: subscriptions.processDay }]),
  deadlines: sideRecordsDueWork,
  services: Subscriptions.layer,
  ports: MandateEndingsLive
})
