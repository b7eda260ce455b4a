import { repositoriesOf, resourcesOf } from "./kernel/room.ts"
import { ROOMS } from "./rooms.ts"

/**
 * The composition of every room's storage: each room declares its repositories in its own
 * `repositories.ts` and lists them with its definitions in its `room.ts`; this file derives the
 * definitions for the storage adapters and the repositories' layer from the registry (`rooms.ts`).
 */
export * from "./kernel/repository-service.ts"
export * from "./creditors/repositories.ts"
export * from "./customers/repositories.ts"
export * from "./mandates/repositories.ts"
export * from "./refunds/repositories.ts"
export * from "./payments/repositories.ts"
export * from "./subscriptions/repositories.ts"
export * from "./ledger/repositories.ts"
export * from "./payer-flows/repositories.ts"
export * from "./outbound/repositories.ts"
export * from "./payouts/repositories.ts"
export * from "./webhooks/repositories.ts"
export * from "./instalments/repositories.ts"
export * from "./blocks/repositories.ts"
export * from "./mandate-imports/repositories.ts"
export * from "./exports/repositories.ts"
export * from "./mandate-pdfs/repositories.ts"
export * from "./documents/repositories.ts"

/** Every resource definition the engine stores: a storage adapter creates one table per entry. */
export const RESOURCE_DEFINITIONS = resourcesOf(ROOMS)

/** Every aggregate's repository, built from whichever storage backend is provided. */
export const RepositoriesFromBackend = repositoriesOf(ROOMS)
