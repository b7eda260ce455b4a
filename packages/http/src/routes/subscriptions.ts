import { Effect } from "effect"
import { REQUEST_BODIES, SubscriptionListParams, Subscriptions, subscriptions } from "@paykit/engine"
import { APP_FEE_PATHS, appFeeOnlyForApps } from "../app-fees.ts"
import { actionEndpoint, createEndpoint, type EndpointDeclaration, getEndpoint, listEndpoint, OPTIONAL_ATTRIBUTES, updateEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"

/** Subscriptions: created and updated (an app fee only from a partner app), read, paused, resumed and cancelled. */

const services = Effect.gen(function*() {
  return { subscriptions: yield* Subscriptions }
})

const BODIES = REQUEST_BODIES
const SUB = "subscriptions"
const TOP_APP_FEE = { guard: appFeeOnlyForApps(SUB, APP_FEE_PATHS.top) } as const

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  createEndpoint(SUB, subscriptions.schema, BODIES.subscriptions.create, (s) => (o, command) => s.subscriptions.create(o, command), TOP_APP_FEE),
  listEndpoint(SUB, subscriptions.schema, SubscriptionListParams, (s) => s.subscriptions.list),
  getEndpoint(SUB, subscriptions.schema, (s) => s.subscriptions.get),
  updateEndpoint(SUB, subscriptions.schema, BODIES.subscriptions.update, (s) => s.subscriptions.update, TOP_APP_FEE),
  actionEndpoint("pause", SUB, subscriptions.schema, BODIES.subscriptions.pause, (s) => s.subscriptions.pause, OPTIONAL_ATTRIBUTES),
  actionEndpoint("resume", SUB, subscriptions.schema, BODIES.subscriptions.resume, (s) => s.subscriptions.resume, OPTIONAL_ATTRIBUTES),
  actionEndpoint("cancel", SUB, subscriptions.schema, BODIES.subscriptions.cancel, (s) => s.subscriptions.cancel, OPTIONAL_ATTRIBUTES)
]

export const subscriptionsRoom = routeRoom([SUB], services, declarations)
