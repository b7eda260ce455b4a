/**
 * @paykit/engine: the embeddable payments engine. Effect services, one per resource family,
 * apply the pure rules of @paykit/schedule, @paykit/machines, @paykit/validation and
 * @paykit/money, persist through repository ports and record every change as events.
 */
export * from "./repositories.ts"
export * from "./engine.ts"
export * from "./request-schemas.ts"

/** Each room's public names, in the rooms' order (`rooms.ts`): a new name is exported from its room's `public.ts`. */
export * from "./kernel/public.ts"
export * from "./due-work/public.ts"
export * from "./memory/public.ts"
export * from "./creditors/public.ts"
export * from "./ledger/public.ts"
export * from "./customers/public.ts"
export * from "./mandates/public.ts"
export * from "./refunds/public.ts"
export * from "./payments/public.ts"
export * from "./subscriptions/public.ts"
export * from "./instalments/public.ts"
export * from "./payouts/public.ts"
export * from "./payment-accounts/public.ts"
export * from "./outbound-payments/public.ts"
export * from "./institutions/public.ts"
export * from "./billing-requests/public.ts"
export * from "./bank-authorisations/public.ts"
export * from "./payer-authorisations/public.ts"
export * from "./flows/public.ts"
export * from "./bank-account-holder-verifications/public.ts"
export * from "./customer-notifications/public.ts"
export * from "./webhooks/public.ts"
export * from "./documents/public.ts"
export * from "./mandate-pdfs/public.ts"
export * from "./blocks/public.ts"
export * from "./mandate-imports/public.ts"
export * from "./exports/public.ts"
export * from "./retention/public.ts"
export * from "./scenarios/public.ts"
