import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, decodeOptionalAtBoundary, type IdGenerator, invalidField, InvalidState, type LocalDate, type NotFound, type OperationError, OrganisationId, type StorageError, type Timestamp, today, validationFailed, type ValidationFailed, withNewId } from "@paykit/core"
import { outboundPaymentMachine } from "@paykit/machines"
import { executionDateRule, OUTBOUND_PAYMENTS, toFieldErrors } from "@paykit/validation"
import { BankGateway } from "../kernel/ports/bank-gateway.ts"
import { EventLog } from "../kernel/ports/event-log.ts"
import { eq, type Filter, type Page } from "../kernel/ports/list-query.ts"
import { type NameVerification, NameVerifier } from "../kernel/ports/name-verifier.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { CreditorBankAccountRepository, CreditorRepository } from "../creditors/repositories.ts"
import { CustomerBankAccountRepository } from "../customers/repositories.ts"
import { OutboundPaymentImportRepository, OutboundPaymentRepository } from "./repositories.ts"
import { PaymentAccountRepository, PaymentAccountStatementRepository, PaymentAccountTransactionRepository } from "../payment-accounts/repositories.ts"
import type { Creditor } from "../creditors/domain/creditors.ts"
import {
  type OutboundPayment,
  OutboundPaymentCancelRequest,
  OutboundPaymentCreateRequest,
  OutboundPaymentListParams,
  OutboundPaymentUpdateRequest,
  OutboundPaymentWithdrawalRequest,
  type RecipientVerification
} from "./domain/outbound-payments.ts"
import { rangeFilter, toListQuery } from "../kernel/list-params.ts"
import { resolveCreditor } from "../creditors/creditor-link.ts"
import { findAccount, insufficientBalance, moveBalance, openAccount } from "../payment-accounts/payment-accounts.ts"
import { API_CAUSE, applyCreation, captureUnitOfWork, save } from "../kernel/support.ts"
import { captureDailyItems } from "../due-work/daily-items.ts"
import { movePayment, OUTBOUND_PAYMENT_TIME_ZONE, OUTBOUND_SCHEME, outboundLinksOf, RESERVED_OUTBOUND_STATUSES } from "./outbound-payment-moves.ts"
import { approvalDeadlineOf, executeDue, expireUnapproved, type OutboundDueWork } from "./outbound-payment-due.ts"
import { optionalSchedule } from "../due-work/deadlines.ts"
import type { EngineContext } from "../kernel/support.ts"

type Errors = OperationError

/** The storage and ports the outbound payment use cases work with, taken once when the service is built. */
export interface OutboundPaymentDeps extends OutboundDueWork {
  readonly imports: OutboundPaymentImportRepository["Service"]
  readonly creditors: CreditorRepository["Service"]
  readonly verifier: NameVerifier["Service"]
}

/** Today in London, once `command`'s execution date is found not to be before it. */
const executionDay = Effect.fnUntraced(function*(command: { readonly execution_date?: LocalDate | undefined }) {
  const day = yield* today(OUTBOUND_PAYMENT_TIME_ZONE)
  const issues = executionDateRule(day)(command)
  if (issues.length > 0) return yield* validationFailed(toFieldErrors(OUTBOUND_PAYMENTS, issues))
  return day
})

const RECIPIENT = ["links", "recipient_bank_account"]

/** The recipient a creation names, if it can be paid: an enabled GBP customer bank account of the organisation. */
const payableRecipient = Effect.fnUntraced(function*(deps: OutboundPaymentDeps, organisation: string, id: string) {
  const recipient = yield* Effect.mapError(deps.customerAccounts.get(organisation, id), () =>
    invalidField(OUTBOUND_PAYMENTS, RECIPIENT, "must be a customer bank account of this organisation"))
  if (!recipient.resource.enabled) return yield* invalidField(OUTBOUND_PAYMENTS, RECIPIENT, "must be an enabled bank account")
  if (recipient.resource.currency !== "GBP") {
    return yield* invalidField(OUTBOUND_PAYMENTS, RECIPIENT, "must be a GBP bank account (outbound payments are GBP only)")
  }
  return recipient.resource
})

