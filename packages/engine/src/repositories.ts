import { Context, Effect, Layer } from "effect"
import { type Repository, RepositoryBackend } from "./ports/repository.ts"
import type { FilterKeyOf, ResourceDefinition, ResourceOf } from "./resources/definition.ts"
import { creditors } from "./resources/creditors.ts"
import { customerBankAccounts } from "./resources/customer-bank-accounts.ts"
import { customers } from "./resources/customers.ts"
import { mandates } from "./resources/mandates.ts"
import { payments } from "./resources/payments.ts"
import { refunds } from "./resources/refunds.ts"

/** The repository port of the resource a definition describes. */
export type RepositoryOf<D> = Repository<ResourceOf<D>, FilterKeyOf<D>>

export class CreditorRepository extends Context.Service<CreditorRepository, RepositoryOf<typeof creditors>>()(
  "@paykit/engine/CreditorRepository"
) {}
export class CustomerRepository extends Context.Service<CustomerRepository, RepositoryOf<typeof customers>>()(
  "@paykit/engine/CustomerRepository"
) {}
export class CustomerBankAccountRepository
  extends Context.Service<CustomerBankAccountRepository, RepositoryOf<typeof customerBankAccounts>>()(
    "@paykit/engine/CustomerBankAccountRepository"
  )
{}
export class MandateRepository extends Context.Service<MandateRepository, RepositoryOf<typeof mandates>>()(
  "@paykit/engine/MandateRepository"
) {}
export class PaymentRepository extends Context.Service<PaymentRepository, RepositoryOf<typeof payments>>()(
  "@paykit/engine/PaymentRepository"
) {}
export class RefundRepository extends Context.Service<RefundRepository, RepositoryOf<typeof refunds>>()(
  "@paykit/engine/RefundRepository"
) {}

const fromBackend = <I, A extends { readonly id: string; readonly created_at: string }, K extends string>(
  tag: Context.Key<I, Repository<A, K>>,
  definition: ResourceDefinition<A, K>
): Layer.Layer<I, never, RepositoryBackend> =>
  Layer.effect(tag, Effect.map(RepositoryBackend, (backend: RepositoryBackend["Service"]) => backend.repository(definition)))

/** Every resource definition the engine stores: a storage adapter creates one table per entry. */
export const RESOURCE_DEFINITIONS = [creditors, customers, customerBankAccounts, mandates, payments, refunds] as const

/** Every aggregate's repository, built from whichever storage backend is provided. */
export const RepositoriesFromBackend = Layer.mergeAll(
  fromBackend(CreditorRepository, creditors),
  fromBackend(CustomerRepository, customers),
  fromBackend(CustomerBankAccountRepository, customerBankAccounts),
  fromBackend(MandateRepository, mandates),
  fromBackend(PaymentRepository, payments),
  fromBackend(RefundRepository, refunds)
)
