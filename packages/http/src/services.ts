import { Layer } from "effect"
import { IdGenerator } from "@paykit/core"
import {
  BankAuthorisations,
  BillingRequests,
  type EngineStorage,
  EngineServices,
  InMemoryStorage,
  Institutions,
  NegativeBalanceLimits,
  OutboundServices,
  PayerAuthorisations,
  RepositoriesFromBackend,
  SandboxBank,
  TaxRates
} from "@paykit/engine"
import { CreditorBankAccounts } from "./creditor-bank-accounts.ts"

/**
 * The engine services the API serves that the engine's `EngineServices` does not (yet) include:
 * the outbound family, billing requests with bank and payer authorisations, institutions, tax
 * rates and negative balance limits; and this package's creditor bank accounts (list and disable,
 * which the engine's `Creditors` does not have yet). They need the same storage and externals as
 * the rest.
 */
export const ApiOnlyServices = Layer.mergeAll(
  OutboundServices,
  CreditorBankAccounts.layer,
  NegativeBalanceLimits.layer,
  TaxRates.layer,
  PayerAuthorisations.layer,
  BankAuthorisations.layer.pipe(Layer.provideMerge(BillingRequests.layer))
).pipe(Layer.provideMerge(Institutions.layer))

/**
 * Every service the API needs, on the storage given (in memory, or SQL from @paykit/store-sql).
 * The engine's simulator is not part of it: the API never moves time.
 */
export const apiEngineOn = <E, R>(storage: Layer.Layer<EngineStorage, E, R>) =>
  ApiOnlyServices.pipe(
    Layer.provideMerge(EngineServices),
    Layer.provideMerge(RepositoriesFromBackend),
    Layer.provideMerge(storage)
  )

/** The API's engine in memory with the sandbox bank and the real clock: the embedded server, tests and benchmarks. */
export const inMemoryApiEngine = () =>
  apiEngineOn(InMemoryStorage).pipe(Layer.provideMerge(Layer.mergeAll(SandboxBank, IdGenerator.layer)))