const IMPORT = ["links", "outbound_payment_import"]

/** Refuses an import link unless it names an authorised import of the same creditor (spec: import workflow). */
const checkImport = Effect.fnUntraced(function*(deps: OutboundPaymentDeps, organisation: string, id: string, creditor: string) {
  const batch = yield* Effect.mapError(deps.imports.get(organisation, id), () =>
    invalidField(OUTBOUND_PAYMENTS, IMPORT, "must be an outbound payment import of this organisation"))
  if (batch.resource.status !== "processing" || batch.resource.links.creditor !== creditor) {
    return yield* invalidField(OUTBOUND_PAYMENTS, IMPORT, "must be an authorised import of the same creditor that is being processed")
  }
})

const verificationOf = (check: NameVerification): RecipientVerification => ({
  type: "confirmation_of_payee",
  result: check.result,
  actual_account_name: check.result === "partial_match" ? check.actual_account_name : null
})

/** What a creation or a withdrawal decides beyond its command. */
interface Opening {
  readonly is_withdrawal: boolean
  readonly verification: RecipientVerification | null
  readonly links: OutboundPayment["links"]
}

type PaymentCommand = OutboundPaymentCreateRequest | OutboundPaymentWithdrawalRequest


const decodeCreate = decodeAtBoundary(OutboundPaymentCreateRequest, "outbound_payments")
const decodeWithdrawal = decodeAtBoundary(OutboundPaymentWithdrawalRequest, "outbound_payments")
const decodeUpdate = decodeAtBoundary(OutboundPaymentUpdateRequest, "outbound_payments")
const decodeList = decodeAtBoundary(OutboundPaymentListParams, "outbound_payments")
const decodeCancel = decodeOptionalAtBoundary(OutboundPaymentCancelRequest, "outbound_payments")
/**
 * Stores a new payment: it is created `verifying` and its verification completes at once (the
 * recipient was checked before), leaving it pending approval, judged on `day`. The account that
 * will fund it exists from the creditor's first outbound payment on.
 */
const open = Effect.fnUntraced(function*(
  deps: OutboundPaymentDeps,
  organisation: string,
  creditor: Creditor,
  day: LocalDate,
  command: PaymentCommand,
  opening: Opening
) {
  const fields = yield* withNewId("outbound_payment", (id, created_at) =>
    Effect.succeed<Omit<OutboundPayment, "status">>({
      id,
      created_at,
      amount: command.amount,
      currency: "GBP",
      description: command.description ?? null,
      execution_date: command.execution_date ?? null,
      is_withdrawal: opening.is_withdrawal,
      reference: command.reference ?? null,
      scheme: OUTBOUND_SCHEME,
      verifications: { recipient_bank_account_holder_verification: opening.verification },
      metadata: command.metadata ?? {},
      links: opening.links
    }))
  const links = outboundLinksOf(fields)
  const stored = yield* applyCreation(deps.payments, {
    organisation,
    machine: outboundPaymentMachine,
    state: "verifying",
    resource: fields,
    cause: API_CAUSE("outbound_payment_created", "Outbound payment created via the API."),
    links,
    then: [{
      event: "verification_completed",
      context: { execution_date: fields.execution_date, today: day },
      cause: {
        origin: "gocardless",
        cause: "outbound_payment_verified",
        description: opening.is_withdrawal
          ? "The withdrawal goes to the creditor's verified account and is awaiting approval."
          : "The recipient's account holder name was checked and the payment is awaiting approval."
      },
      links,
      extra: { scheme: OUTBOUND_SCHEME }
    }]
  })
  yield* openAccount(deps.accounts, organisation, creditor)
  return stored.resource
})

/** The due-work kind of an outbound payment's approval deadline (`due.ts` runs it). */
export const OUTBOUND_APPROVAL_EXPIRY = "outbound_approval_expiry"

