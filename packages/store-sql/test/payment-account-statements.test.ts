import { Clock, Context, Deferred, Effect, Exit, Fiber, Layer } from "effect"
import { IdGenerator, InvalidState, MILLIS_PER_DAY, unsafeLocalDate, OrganisationId } from "@paykit/core"
import {
  Creditors,
  Customers,
  engineServicesOn,
  OutboundPayments,
  PaymentAccounts,
  PaymentAccountTransactions,
  RepositoryBackend,
  SandboxBank,
  sandboxWebhooks
} from "@paykit/engine"
import { describe, expect, it } from "vitest"
import { SqlStorage, type SqlStorageServices } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"

/**
 * A payment account's statement balance (`balance_after_transaction`) when two processes move the
 * account: the HTTP server funds it while a worker executes an outbound payment. Each process has
 * its own id generator, and during a sandbox advance the worker runs days ahead of the stored time.
 * Expected balances are running sums of the amounts, in the order the movements committed.
 */

const ORG = OrganisationId("OR0000000000PS")

/** Effect's clock moved `offset` ahead: the worker running a sandbox advance. */
const aheadBy = (offset: number): Clock.Clock => {
  const millis = () => Date.now() + offset
  return {
    currentTimeMillisUnsafe: millis,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanosUnsafe: () => BigInt(millis()) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(millis()) * 1_000_000n),
    monotonicTimeNanosUnsafe: () => BigInt(millis()) * 1_000_000n,
    monotonicTimeNanos: Effect.sync(() => BigInt(millis()) * 1_000_000n),
    sleep: (d) => Effect.sleep(d)
  }
}

/** One process's engine on the shared store, with its own id generator. */
type Storage = Context.Context<SqlStorageServices>

const processOn = (storage: Storage) =>
  Layer.build(engineServicesOn(Layer.succeedContext(storage)).pipe(
    Layer.provideMerge(Layer.mergeAll(SandboxBank, Layer.fresh(IdGenerator.layer), sandboxWebhooks))
  ))

/**
 * The storage as a process whose first write of a payment account transaction waits for `go`
 * (announcing `paused`): whatever the movement read before it, another process moves the account
 * meanwhile.
 */
const pausingFirstTransaction = (storage: Storage, paused: Deferred.Deferred<void>, go: Deferred.Deferred<void>) => {
  const backend = Context.get(storage, RepositoryBackend)
  let first = true
  const repository: RepositoryBackend["Service"]["repository"] = (definition) => {
    const inner = backend.repository(definition)
    if (definition.name !== "payment_account_transactions") return inner
    return {
      ...inner,
      insert: (organisation, resource) =>
        Effect.flatMap(first ? (first = false, Effect.andThen(Deferred.succeed(paused, undefined), Deferred.await(go))) : Effect.void, () =>
          inner.insert(organisation, resource))
    }
  }
  return Context.add(storage, RepositoryBackend, { ...backend, repository })
}

/** A creditor with a funded payment account and an approved outbound payment due today. */
const fundedWithApprovedPayment = Effect.gen(function*() {
  const creditor = yield* (yield* Creditors).create(ORG, { name: "Acme", country_code: "GB", creditor_type: "company" })
  const customers = yield* Customers
  const customer = yield* customers.create(ORG, { given_name: "Ada", family_name: "Lovelace", country_code: "GB" })
  const recipient = yield* customers.createBankAccount(ORG, {
    account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
  })
  const account = yield* (yield* PaymentAccounts).fund(ORG, { amount: 10_000, links: { creditor: creditor.id } } as never)
  const outbound = yield* OutboundPayments
  const payment = yield* outbound.create(ORG, { amount: 4_000, scheme: "faster_payments", reference: "INV 1", links: { recipient_bank_account: recipient.id } } as never)
  yield* outbound.approve(ORG, payment.id)
  return { creditor: creditor.id, account: account.id }
})

