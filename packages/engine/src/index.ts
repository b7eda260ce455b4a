/**
 * @paykit/engine: the embeddable payments engine. Effect services, one per resource family,
 * apply the pure rules of @paykit/schedule, @paykit/machines, @paykit/validation and
 * @paykit/money, persist through repository ports and record every change as events.
 */
export * from "./adapters/in-memory.ts"
export * from "./ports/event-log.ts"
export * from "./ports/list-query.ts"
export * from "./ports/repository.ts"
export * from "./repositories.ts"
export * from "./resources/creditors.ts"
export * from "./resources/customer-bank-accounts.ts"
export * from "./resources/customers.ts"
export * from "./resources/definition.ts"
export * from "./resources/events.ts"
export * from "./resources/mandates.ts"
export * from "./resources/payments.ts"
export * from "./resources/refunds.ts"
export * from "./testing/repository-contract.ts"
