import { Context, Effect, Layer } from "effect"
import { asciiLetters, decodeAtBoundary, type IdGenerator, InvalidState, type NotFound, type OrganisationId, PAYMENT_ACCOUNT_HOLDER_NAME_MAX_LENGTH, type StorageError, type StorageFailure, type ValidationFailed, withNewId } from "@paykit/core"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import type { Transactor, Versioned } from "../kernel/ports/repository.ts"
import type { EventLog } from "../kernel/ports/event-log.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { type AccountStatementStores, PaymentAccountRepository, PaymentAccountStatementRepository, PaymentAccountTransactionRepository } from "./repositories.ts"
import { recordMovement } from "./payment-account-transactions.ts"
import { type RepositoryOf } from "../kernel/repository-service.ts"
import type { Creditor } from "../creditors/domain/creditors.ts"
import {
  PAYMENT_ACCOUNTS,
  type PaymentAccount,
  PaymentAccountFundRequest,
  PaymentAccountListParams,
  paymentAccounts
} from "./domain/payment-accounts.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { captureUnitOfWork, insertNew, save } from "../kernel/support.ts"
import { linkedCreditor } from "../creditors/creditor-link.ts"

const decodeFund = decodeAtBoundary(PaymentAccountFundRequest, PAYMENT_ACCOUNTS)
const decodeList = decodeAtBoundary(PaymentAccountListParams, PAYMENT_ACCOUNTS)

/** Outbound payments are GBP only, so every payment account holds GBP. */
export const PAYMENT_ACCOUNT_CURRENCY = "GBP"
/** The bank that holds sandbox payment accounts (the platform's own account provider). */
export const PAYMENT_ACCOUNT_BANK_NAME = "PAYKIT SANDBOX BANK"

/**
 * The name as Faster Payments carries it: letters reduced to unaccented ASCII, upper-cased, other
 * characters outside the scheme's set dropped, runs of spaces collapsed, then cut to 18.
 */
export const paymentAccountHolderName = (name: string): string =>
  asciiLetters(name)
    .toUpperCase()
    .replace(/[^A-Z0-9 &\-./]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, PAYMENT_ACCOUNT_HOLDER_NAME_MAX_LENGTH)
    .trim()

/**
 * The last two digits of the sandbox account number. The sandbox has no real account numbers, so
 * one is derived from the account id: stable for the account, and spread over 00-99.
 */
export const accountNumberEndingOf = (id: string): string => {
  let h = 0
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) % 100_003
  return String(h % 100).padStart(2, "0")
}

type Accounts = RepositoryOf<typeof paymentAccounts>

/** The creditor's GBP payment account, if it has one. */
export const findAccount = (
  accounts: Accounts,
  organisation: string,
  creditor: string
): Effect.Effect<Versioned<PaymentAccount> | undefined, StorageError> =>
  Effect.map(accounts.scan(organisation, accountFilters(creditor)), (rows) => rows[0])

/** The filters that find a creditor's payment account: one per creditor, in GBP. */
const accountFilters = (creditor: string) => ({ creditor: eq(creditor), currency: eq(PAYMENT_ACCOUNT_CURRENCY) })

/** The creditor's payment account, opened (with a zero balance) the first time it is needed. */
export const openAccount = Effect.fnUntraced(function*(
  accounts: Accounts,
  organisation: string,
  creditor: Creditor
): Effect.fn.Return<Versioned<PaymentAccount>, StorageError, IdGenerator> {
  const existing = yield* findAccount(accounts, organisation, creditor.id)
  return existing ?? (yield* openNewAccount(accounts, organisation, creditor))
})

const openNewAccount = (accounts: Accounts, organisation: string, creditor: Creditor) =>
  withNewId("payment_account", (id, created_at) =>
    insertNew(accounts, organisation, {
      id,
      created_at,
      account_balance: 0,
      account_holder_name: paymentAccountHolderName(creditor.name),
      account_number_ending: accountNumberEndingOf(id),
      bank_name: PAYMENT_ACCOUNT_BANK_NAME,
      currency: PAYMENT_ACCOUNT_CURRENCY,
      links: { creditor: creditor.id }
    }))