const statementOf = (account: string) =>
  Effect.map(
    Effect.flatMap(PaymentAccountTransactions, (t) =>
      t.list(ORG, account, { value_date_from: unsafeLocalDate("2000-01-01"), value_date_to: unsafeLocalDate("2999-12-31") } as never)),
    (page) => page.items.map((t) => ({ signed: t.direction === "credit" ? t.amount : -t.amount, balance: t.balance_after_transaction }))
  )

/** Whether the balances are the running sums of the amounts in some order of the movements. */
const isRunningSum = (rows: ReadonlyArray<{ readonly signed: number; readonly balance: number }>, before = 0): boolean =>
  rows.length === 0 || rows.some((row, i) => row.balance === before + row.signed && isRunningSum(rows.filter((_, j) => j !== i), row.balance))

const isConflict = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isFailure(exit) && exit.cause.reasons.some((r) => r._tag === "Fail" && r.error instanceof InvalidState && r.error.reason === "conflict")

describe.each(DATABASES)("payment account statements on $name", (database) => {
  it("a fund made while the worker's debit is being written is in the balances that follow it", { timeout: 60_000 }, () =>
    Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const storage = yield* Layer.build(Layer.orDie(SqlStorage.pipe(Layer.provide(database.isolated()))))
      const paused = yield* Deferred.make<void>()
      const go = yield* Deferred.make<void>()
      const http = yield* processOn(storage)
      const worker = yield* processOn(pausingFirstTransaction(storage, paused, go))
      const { account, creditor } = yield* Effect.provideContext(fundedWithApprovedPayment, http)
      const execution = yield* Effect.forkChild(Effect.provideContext(
        Effect.flatMap(OutboundPayments, (o) => o.executeDue(ORG, unsafeLocalDate("2999-12-31"))), worker))
      yield* Deferred.await(paused)
      const fund = yield* Effect.forkChild(Effect.exit(Effect.provideContext(
        Effect.flatMap(PaymentAccounts, (a) => a.fund(ORG, { amount: 500, links: { creditor } } as never)), http)))
      // The fund runs to its end, or to a lock the paused debit holds.
      yield* Effect.sleep("500 millis")
      yield* Deferred.succeed(go, undefined)
      yield* Fiber.join(execution)
      const fundExit = yield* Fiber.join(fund)
      // A fund that lost the race to the debit is a 409 conflict; one that won is in the statement.
      expect(Exit.isSuccess(fundExit) || isConflict(fundExit)).toBe(true)
      const statement = yield* Effect.provideContext(statementOf(account), http)
      expect(statement).toHaveLength(Exit.isSuccess(fundExit) ? 3 : 2)
      expect(isRunningSum(statement)).toBe(true)
    }))))

  it("a fund stamped at the stored time, behind the worker's debit days ahead, is in the balances that follow it", { timeout: 60_000 }, () =>
    Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const storage = yield* Layer.build(Layer.orDie(SqlStorage.pipe(Layer.provide(database.isolated()))))
      const http = yield* processOn(storage)
      const worker = yield* processOn(storage)
      const { account, creditor } = yield* Effect.provideContext(fundedWithApprovedPayment, http)
      const ahead = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provideService(effect, Clock.Clock, aheadBy(2 * MILLIS_PER_DAY))
      const fund = (amount: number) => Effect.provideContext(Effect.flatMap(PaymentAccounts, (a) => a.fund(ORG, { amount, links: { creditor } } as never)), http)
      yield* Effect.provideContext(ahead(Effect.flatMap(OutboundPayments, (o) => o.executeDue(ORG, unsafeLocalDate("2999-12-31")))), worker)
      yield* fund(500)
      yield* fund(100)
      const statement = yield* Effect.provideContext(statementOf(account), http)
      expect(new Map(statement.map((row) => [row.signed, row.balance]))).toEqual(new Map([[10_000, 10_000], [-4_000, 6_000], [500, 6_500], [100, 6_600]]))
    }))))
})
