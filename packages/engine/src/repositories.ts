import { repositoriesOf, resourcesOf } from "./registry/room.ts"
import { ROOMS } from "./rooms.ts"
import { bankAccountHolderVerificationsRoom } from "./bank-account-holder-verifications/room.ts"
import { customerNotificationsRoom } from "./customer-notifications/room.ts"
import { flowsRoom } from "./flows/room.ts"

/**
 * The composition of every room's storage: each room declares its repositories in its own
 * `repositories.ts` and lists them with its definitions in its `room.ts`; this file derives the
 * definitions for the storage adapters and the repositories' layer from the registry (`rooms.ts`).
 */
export * from "./kernel/repository-service.ts"
export * from "./creditors/repositories.ts"
export * from "./customers/repositories.ts"
export * from "./bank-submissions/repositories.ts"
export * from "./mandates/repositories.ts"
export * from "./refunds/repositories.ts"
export * from "./payments/repositories.ts"
export * from "./subscriptions/repositories.ts"
export * from "./ledger/repositories.ts"
export * from "./billing-requests/repositories.ts"
export * from "./bank-authorisations/repositories.ts"
export * from "./payer-authorisations/repositories.ts"
export * from "./flows/repositories.ts"
export * from "./bank-account-holder-verifications/repositories.ts"
export * from "./customer-notifications/repositories.ts"
export * from "./payment-accounts/repositories.ts"
export * from "./outbound-payments/repositories.ts"
export * from "./payouts/repositories.ts"
export * from "./webhooks/repositories.ts"
export * from "./instalments/repositories.ts"
export * from "./blocks/repositories.ts"
export * from "./mandate-imports/repositories.ts"
export * from "./exports/repositories.ts"
export * from "./mandate-pdfs/repositories.ts"
export * from "./documents/repositories.ts"
export * from "./bank-reports/repositories.ts"

/** Every resource definition the engine stores: a storage adapter creates one table per entry. */
export const RESOURCE_DEFINITIONS = resourcesOf(ROOMS)

/** Every aggregate's repository, built from whichever storage backend is provided. */
export const RepositoriesFromBackend = repositoriesOf(ROOMS)

/** The hosted flows' rooms and their neighbours', which the engine once stored as one group: still exported under the group's names. */
const FLOW_ROOMS = [flowsRoom, bankAccountHolderVerificationsRoom, customerNotificationsRoom] as const

/** The hosted flows' and their neighbours' stores. */
export const FLOW_STORES = [...flowsRoom.stores, ...bankAccountHolderVerificationsRoom.stores, ...customerNotificationsRoom.stores] as const

/** Their definitions. */
export const FLOW_DEFINITIONS = resourcesOf(FLOW_ROOMS)

/** Their repositories, built from whichever storage backend is provided. */
export const FlowRepositoriesFromBackend = repositoriesOf(FLOW_ROOMS)