const create = Effect.fnUntraced(function*(deps: OutboundPaymentDeps, organisation: string, command: OutboundPaymentCreateRequest) {
  const day = yield* executionDay(command)
  const creditor = yield* resolveCreditor(deps.creditors, organisation, OUTBOUND_PAYMENTS, command.links.creditor)
  const recipient = yield* payableRecipient(deps, organisation, command.links.recipient_bank_account)
  const importId = command.links.outbound_payment_import
  if (importId !== undefined) yield* checkImport(deps, organisation, importId, creditor.resource.id)
  const check = yield* deps.verifier.verify({
    account_holder_name: recipient.account_holder_name,
    account_number_ending: recipient.account_number_ending,
    country_code: recipient.country_code
  })
  return yield* open(deps, organisation, creditor.resource, day, command, {
    is_withdrawal: false,
    verification: verificationOf(check),
    links: {
      creditor: creditor.resource.id,
      recipient_bank_account: recipient.id,
      customer: recipient.links.customer,
      ...(importId === undefined ? {} : { outbound_payment_import: importId })
    }
  })
})

/** The creditor's verified, enabled GBP payout account, which a withdrawal pays. */
const withdrawalAccount = Effect.fnUntraced(function*(deps: OutboundPaymentDeps, organisation: string, creditor: Creditor) {
  if (creditor.verification_status !== "successful") {
    return yield* new InvalidState({
      reason: "creditor_not_verified",
      message: `The creditor's verification is ${creditor.verification_status}; withdrawals need a verified creditor`,
      links: { creditor: creditor.id }
    })
  }
  const accountId = creditor.links.default_gbp_payout_account
  const account = accountId === null ? undefined : yield* Effect.orDie(deps.creditorAccounts.get(organisation, accountId))
  if (account === undefined || !account.resource.enabled || account.resource.verification_status !== "successful") {
    return yield* new InvalidState({
      reason: "no_verified_business_bank_account",
      message: "The creditor has no verified, enabled GBP payout account to withdraw to",
      links: { creditor: creditor.id }
    })
  }
  return account.resource
})

const withdraw = Effect.fnUntraced(function*(deps: OutboundPaymentDeps, organisation: string, command: OutboundPaymentWithdrawalRequest) {
  const day = yield* executionDay(command)
  const creditor = yield* resolveCreditor(deps.creditors, organisation, OUTBOUND_PAYMENTS, command.links?.creditor)
  const account = yield* withdrawalAccount(deps, organisation, creditor.resource)
  return yield* open(deps, organisation, creditor.resource, day, command, {
    is_withdrawal: true,
    // The creditor's own account was checked by the creditor's verification, not by
    // confirmation of payee, so no recipient verification is shown.
    verification: null,
    links: { creditor: creditor.resource.id, recipient_bank_account: account.id }
  })
})

const update = Effect.fnUntraced(function*(deps: OutboundPaymentDeps, organisation: string, id: string, command: OutboundPaymentUpdateRequest) {
  const current = yield* deps.payments.get(organisation, id)
  if (command.metadata === undefined) return current.resource
  const next: OutboundPayment = { ...current.resource, metadata: command.metadata ?? {} }
  yield* save(deps.payments, organisation, current, next)
  return next
})

const approve = Effect.fnUntraced(function*(deps: OutboundPaymentDeps, organisation: string, id: string) {
  const current = yield* deps.payments.get(organisation, id)
  // Both refusals come before any write, so an approval refused inside a larger unit of
  // work (an import being processed) leaves nothing behind.
  const account = yield* findAccount(deps.accounts, organisation, current.resource.links.creditor)
  if (current.resource.status === "pending_approval" && (account?.resource.account_balance ?? 0) < current.resource.amount) {
    return yield* insufficientBalance(current.resource.links.creditor, account?.resource, current.resource.amount)
  }
  const cause = API_CAUSE("outbound_payment_approved", "The outbound payment was approved.")
  const next = yield* movePayment(deps.payments, organisation, current, "approve", cause)
  yield* moveBalance(deps.accounts, organisation, next.links.creditor, -next.amount)
  return next
})

