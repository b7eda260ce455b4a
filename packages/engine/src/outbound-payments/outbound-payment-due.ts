import { Effect } from "effect"
import { addDays, type LocalDate, localDateOfMillisIn, MILLIS_PER_DAY, startOfLocalDateIn, type Timestamp, timestampToMillis } from "@paykit/core"
import type { BankGateway } from "../kernel/ports/bank-gateway.ts"
import { eq } from "../kernel/ports/list-query.ts"
import type { CreditorBankAccountRepository } from "../creditors/repositories.ts"
import type { CustomerBankAccountRepository } from "../customers/repositories.ts"
import type { AccountStatementStores, PaymentAccountRepository } from "../payment-accounts/repositories.ts"
import type { OutboundPayment } from "./domain/outbound-payments.ts"
import { type DailyItems, idOfVersioned } from "../due-work/daily-items.ts"
import { findAccount, moveBalance } from "../payment-accounts/payment-accounts.ts"
import { recordMovement } from "../payment-accounts/payment-account-transactions.ts"
import { movePayment, OUTBOUND_PAYMENT_TIME_ZONE, type OutboundPaymentStore } from "./outbound-payment-moves.ts"

/**
 * A payment left pending approval is cancelled (spec: "not approved on time") once its execution
 * date has passed, or, when it has none, this long after its creation. The spec gives no period;
 * seven days is this engine's choice.
 */
export const OUTBOUND_PAYMENT_APPROVAL_WINDOW_DAYS = 7
export const APPROVAL_WINDOW_MILLIS = OUTBOUND_PAYMENT_APPROVAL_WINDOW_DAYS * MILLIS_PER_DAY

/**
 * The instant a payment left pending approval is cancelled: the start of the day after its
 * execution date in London, or `APPROVAL_WINDOW_MILLIS` after its creation when it has none. Its
 * due row falls there, and the sweep (and the daily run's net under it) cancels by it.
 */
export const approvalDeadlineOf = (p: Pick<OutboundPayment, "execution_date" | "created_at">): number =>
  p.execution_date !== null
    ? startOfLocalDateIn(addDays(p.execution_date, 1), OUTBOUND_PAYMENT_TIME_ZONE)
    : timestampToMillis(p.created_at) + APPROVAL_WINDOW_MILLIS

/** What the daily work on outbound payments reads and moves. */
export interface OutboundDueWork extends AccountStatementStores {
  readonly payments: OutboundPaymentStore
  readonly accounts: PaymentAccountRepository["Service"]
  readonly creditorAccounts: CreditorBankAccountRepository["Service"]
  readonly customerAccounts: CustomerBankAccountRepository["Service"]
  readonly bank: BankGateway["Service"]
  readonly eachItem: DailyItems
}

/** The name of the account holder a payment is sent to: the creditor's own for a withdrawal. */
const recipientName = (deps: OutboundDueWork, organisation: string, p: OutboundPayment) =>
  p.is_withdrawal
    ? Effect.map(deps.creditorAccounts.get(organisation, p.links.recipient_bank_account), (a) => a.resource.account_holder_name)
    : Effect.map(deps.customerAccounts.get(organisation, p.links.recipient_bank_account), (a) => a.resource.account_holder_name)

/** The executed payment's debit on its creditor's payment account (which its reservation proves exists). */
const recordDebit = (deps: OutboundDueWork, organisation: string, payment: OutboundPayment, recipient: string) =>
  Effect.gen(function*() {
    const account = yield* findAccount(deps.accounts, organisation, payment.links.creditor)
    if (account === undefined) return yield* Effect.die(`outbound payment ${payment.id} executed without a payment account`)
    yield* recordMovement(deps, organisation, account.resource, {
      direction: "debit",
      amount: payment.amount,
      counterparty_name: recipient,
      description: payment.description ?? "",
      reference: payment.reference ?? "",
      outbound_payment: payment.id
    })
  })

/**
 * A scheduled payment is sent: executing, then executed (the reservation made on approval becomes
 * the debit, so the balance does not move again) or failed (the reservation is released).
 */
const executeOne = Effect.fnUntraced(function*(deps: OutboundDueWork, organisation: string, id: string, day: LocalDate) {
  const current = yield* deps.payments.get(organisation, id)
  const executing = yield* movePayment(deps.payments, organisation, current, "execution_date_reached", {
    origin: "gocardless",
    cause: "outbound_payment_execution_date_reached",
    description: "The execution date arrived and the payment was queued for sending."
  }, { today: day })
  const recipient = yield* recipientName(deps, organisation, executing)
  const outcome = yield* deps.bank.submitOutboundPayment({ outboundPaymentId: id, amount: executing.amount, recipientAccountHolderName: recipient })
  const sent = yield* deps.payments.get(organisation, id)
  if (outcome.outcome === "executed") {
    yield* recordDebit(deps, organisation, executing, recipient)
    return yield* movePayment(deps.payments, organisation, sent, "scheme_accepted", {
      origin: "bank",
      cause: "outbound_payment_executed",
      description: "The payment was accepted by Faster Payments and is on its way."
    }, { today: day })
  }
  const failed = yield* movePayment(deps.payments, organisation, sent, "scheme_failed", {
    origin: "bank",
    cause: outcome.cause,
    description: outcome.description
  }, { today: day, reason_code: outcome.reason_code })
  yield* moveBalance(deps.accounts, organisation, failed.links.creditor, failed.amount)
  return failed
})

/** Every scheduled payment due on `day` (or with no execution date) is sent, each in its own unit of work. */
export const executeDue = Effect.fnUntraced(function*(deps: OutboundDueWork, organisation: string, day: LocalDate) {
  const scheduled = yield* deps.payments.scan(organisation, { status: eq("scheduled") })
  const due = scheduled.filter((p) => p.resource.execution_date === null || p.resource.execution_date <= day)
  const sent: Array<OutboundPayment> = []
  yield* deps.eachItem("outbound execution", organisation, due, idOfVersioned, (p) =>
    Effect.map(executeOne(deps, organisation, p.resource.id, day), (done) => sent.push(done)))
  return sent
})

/** Payments not approved in time are cancelled (`approval_expired`); nothing was reserved for them. */
export const expireUnapproved = Effect.fnUntraced(function*(deps: OutboundDueWork, organisation: string, at: Timestamp) {
  const atMillis = timestampToMillis(at)
  const day = localDateOfMillisIn(atMillis, OUTBOUND_PAYMENT_TIME_ZONE)
  const pending = yield* deps.payments.scan(organisation, { status: eq("pending_approval") })
  const late = pending.filter((p) => approvalDeadlineOf(p.resource) <= atMillis)
  const expired: Array<OutboundPayment> = []
  const expire = (id: string) =>
    Effect.gen(function*() {
      const current = yield* deps.payments.get(organisation, id)
      expired.push(yield* movePayment(deps.payments, organisation, current, "approval_expired", {
        origin: "gocardless",
        cause: "outbound_payment_approval_expired",
        description: "The outbound payment was not approved in time."
      }, { today: day }))
    })
  yield* deps.eachItem("outbound approval expiry", organisation, late, idOfVersioned, (p) => expire(p.resource.id))
  return expired
})
