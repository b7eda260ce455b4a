import { BillingRequestCreate, CollectBankAccount } from "@paykit/validation"
import { requestBodiesOf } from "./registry/room.ts"
import { ROOMS } from "./rooms.ts"

/**
 * The body Schemas of the API requests, whose Types are the engine operations' commands, under the engine's names, so
 * an HTTP layer can describe real bodies (OpenAPI) with the very Schemas that check them. Each is
 * the body below the resource key (`{"outbound_payments": <this>}`).
 *
 * Some checks are not part of a Schema's shape because they depend on the moment or on stored
 * data: an outbound payment's `execution_date` must not be before today in London (the use case
 * applies that rule to the decoded command), and references to other resources are checked against storage.
 * The cross-field rules of billing requests, collected bank accounts and subscriptions are part of
 * their Schemas (`withRules` checks, or `@paykit/schedule`'s planning).
 */
export const BillingRequestCreateRequest = BillingRequestCreate
export const CollectBankAccountRequest = CollectBankAccount

/**
 * Every request body by API resource and action (`create`, `update`, or the action's name in
 * the API's path, e.g. `collect_customer_details`), for generating documentation: each room
 * declares its own in its `room.ts`.
 */
export const REQUEST_BODIES = requestBodiesOf(ROOMS)