/**
 * Approves the creditor's payments `ids`, in order, while its balance covers them, and moves the
 * balance once for all of them: an import's chunk writes the payment account row once, not once
 * per payment (on PostgreSQL each write left a dead version of that one row, which every
 * later lookup in the transaction walked, so an import's cost grew with the square of its size).
 * A payment not pending approval, of another creditor, or not covered stays as it is. Answers the
 * payments approved.
 */
const approveAll = Effect.fnUntraced(function*(deps: OutboundPaymentDeps, organisation: string, creditor: string, ids: ReadonlyArray<string>) {
  const account = yield* findAccount(deps.accounts, organisation, creditor)
  let available = account?.resource.account_balance ?? 0
  const approved: Array<OutboundPayment> = []
  for (const id of ids) {
    const current = yield* deps.payments.get(organisation, id)
    const payment = current.resource
    if (payment.status !== "pending_approval" || payment.links.creditor !== creditor || payment.amount > available) continue
    approved.push(yield* movePayment(deps.payments, organisation, current, "approve", API_CAUSE("outbound_payment_approved", "The outbound payment was approved.")))
    available -= payment.amount
  }
  const total = approved.reduce((sum, p) => sum + p.amount, 0)
  if (total > 0) yield* moveBalance(deps.accounts, organisation, creditor, -total)
  return approved
})

const cancel = Effect.fnUntraced(function*(deps: OutboundPaymentDeps, organisation: string, id: string, command: OutboundPaymentCancelRequest) {
  const current = yield* deps.payments.get(organisation, id)
  const wasReserved = RESERVED_OUTBOUND_STATUSES.includes(current.resource.status)
  const cause = API_CAUSE("outbound_payment_cancelled", "The outbound payment was cancelled at your request.")
  const next = yield* movePayment(deps.payments, organisation, current, "cancel", cause, {
    patch: (p) => (command.metadata === undefined ? p : { ...p, metadata: command.metadata ?? {} })
  })
  if (wasReserved) yield* moveBalance(deps.accounts, organisation, next.links.creditor, next.amount)
  return next
})

const list = (deps: OutboundPaymentDeps, organisation: string, params: OutboundPaymentListParams) => {
  const created: Filter | undefined = params.created_from === undefined && params.created_to === undefined
    ? undefined
    : rangeFilter({
      ...(params.created_from === undefined ? {} : { gte: params.created_from }),
      ...(params.created_to === undefined ? {} : { lte: params.created_to })
    })
  return deps.payments.list(organisation, toListQuery(params, {
    created_at: created,
    status: params.status === undefined ? undefined : eq(params.status)
  }))
}

