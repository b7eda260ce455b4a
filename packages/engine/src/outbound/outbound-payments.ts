import { Context, Effect, Layer, Result, Schema } from "effect"
import {
  type IdGenerator,
  InvalidState,
  type LocalDate,
  type Timestamp,
  localDateOfMillisIn,
  timestampToMillis,
  type NotFound,
  type ValidationFailed,
  decodeInputEffect,
  invalidField,
  today,
  withNewId
} from "@paykit/core"
import { type Cause, type OutboundPaymentContext, type OutboundPaymentEvent, type OutboundPaymentStatus, OUTBOUND_PAYMENT_STATUSES, outboundPaymentMachine } from "@paykit/machines"
import {
  OUTBOUND_PAYMENTS,
  validateOutboundPaymentCreate,
  validateOutboundPaymentUpdate,
  validateOutboundPaymentWithdrawal
} from "@paykit/validation"
import { BankGateway } from "../kernel/ports/bank-gateway.ts"
import { EventLog } from "../kernel/ports/event-log.ts"
import { eq, type Filter, type Page } from "../kernel/ports/list-query.ts"
import { NameVerifier } from "../kernel/ports/name-verifier.ts"
import { Transactor, type Versioned } from "../kernel/ports/repository.ts"
import { CreditorBankAccountRepository, CreditorRepository } from "../creditors/repositories.ts"
import { CustomerBankAccountRepository } from "../collections/repositories.ts"
import { OutboundPaymentImportRepository, OutboundPaymentRepository, PaymentAccountRepository } from "./repositories.ts"
import type { Creditor } from "../creditors/domain/creditors.ts"
import type { CustomerBankAccount } from "../collections/domain/customer-bank-accounts.ts"
import type { OutboundPayment, RecipientVerification } from "./domain/outbound-payments.ts"
import { pageFields, QueryTimestamp, rangeFilter, toListQuery } from "../kernel/list-params.ts"
import { resolveCreditor } from "../creditors/creditor-link.ts"
import { findAccount, insufficientBalance, moveBalance, openAccount } from "./payment-accounts.ts"
import { API_CAUSE, applyTransition, captureUnitOfWork, creationOf, insertMoved, save, transitionOf } from "../kernel/support.ts"
import { OutboundPaymentCancelRequest } from "../kernel/metadata-requests.ts"
import { captureDailyItems, idOfVersioned } from "../kernel/daily-items.ts"

/** Faster Payments run on UK days: `execution_date` is checked against today in London. */
export const OUTBOUND_PAYMENT_TIME_ZONE = "Europe/London"
const SCHEME = "faster_payments"

/**
 * A payment left pending approval is cancelled (spec: "not approved on time") once its execution
 * date has passed, or, when it has none, this long after its creation. The spec gives no period;
 * seven days is this engine's choice.
 */
export const OUTBOUND_PAYMENT_APPROVAL_WINDOW_DAYS = 7
const APPROVAL_WINDOW_MILLIS = OUTBOUND_PAYMENT_APPROVAL_WINDOW_DAYS * 86_400_000

export const OutboundPaymentListParams = Schema.Struct({
  ...pageFields("outbound_payment"),
  created_from: Schema.optionalKey(QueryTimestamp),
  created_to: Schema.optionalKey(QueryTimestamp),
  status: Schema.optionalKey(Schema.Literals(OUTBOUND_PAYMENT_STATUSES))
})

type Errors = ValidationFailed | InvalidState | NotFound

/** Outbound payment statuses in which the amount is reserved in the payment account. */
export const RESERVED_OUTBOUND_STATUSES: ReadonlyArray<OutboundPayment["status"]> = ["scheduled", "executing"]

const linksOf = (p: Pick<OutboundPayment, "id" | "links">): Record<string, string> => ({
  outbound_payment: p.id,
  creditor: p.links.creditor,
  ...(p.links.customer === undefined ? {} : { customer: p.links.customer }),
  ...(p.links.outbound_payment_import === undefined ? {} : { outbound_payment_import: p.links.outbound_payment_import })
})