/** The refusal of a reservation the creditor's balance cannot cover. */
export const insufficientBalance = (creditor: string, account: PaymentAccount | undefined, amount: number): InvalidState =>
  new InvalidState({
    reason: "insufficient_balance",
    message: `The creditor's payment account balance (${account?.account_balance ?? 0}) does not cover this outbound payment (${amount})`,
    links: account === undefined ? { creditor } : { creditor, payment_account: account.id }
  })

/**
 * Moves the creditor's available balance by `delta` (negative: a reservation). A reservation the
 * balance cannot cover is refused, so the balance never goes below zero.
 */
export const moveBalance = Effect.fnUntraced(function*(
  accounts: Accounts,
  organisation: string,
  creditor: string,
  delta: number
): Effect.fn.Return<PaymentAccount, InvalidState | StorageError> {
  const current = yield* findAccount(accounts, organisation, creditor)
  const balance = current?.resource.account_balance ?? 0
  if (current === undefined || balance + delta < 0) return yield* insufficientBalance(creditor, current?.resource, -delta)
  const next: PaymentAccount = { ...current.resource, account_balance: balance + delta }
  yield* save(accounts, organisation, current, next)
  return next
})

/** Money arrives in the creditor's account, opened on first use. */
const fund = Effect.fnUntraced(function*(
  stores: AccountStatementStores & { readonly accounts: Accounts; readonly creditors: CreditorRepository["Service"] },
  organisation: string,
  command: PaymentAccountFundRequest
) {
  const creditor = yield* linkedCreditor(stores.creditors, organisation, PAYMENT_ACCOUNTS, command.links.creditor)
  const account = yield* openAccount(stores.accounts, organisation, creditor.resource)
  const next: PaymentAccount = { ...account.resource, account_balance: account.resource.account_balance + command.amount }
  yield* save(stores.accounts, organisation, account, next)
  // The funds come from the creditor's own bank account (the sandbox's top-up names no other).
  yield* recordMovement(stores, organisation, next, {
    direction: "credit", amount: command.amount, counterparty_name: creditor.resource.name, description: "Funds received", reference: "FUNDING"
  })
  return next
})

export class PaymentAccounts extends Context.Service<PaymentAccounts, {
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<PaymentAccount, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof PaymentAccountListParams.Encoded) => Effect.Effect<Page<PaymentAccount>, ValidationFailed | StorageError>
  /**
   * Sandbox only: money arrives in the creditor's payment account (`{amount, links: {creditor}}`),
   * opening the account on first use. The live platform funds it by bank transfer.
   */
  readonly fund: (organisation: OrganisationId, command: typeof PaymentAccountFundRequest.Encoded) => Effect.Effect<PaymentAccount, ValidationFailed | InvalidState | StorageFailure>
}>()("@paykit/engine/PaymentAccounts") {
  static readonly layer: Layer.Layer<
    PaymentAccounts,
    never,
    PaymentAccountRepository | PaymentAccountTransactionRepository | PaymentAccountStatementRepository | CreditorRepository | IdGenerator | EventLog | Transactor
  > = Layer.effect(
    PaymentAccounts,
    Effect.gen(function*() {
      const accounts = yield* PaymentAccountRepository
      const transactions = yield* PaymentAccountTransactionRepository
      const statements = yield* PaymentAccountStatementRepository
      const creditors = yield* CreditorRepository
      const run = yield* captureUnitOfWork

      return PaymentAccounts.of({
        get: (o, id) => Effect.map(accounts.get(o, id), (v) => v.resource),
        list: (o, plain) => Effect.flatMap(decodeList(plain), (params) => accounts.list(o, toListQuery(params, { creditor: params.creditor === undefined ? undefined : eq(params.creditor) }))),
        fund: (o, command) => Effect.flatMap(decodeFund(command), (c) => run(fund({ accounts, transactions, statements, creditors }, o, c)))
      })
    })
  )
}