export class OutboundPayments extends Context.Service<OutboundPayments, {
  readonly create: (organisation: OrganisationId, command: typeof OutboundPaymentCreateRequest.Encoded) => Effect.Effect<OutboundPayment, Errors>
  /** A payment to the creditor's own verified GBP payout account (`POST /outbound_payments/withdrawal`). */
  readonly withdraw: (organisation: OrganisationId, command: typeof OutboundPaymentWithdrawalRequest.Encoded) => Effect.Effect<OutboundPayment, Errors>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<OutboundPayment, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof OutboundPaymentListParams.Encoded) => Effect.Effect<Page<OutboundPayment>, ValidationFailed | StorageError>
  readonly update: (organisation: OrganisationId, id: string, command: typeof OutboundPaymentUpdateRequest.Encoded) => Effect.Effect<OutboundPayment, Errors>
  /** pending_approval -> scheduled, reserving the amount in the creditor's payment account. */
  readonly approve: (organisation: OrganisationId, id: string) => Effect.Effect<OutboundPayment, Errors>
  /**
   * Approves, in order, the creditor's payments pending approval that its balance covers,
   * reserving their total in one move of the balance (an import's chunk); the rest stay pending.
   */
  readonly approveAll: (organisation: OrganisationId, creditor: string, ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<OutboundPayment>, Errors>
  /** Before execution; a scheduled payment's reservation is released. */
  readonly cancel: (organisation: OrganisationId, id: string, command?: typeof OutboundPaymentCancelRequest.Encoded) => Effect.Effect<OutboundPayment, Errors>
  /**
   * Simulator hook: every scheduled payment whose execution date is `today` or earlier (or which
   * has none) moves to executing and is sent to the bank; the bank's answer moves it to executed
   * (the reservation becomes the debit) or failed (the reservation is released). Each payment is
   * its own unit of work. Returns the payments sent, in their final state.
   */
  readonly executeDue: (organisation: OrganisationId, today: LocalDate) => Effect.Effect<ReadonlyArray<OutboundPayment>, StorageError>
  /**
   * Simulator hook: payments still pending approval after their execution date (London), or
   * `OUTBOUND_PAYMENT_APPROVAL_WINDOW_DAYS` after creation when they have none, are cancelled
   * (`approval_expired`, event `cancelled`). Nothing was reserved for them, so no balance moves.
   */
  readonly expireUnapproved: (organisation: OrganisationId, now: Timestamp) => Effect.Effect<ReadonlyArray<OutboundPayment>, StorageError>
}>()("@paykit/engine/OutboundPayments") {
  static readonly layer: Layer.Layer<
    OutboundPayments,
    never,
    | OutboundPaymentRepository
    | OutboundPaymentImportRepository
    | PaymentAccountRepository
    | CreditorRepository
    | CreditorBankAccountRepository
    | CustomerBankAccountRepository
    | NameVerifier
    | BankGateway
    | IdGenerator
    | PaymentAccountTransactionRepository
    | PaymentAccountStatementRepository
    | EventLog
    | Transactor
  > = Layer.effect(
    OutboundPayments,
    Effect.gen(function*() {
      const deps: OutboundPaymentDeps = {
        payments: yield* OutboundPaymentRepository,
        imports: yield* OutboundPaymentImportRepository,
        accounts: yield* PaymentAccountRepository,
        transactions: yield* PaymentAccountTransactionRepository,
        statements: yield* PaymentAccountStatementRepository,
        creditors: yield* CreditorRepository,
        creditorAccounts: yield* CreditorBankAccountRepository,
        customerAccounts: yield* CustomerBankAccountRepository,
        verifier: yield* NameVerifier,
        bank: yield* BankGateway,
        eachItem: yield* captureDailyItems
      }
      const run = yield* captureUnitOfWork
      const schedule = yield* optionalSchedule
      // The approval window's end is due work, committed with the payment (the sweep moves only
      // payments still awaiting approval then).
      const withDeadline = (o: string, made: Effect.Effect<OutboundPayment, Errors, EngineContext>) =>
        run(Effect.tap(made, (p) =>
          schedule({ organisation: o, kind: OUTBOUND_APPROVAL_EXPIRY, key: p.id, dueAt: approvalDeadlineOf(p) })))
      return OutboundPayments.of({
        create: (o, command) => Effect.flatMap(decodeCreate(command), (c) => withDeadline(o, create(deps, o, c))),
        withdraw: (o, command) => Effect.flatMap(decodeWithdrawal(command), (c) => withDeadline(o, withdraw(deps, o, c))),
        get: (o, id) => Effect.map(deps.payments.get(o, id), (v) => v.resource),
        list: (o, params) => Effect.flatMap(decodeList(params), (p) => list(deps, o, p)),
        update: (o, id, command) => Effect.flatMap(decodeUpdate(command), (c) => run(update(deps, o, id, c))),
        approve: (o, id) => run(approve(deps, o, id)),
        approveAll: (o, creditor, ids) => run(approveAll(deps, o, creditor, ids)),
        cancel: (o, id, command) => Effect.flatMap(decodeCancel(command), (c) => run(cancel(deps, o, id, c ?? {}))),
        executeDue: (o, day) => executeDue(deps, o, day),
        expireUnapproved: (o, at) => expireUnapproved(deps, o, at)
      })
    })
  )
}