/** A new outbound payment, `verifying`, from a decoded creation or withdrawal request. */
const verifyingPayment = (
  req: {
    readonly amount: number
    readonly description?: string | undefined
    readonly execution_date?: LocalDate | undefined
    readonly reference?: string | undefined
    readonly metadata?: OutboundPayment["metadata"] | null | undefined
  },
  fields: {
    readonly is_withdrawal: boolean
    readonly verification: RecipientVerification | null
    readonly links: OutboundPayment["links"]
  }
) =>
  withNewId("outbound_payment", (id, created_at) => {
    const payment: Omit<OutboundPayment, "status"> = {
      id,
      created_at,
      amount: req.amount,
      currency: "GBP",
      description: req.description ?? null,
      execution_date: req.execution_date ?? null,
      is_withdrawal: fields.is_withdrawal,
      reference: req.reference ?? null,
      scheme: SCHEME,
      verifications: { recipient_bank_account_holder_verification: fields.verification },
      metadata: req.metadata ?? {},
      links: fields.links
    }
    return Effect.succeed(payment)
  })

const verificationOf = (result: RecipientVerification["result"], actual: string | null): RecipientVerification => ({
  type: "confirmation_of_payee",
  result,
  actual_account_name: result === "partial_match" ? actual : null
})

export class OutboundPayments extends Context.Service<OutboundPayments, {
  readonly create: (organisation: string, input: unknown) => Effect.Effect<OutboundPayment, Errors>
  /** A payment to the creditor's own verified GBP payout account (`POST /outbound_payments/withdrawal`). */
  readonly withdraw: (organisation: string, input: unknown) => Effect.Effect<OutboundPayment, Errors>
  readonly get: (organisation: string, id: string) => Effect.Effect<OutboundPayment, NotFound>
  readonly list: (organisation: string, params: unknown) => Effect.Effect<Page<OutboundPayment>, ValidationFailed>
  readonly update: (organisation: string, id: string, input: unknown) => Effect.Effect<OutboundPayment, Errors>
  /** pending_approval -> scheduled, reserving the amount in the creditor's payment account. */
  readonly approve: (organisation: string, id: string) => Effect.Effect<OutboundPayment, Errors>
  /** Before execution; a scheduled payment's reservation is released. */
  readonly cancel: (organisation: string, id: string, input?: unknown) => Effect.Effect<OutboundPayment, Errors>
  /**
   * Simulator hook: every scheduled payment whose execution date is `today` or earlier (or which
   * has none) moves to executing and is sent to the bank; the bank's answer moves it to executed
   * (the reservation becomes the debit) or failed (the reservation is released). Each payment is
   * its own unit of work. Returns the payments sent, in their final state.
   */
  readonly executeDue: (organisation: string, today: LocalDate) => Effect.Effect<ReadonlyArray<OutboundPayment>>
  /**
   * Simulator hook: payments still pending approval after their execution date (London), or
   * `OUTBOUND_PAYMENT_APPROVAL_WINDOW_DAYS` after creation when they have none, are cancelled
   * (`approval_expired`, event `cancelled`). Nothing was reserved for them, so no balance moves.
   */
  readonly expireUnapproved: (organisation: string, now: Timestamp) => Effect.Effect<ReadonlyArray<OutboundPayment>>
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
    | EventLog
    | Transactor
  > = Layer.effect(
    OutboundPayments,
    Effect.gen(function*() {
      const payments = yield* OutboundPaymentRepository
      const imports = yield* OutboundPaymentImportRepository
      const accounts = yield* PaymentAccountRepository
      const creditors = yield* CreditorRepository
      const creditorAccounts = yield* CreditorBankAccountRepository
      const customerAccounts = yield* CustomerBankAccountRepository
      const verifier = yield* NameVerifier
      const bank = yield* BankGateway
      const run = yield* captureUnitOfWork
      const eachItem = yield* captureDailyItems

      const decodeList = decodeInputEffect(OutboundPaymentListParams, OUTBOUND_PAYMENTS)
      const decodeCancel = decodeInputEffect(OutboundPaymentCancelRequest, OUTBOUND_PAYMENTS)

      type MoveOptions = { readonly patch?: (p: OutboundPayment) => OutboundPayment; readonly reason_code?: string }
      /** What the machine is asked when `payment` takes `event` on `day`. */
      const requestFor = (payment: OutboundPayment, event: OutboundPaymentEvent, cause: Cause, day: LocalDate, options: MoveOptions) => ({
        machine: outboundPaymentMachine,
        event,
        context: { execution_date: payment.execution_date, today: day },
        cause,
        links: linksOf(payment),
        ...(options.patch === undefined ? {} : { patch: options.patch }),
        extra: { scheme: SCHEME, ...(options.reason_code === undefined ? {} : { reason_code: options.reason_code }) }
      })

      // `move` runs on every change of a payment and `open` on every creation: chains of steps, not
      // generators (see `emit`).
      const move = (
        organisation: string,
        current: Versioned<OutboundPayment>,
        event: OutboundPaymentEvent,
        cause: Cause,
        options: MoveOptions & { readonly today?: LocalDate } = {}
      ) => {
        const onDay = (day: LocalDate) =>
          applyTransition(payments, { organisation, current, ...requestFor(current.resource, event, cause, day, options) })
        return options.today === undefined ? Effect.flatMap(today(OUTBOUND_PAYMENT_TIME_ZONE), onDay) : onDay(options.today)
      }

      /**
       * Stores a new payment, verified (pending approval) on the day its request was validated
       * against. It is made verifying and its verification completes in the same unit of work, so
       * the machine's table is asked for that step, and only the state after it is written, with
       * the events of both (`created`, then the table's).
       */
      const open = (organisation: string, creditor: Creditor, fields: Omit<OutboundPayment, "status">, day: LocalDate) => {
        const made = creationOf<OutboundPayment, OutboundPaymentStatus, OutboundPaymentEvent, OutboundPaymentContext>({
          machine: outboundPaymentMachine,
          state: "verifying",
          resource: fields,
          cause: API_CAUSE("outbound_payment_created", "Outbound payment created via the API."),
          links: linksOf(fields)
        }, fields.created_at, payments.definition.schema)
        if (Result.isFailure(made)) return Effect.fail(made.failure)
        const payment = made.success.next
        const verified = transitionOf(payment, requestFor(payment, "verification_completed", {
          origin: "gocardless",
          cause: "outbound_payment_verified",
          description: payment.is_withdrawal
            ? "The withdrawal goes to the creditor's verified account and is awaiting approval."
            : "The recipient's account holder name was checked and the payment is awaiting approval."
        }, day, {}), payment.created_at)
        if (Result.isFailure(verified)) return Effect.fail(verified.failure)
        const next = verified.success.next
        // Nested `flatMap`s, not `tap`s: a tap is a step more.
        return Effect.flatMap(insertMoved(payments, organisation, [made.success, verified.success]), () =>
          // The account that will fund it exists from the creditor's first outbound payment on.
          Effect.as(openAccount(accounts, organisation, creditor), next))
      }

      /**
       * The recipient a creation names, given to `then` if it can be paid: an enabled GBP customer
       * bank account of the organisation. Given on, not answered, so its success is no step of its own.
       */
      const withPayableRecipient = <A, E, R>(
        organisation: string,
        id: string,
        then: (recipient: CustomerBankAccount) => Effect.Effect<A, E, R>
      ): Effect.Effect<A, E | ValidationFailed, R> =>
        Effect.flatMap(
          Effect.mapError(customerAccounts.get(organisation, id), () =>
            invalidField(OUTBOUND_PAYMENTS, ["links", "recipient_bank_account"], "must be a customer bank account of this organisation")),
          (recipient): Effect.Effect<A, E | ValidationFailed, R> =>
            !recipient.resource.enabled
              ? Effect.fail(invalidField(OUTBOUND_PAYMENTS, ["links", "recipient_bank_account"], "must be an enabled bank account"))
              : recipient.resource.currency !== "GBP"
              ? Effect.fail(invalidField(OUTBOUND_PAYMENTS, ["links", "recipient_bank_account"], "must be a GBP bank account (outbound payments are GBP only)"))
              : then(recipient.resource)
        )

      /**
       * `then`, once the import a creation names, if any, is found to be an authorised one of the
       * same creditor (spec: import workflow); with none named, `then` at once.
       */
      const afterImportCheck = <A, E, R>(
        organisation: string,
        importId: string | undefined,
        creditor: string,
        then: () => Effect.Effect<A, E, R>
      ): Effect.Effect<A, E | ValidationFailed, R> =>
        importId === undefined ? then() : Effect.flatMap(
          Effect.mapError(imports.get(organisation, importId), () =>
            invalidField(OUTBOUND_PAYMENTS, ["links", "outbound_payment_import"], "must be an outbound payment import of this organisation")),
          (batch): Effect.Effect<A, E | ValidationFailed, R> =>
            batch.resource.status !== "processing" || batch.resource.links.creditor !== creditor
              ? Effect.fail(invalidField(OUTBOUND_PAYMENTS, ["links", "outbound_payment_import"], "must be an authorised import of the same creditor that is being processed"))
              : then()
        )

      // A chain of steps, not a generator, like `open` (see `emit`): the API's busiest creation.
      const create = (organisation: string, input: unknown) =>
        Effect.flatMap(today(OUTBOUND_PAYMENT_TIME_ZONE), (day) => {
          const decoded = validateOutboundPaymentCreate(input, day)
          if (Result.isFailure(decoded)) return Effect.fail(decoded.failure)
          const req = decoded.success
          const importId = req.links.outbound_payment_import
          return Effect.flatMap(resolveCreditor(creditors, organisation, OUTBOUND_PAYMENTS, req.links.creditor), (creditor) =>
            withPayableRecipient(organisation, req.links.recipient_bank_account, (recipient) =>
              afterImportCheck(organisation, importId, creditor.resource.id, () =>
                Effect.flatMap(verifier.verify({
                  account_holder_name: recipient.account_holder_name,
                  account_number_ending: recipient.account_number_ending,
                  country_code: recipient.country_code
                }), (check) =>
                  Effect.flatMap(verifyingPayment(req, {
                    is_withdrawal: false,
                    verification: verificationOf(check.result, check.actual_account_name),
                    links: {
                      creditor: creditor.resource.id,
                      recipient_bank_account: recipient.id,
                      customer: recipient.links.customer,
                      ...(importId === undefined ? {} : { outbound_payment_import: importId })
                    }
                  }), (payment) => open(organisation, creditor.resource, payment, day))))))
        })

      const withdraw = (organisation: string, input: unknown) =>
        Effect.gen(function*() {
          const day = yield* today(OUTBOUND_PAYMENT_TIME_ZONE)
          const req = yield* Effect.fromResult(validateOutboundPaymentWithdrawal(input, day))
          const creditor = yield* resolveCreditor(creditors, organisation, OUTBOUND_PAYMENTS, req.links?.creditor)
          if (creditor.resource.verification_status !== "successful") {
            return yield* new InvalidState({
              reason: "creditor_not_verified",
              message: `The creditor's verification is ${creditor.resource.verification_status}; withdrawals need a verified creditor`,
              links: { creditor: creditor.resource.id }
            })
          }
          const accountId = creditor.resource.links.default_gbp_payout_account
          const account = accountId === null ? undefined : yield* Effect.orDie(creditorAccounts.get(organisation, accountId))
          if (account === undefined || !account.resource.enabled || account.resource.verification_status !== "successful") {
            return yield* new InvalidState({
              reason: "no_verified_business_bank_account",
              message: "The creditor has no verified, enabled GBP payout account to withdraw to",
              links: { creditor: creditor.resource.id }
            })
          }
          const payment = yield* verifyingPayment(req, {
            is_withdrawal: true,
            // The creditor's own account was checked by the creditor's verification, not by
            // confirmation of payee, so no recipient verification is shown.
            verification: null,
            links: { creditor: creditor.resource.id, recipient_bank_account: account.resource.id }
          })
          return yield* open(organisation, creditor.resource, payment, day)
        })

      const update = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* Effect.fromResult(validateOutboundPaymentUpdate(input))
          const current = yield* payments.get(organisation, id)
          if (req.metadata === undefined) return current.resource
          const next: OutboundPayment = { ...current.resource, metadata: req.metadata ?? {} }
          yield* save(payments, organisation, current, next)
          return next
        })

      const approve = (organisation: string, id: string) =>
        Effect.gen(function*() {
          const current = yield* payments.get(organisation, id)
          // Both refusals come before any write, so an approval refused inside a larger unit of
          // work (an import being processed) leaves nothing behind.
          const account = yield* findAccount(accounts, organisation, current.resource.links.creditor)
          if (current.resource.status === "pending_approval" && (account?.resource.account_balance ?? 0) < current.resource.amount) {
            return yield* insufficientBalance(current.resource.links.creditor, account?.resource, current.resource.amount)
          }
          const next = yield* move(organisation, current, "approve", API_CAUSE("outbound_payment_approved", "The outbound payment was approved."))
          yield* moveBalance(accounts, organisation, next.links.creditor, -next.amount)
          return next
        })

      const cancel = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeCancel(input ?? {})
          const current = yield* payments.get(organisation, id)
          const wasReserved = RESERVED_OUTBOUND_STATUSES.includes(current.resource.status)
          const next = yield* move(organisation, current, "cancel", API_CAUSE("outbound_payment_cancelled", "The outbound payment was cancelled at your request."), {
            patch: (p) => (req.metadata === undefined ? p : { ...p, metadata: req.metadata ?? {} })
          })
          if (wasReserved) yield* moveBalance(accounts, organisation, next.links.creditor, next.amount)
          return next
        })

      const recipientName = (organisation: string, p: OutboundPayment) =>
        p.is_withdrawal
          ? Effect.map(creditorAccounts.get(organisation, p.links.recipient_bank_account), (a) => a.resource.account_holder_name)
          : Effect.map(customerAccounts.get(organisation, p.links.recipient_bank_account), (a) => a.resource.account_holder_name)

      const executeOne = (organisation: string, id: string, day: LocalDate) =>
        Effect.gen(function*() {
          const current = yield* payments.get(organisation, id)
          const executing = yield* move(organisation, current, "execution_date_reached", {
            origin: "gocardless",
            cause: "outbound_payment_execution_date_reached",
            description: "The execution date arrived and the payment was queued for sending."
          }, { today: day })
          const outcome = yield* bank.submitOutboundPayment({
            outboundPaymentId: id,
            amount: executing.amount,
            recipientAccountHolderName: yield* recipientName(organisation, executing)
          })
          const sent = yield* payments.get(organisation, id)
          if (outcome.outcome === "executed") {
            // The reservation made on approval becomes the debit: the balance does not move again.
            return yield* move(organisation, sent, "scheme_accepted", {
              origin: "bank",
              cause: "outbound_payment_executed",
              description: "The payment was accepted by Faster Payments and is on its way."
            }, { today: day })
          }
          const failed = yield* move(organisation, sent, "scheme_failed", { origin: "bank", cause: outcome.cause, description: outcome.description }, {
            today: day,
            reason_code: outcome.reason_code
          })
          yield* moveBalance(accounts, organisation, failed.links.creditor, failed.amount)
          return failed
        })

      const executeDue = (organisation: string, day: LocalDate) =>
        Effect.gen(function*() {
          const due = yield* payments.scan(organisation, { status: eq("scheduled") })
          const sent: Array<OutboundPayment> = []
          const dueToday = due.filter((p) => p.resource.execution_date === null || p.resource.execution_date <= day)
          yield* eachItem("outbound execution", organisation, dueToday, idOfVersioned, (p) =>
            Effect.map(executeOne(organisation, p.resource.id, day), (done) => sent.push(done)))
          return sent
        })

      const expireUnapproved = (organisation: string, at: Timestamp) =>
        Effect.gen(function*() {
          const atMillis = timestampToMillis(at)
          const day = localDateOfMillisIn(atMillis, OUTBOUND_PAYMENT_TIME_ZONE)
          const expired: Array<OutboundPayment> = []
          const late = (yield* payments.scan(organisation, { status: eq("pending_approval") })).filter((p) =>
            p.resource.execution_date !== null
              ? p.resource.execution_date < day
              : timestampToMillis(p.resource.created_at) + APPROVAL_WINDOW_MILLIS <= atMillis)
          yield* eachItem("outbound approval expiry", organisation, late, idOfVersioned, (p) =>
            Effect.flatMap(payments.get(organisation, p.resource.id), (current) =>
              Effect.map(move(organisation, current, "approval_expired", {
                origin: "gocardless",
                cause: "outbound_payment_approval_expired",
                description: "The outbound payment was not approved in time."
              }, { today: day }), (done) => expired.push(done))))
          return expired
        })

      const list = (organisation: string, input: unknown) =>
        Effect.flatMap(decodeList(input), (params) => {
          const created: Filter | undefined = params.created_from === undefined && params.created_to === undefined
            ? undefined
            : rangeFilter({
              ...(params.created_from === undefined ? {} : { gte: params.created_from }),
              ...(params.created_to === undefined ? {} : { lte: params.created_to })
            })
          return payments.list(organisation, toListQuery(params, {
            created_at: created,
            status: params.status === undefined ? undefined : eq(params.status)
          }))
        })

      return OutboundPayments.of({
        create: (o, i) => run(create(o, i)),
        withdraw: (o, i) => run(withdraw(o, i)),
        get: (o, id) => Effect.map(payments.get(o, id), (v) => v.resource),
        list,
        update: (o, id, i) => run(update(o, id, i)),
        approve: (o, id) => run(approve(o, id)),
        cancel: (o, id, i) => run(cancel(o, id, i)),
        executeDue,
        expireUnapproved
      })
    })
  )
}

