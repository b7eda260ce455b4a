import { Context, Effect, Layer, Schema } from "effect"
import {
  type Currency,
  type IdGenerator,
  type InvalidState,
  type LocalDate,
  type NotFound,
  type ValidationFailed,
  decodeInputEffect,
  isCountryCode,
  today,
  withNewId
} from "@paykit/core"
import { canTransition, PAYOUT_STATUSES, paymentMachine, payoutMachine } from "@paykit/machines"
import { BankReferencePrefix, type PayoutFx, assembleDecodedPartnerPayout, assembleDecodedPayout, renderExchangeRate, renderPayoutFx } from "@paykit/money"
import { BankGateway } from "../kernel/ports/bank-gateway.ts"
import { EventLog } from "../kernel/ports/event-log.ts"
import { eq, oneOf, type Page } from "../kernel/ports/list-query.ts"
import { Transactor, type Versioned } from "../kernel/ports/repository.ts"
import { AppFeeLedgerRepository, LedgerRepository, PayoutRepository } from "./repositories.ts"
import { CreditorBankAccountRepository, CreditorRepository } from "../creditors/repositories.ts"
import { PaymentRepository } from "../collections/repositories.ts"
import type { AppFeeLedgerEntry } from "./domain/app-fees.ts"
import type { Creditor, CreditorLinks } from "../creditors/domain/creditors.ts"
import type { Payout } from "./domain/payouts.ts"
import type { LedgerEntry } from "./domain/settlement-entries.ts"
import { idFilter, listFields, toListQuery } from "../kernel/list-params.ts"
import { sandboxRate } from "./sandbox-fx.ts"
import { applyCreation, applyTransition, save, captureUnitOfWork } from "../kernel/support.ts"
import { captureDailyItems, idOfVersioned } from "../kernel/daily-items.ts"
import { PayoutUpdateRequest } from "../kernel/metadata-requests.ts"

const ROOT = "payouts"

export const PayoutListParams = Schema.Struct({
  ...listFields("payout"),
  creditor: idFilter("creditor"),
  creditor_bank_account: idFilter("creditor_bank_account"),
  currency: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(Schema.Literals(PAYOUT_STATUSES)),
  reference: Schema.optionalKey(Schema.String),
  payout_type: Schema.optionalKey(Schema.Literals(["merchant", "partner"]))
})

const payoutLinks = (p: Payout) => ({ payout: p.id, creditor: p.links.creditor })
const payoutAccountOf = (creditor: Creditor, currency: Currency): string | null =>
  creditor.links[`default_${currency.toLowerCase()}_payout_account` as keyof CreditorLinks]

type Errors = ValidationFailed | InvalidState | NotFound

/** A payout's fields when it is not exchanged. */
const NO_FX: PayoutFx = { fx_currency: null, fx_amount: null, exchange_rate: null, estimated_exchange_rate: null }

/** A new payout of an assembly (merchant or partner), without the status its machine gives it. */
const newPayout = (
  assembly: { readonly amount: number; readonly deducted_fees: number; readonly reference: string; readonly tax_currency: Payout["tax_currency"] },
  fields: Pick<Payout, "currency" | "payout_type" | "fx" | "links">
) =>
  withNewId("payout", (id, created_at): Effect.Effect<Omit<Payout, "status">> =>
    Effect.succeed({
      id,
      created_at,
      amount: assembly.amount,
      deducted_fees: assembly.deducted_fees,
      currency: fields.currency,
      reference: assembly.reference,
      payout_type: fields.payout_type,
      arrival_date: null,
      fx: fields.fx,
      tax_currency: assembly.tax_currency,
      metadata: {},
      links: fields.links
    }))

export class Payouts extends Context.Service<Payouts, {
  readonly get: (organisation: string, id: string) => Effect.Effect<Payout, NotFound>
  readonly list: (organisation: string, params: unknown) => Effect.Effect<Page<Payout>, ValidationFailed>
  /** PUT /payouts/:id: only `metadata` is accepted. */
  readonly update: (organisation: string, id: string, input: unknown) => Effect.Effect<Payout, Errors>
  /** A bounced payout is sent again: pending once more, paid (or bounced) on the next bank day. */
  readonly retry: (organisation: string, id: string) => Effect.Effect<Payout, Errors>
  /**
   * The day's payouts, in this order: pending payouts made earlier are sent (an exchanged one
   * first has its rate confirmed, `fx_rate_confirmed`) and come back paid or bounced; then each
   * verified creditor's settled movements from earlier days are assembled by @paykit/money into
   * one payout per currency, and the payments in it are marked paid out.
   */
  readonly processDay: (organisation: string) => Effect.Effect<void>
  /**
   * The day's partner payouts (`payout_type: "partner"`), for an organisation that is a partner
   * app: its app fees credited (and debited, on reversals) on earlier days are assembled by
   * @paykit/money's `assemblePartnerPayout` into one payout per partner creditor and currency,
   * dated today. They are sent like merchant payouts, by the next `processDay`.
   */
  readonly processPartnerDay: (organisation: string) => Effect.Effect<void>
}>()("@paykit/engine/Payouts") {
  static readonly layer: Layer.Layer<
    Payouts,
    never,
    | PayoutRepository
    | LedgerRepository
    | AppFeeLedgerRepository
    | PaymentRepository
    | CreditorRepository
    | CreditorBankAccountRepository
    | BankGateway
    | IdGenerator
    | EventLog
    | Transactor
  > = Layer.effect(
    Payouts,
    Effect.gen(function*() {
      const payouts = yield* PayoutRepository
      const ledger = yield* LedgerRepository
      const appFees = yield* AppFeeLedgerRepository
      const payments = yield* PaymentRepository
      const creditors = yield* CreditorRepository
      const accounts = yield* CreditorBankAccountRepository
      const bank = yield* BankGateway
      const log = yield* EventLog
      const run = yield* captureUnitOfWork
      const eachItem = yield* captureDailyItems

      const decodeList = decodeInputEffect(PayoutListParams, ROOT)
      const decodeUpdate = decodeInputEffect(PayoutUpdateRequest, ROOT)

      /** Stores a new payout as its machine creates it: pending, with no event (the real API sends none). */
      const createPending = (organisation: string, payout: Omit<Payout, "status">) =>
        Effect.orDie(applyCreation(payouts, {
          organisation,
          machine: payoutMachine,
          state: "pending",
          resource: payout,
          cause: { origin: "gocardless", cause: "payout_created" },
          links: { payout: payout.id, creditor: payout.links.creditor }
        }))

      const fxConfirmed = (organisation: string, id: string) =>
        Effect.map(log.scan(organisation, { payout: eq(id), action: eq("fx_rate_confirmed") }), (es) => es.length > 0)

      const update = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeUpdate(input)
          const current = yield* payouts.get(organisation, id)
          const next: Payout = { ...current.resource, metadata: req.metadata }
          yield* save(payouts, organisation, current, next)
          return next
        })

      const retry = (organisation: string, id: string) =>
        Effect.gen(function*() {
          const current = yield* payouts.get(organisation, id)
          return yield* applyTransition(payouts, {
            organisation,
            machine: payoutMachine,
            current,
            event: "retry",
            context: { exchanged: current.resource.fx.fx_currency !== null, fx_rate_confirmed: false },
            cause: { origin: "api", cause: "payout_retried", description: "The payout was retried at your request." },
            links: payoutLinks(current.resource)
          })
        })

      const send = (organisation: string, initial: Versioned<Payout>) =>
        Effect.gen(function*() {
          let current = initial
          const p = current.resource
          const exchanged = p.fx.fx_currency !== null
          let confirmed = yield* fxConfirmed(organisation, p.id)
          const creditor = yield* Effect.orDie(creditors.get(organisation, p.links.creditor))
          const attempts = yield* log.scan(organisation, { payout: eq(p.id), action: eq("retried") })
          const outcome = yield* bank.sendPayout({ payoutId: p.id, amount: p.amount, currency: p.currency, creditorName: creditor.resource.name, attempt: attempts.length })
          if (outcome.outcome === "bounced") {
            return yield* applyTransition(payouts, {
              organisation, machine: payoutMachine, current, event: "bounce",
              context: { exchanged, fx_rate_confirmed: confirmed },
              cause: { origin: "bank", cause: outcome.cause, description: outcome.description },
              links: payoutLinks(p),
              extra: { reason_code: outcome.reason_code }
            })
          }
          let fx: PayoutFx = p.fx
          if (exchanged && p.fx.fx_currency !== null && !confirmed) {
            const rate = sandboxRate(p.currency, p.fx.fx_currency)
            if (rate === undefined) return yield* Effect.die(new Error(`no sandbox rate ${p.currency}/${p.fx.fx_currency}`))
            fx = yield* Effect.orDie(Effect.fromResult(renderPayoutFx(p.currency, p.amount, { kind: "confirmed", fx_currency: p.fx.fx_currency, exchange_rate: renderExchangeRate(rate) })))
            const rateFixed = fx
            yield* applyTransition(payouts, {
              organisation, machine: payoutMachine, current, event: "confirm_fx_rate",
              context: { exchanged, fx_rate_confirmed: false },
              cause: { origin: "gocardless", cause: "fx_rate_confirmed", description: "The exchange rate for the payout has been confirmed." },
              links: payoutLinks(p),
              patch: (x) => ({ ...x, fx: rateFixed })
            })
            confirmed = true
            current = yield* Effect.orDie(payouts.get(organisation, p.id))
          }
          const day = yield* today()
          return yield* applyTransition(payouts, {
            organisation, machine: payoutMachine, current, event: "pay",
            context: { exchanged, fx_rate_confirmed: confirmed },
            cause: { origin: "gocardless", cause: "payout_paid", description: "The payout has been paid." },
            links: payoutLinks(p),
            patch: (x) => ({ ...x, arrival_date: day })
          })
        })

      /** One payout from a creditor's unsettled movements in one currency, if they add up to more than zero. */
      const assemble = (organisation: string, creditor: Creditor, currency: Currency, rows: ReadonlyArray<Versioned<LedgerEntry>>) =>
        Effect.gen(function*() {
          const account = payoutAccountOf(creditor, currency)
          if (account === null) return
          const bankAccount = yield* Effect.orDie(accounts.get(organisation, account))
          if (bankAccount.resource.verification_status !== "successful") return
          const previous = yield* payouts.scan(organisation, { creditor: eq(creditor.id) })
          const assembly = yield* Effect.orDie(Effect.fromResult(assembleDecodedPayout({
            creditor: {
              id: creditor.id,
              bank_reference_prefix: yield* Effect.orDie(Schema.decodeUnknownEffect(BankReferencePrefix)(creditor.bank_reference_prefix)),
              country_code: isCountryCode(creditor.country_code) ? creditor.country_code : null
            },
            currency,
            reference_sequence: previous.length + 1,
            fees_invoiced: false,
            entries: rows.map((r) => r.resource.entry)
          })))
          // A zero or negative balance is carried to the next payout (the spec's negative balance).
          if (assembly.amount <= 0) return
          const fxCurrency = creditor.fx_payout_currency !== null && creditor.fx_payout_currency !== currency ? creditor.fx_payout_currency : null
          const estimate = fxCurrency === null ? undefined : sandboxRate(currency, fxCurrency)
          const { resource: payout } = yield* createPending(organisation, yield* newPayout(assembly, {
            currency,
            payout_type: "merchant",
            fx: fxCurrency === null || estimate === undefined
              ? NO_FX
              : { fx_currency: fxCurrency, fx_amount: null, exchange_rate: null, estimated_exchange_rate: renderExchangeRate(estimate) },
            links: { creditor: creditor.id, creditor_bank_account: account }
          }))
          for (const row of rows) {
            yield* save(ledger, organisation, row, { ...row.resource, payout: payout.id })
            const entry = row.resource.entry
            if (!("payment" in entry)) continue
            const payment = yield* Effect.orDie(payments.get(organisation, entry.payment))
            const mandate = payment.resource.links.mandate
            const links = { payment: entry.payment, ...(mandate === undefined ? {} : { mandate }), creditor: creditor.id, payout: payout.id }
            const event = entry.kind === "payment_paid_out" ? "pay_out" : entry.kind === "late_failure_settled" ? "settle_late_failure" : entry.kind === "chargeback_settled" ? "settle_chargeback" : undefined
            // A collection reversed before its payout (a late failure of a confirmed payment) is
            // settled by its reversal row in the same payout; its status stays where the bank put it.
            if (event === undefined || !canTransition(paymentMachine, payment.resource.status, event, {}, payout.created_at)) continue
            yield* applyTransition(payments, {
              organisation, machine: paymentMachine, current: payment, event, context: {},
              cause: { origin: "gocardless", cause: event === "pay_out" ? "payment_paid_out" : entry.kind, description: event === "pay_out" ? "The payment has been paid out." : "The fees of this payment have been settled in a payout." },
              links,
              ...(event === "pay_out" ? { patch: (x) => ({ ...x, links: { ...x.links, payout: payout.id } }) } : {})
            })
          }
        })

      /** Groups unsettled rows by creditor and currency: one payout each, the group's key its id. */
      const groupRows = <R extends { readonly creditor: string; readonly currency: Currency }>(rows: ReadonlyArray<Versioned<R>>) => {
        const groups = new Map<string, Array<Versioned<R>>>()
        for (const row of rows) {
          const key = `${row.resource.creditor} ${row.resource.currency}`
          groups.set(key, [...(groups.get(key) ?? []), row])
        }
        return [...groups.entries()]
      }

      const assembleGroup = (organisation: string, rows: ReadonlyArray<Versioned<LedgerEntry>>) =>
        Effect.gen(function*() {
          const first = rows[0]
          if (first === undefined) return
          const creditor = yield* Effect.orDie(creditors.get(organisation, first.resource.creditor))
          // Payouts need a verified creditor (spec: successful = can receive payouts).
          if (creditor.resource.verification_status !== "successful") return
          yield* assemble(organisation, creditor.resource, first.resource.currency, rows)
        })

      /** Each payout sent, and each creditor's payout in a currency, is its own unit of work. */
      const processDay = (organisation: string) =>
        Effect.gen(function*() {
          yield* eachItem("payouts: sending", organisation, yield* payouts.scan(organisation, { status: eq("pending") }), idOfVersioned, (pending) =>
            send(organisation, pending))
          const startOfDay = `${yield* today()}T00:00:00.000Z`
          const due = yield* ledger.scan(organisation, { payout: eq("none"), created_at: { op: "range", lt: startOfDay } })
          yield* eachItem("payouts: assembly", organisation, groupRows(due), ([key]) => key, ([, rows]) => assembleGroup(organisation, rows))
        })

      /** The creditor's payout account in `currency`, if it can be paid into (verified). */
      const verifiedPayoutAccount = (organisation: string, creditor: Creditor, currency: Currency) =>
        Effect.gen(function*() {
          const account = payoutAccountOf(creditor, currency)
          if (account === null) return null
          const bankAccount = yield* Effect.orDie(accounts.get(organisation, account))
          return bankAccount.resource.verification_status === "successful" ? account : null
        })

      const assemblePartnerGroup = (organisation: string, rows: ReadonlyArray<Versioned<AppFeeLedgerEntry>>, day: LocalDate) =>
        Effect.gen(function*() {
          const first = rows[0]
          if (first === undefined) return
          const creditor = (yield* Effect.orDie(creditors.get(organisation, first.resource.creditor))).resource
          if (creditor.verification_status !== "successful") return
          const currency = first.resource.currency
          const account = yield* verifiedPayoutAccount(organisation, creditor, currency)
          if (account === null) return
          const previous = yield* payouts.scan(organisation, { creditor: eq(creditor.id) })
          // Fees of any earlier day not yet paid out (a day that netted to zero or less is
          // carried, as a merchant's negative balance is) are paid in today's payout.
          const assembly = yield* Effect.orDie(Effect.fromResult(assembleDecodedPartnerPayout({
            partner: { id: creditor.id, bank_reference_prefix: yield* Effect.orDie(Schema.decodeUnknownEffect(BankReferencePrefix)(creditor.bank_reference_prefix)) },
            currency,
            date: day,
            reference_sequence: previous.length + 1,
            entries: rows.map((r) => ({ ...r.resource.entry, date: day }))
          })))
          if (assembly.amount <= 0) return
          const { resource: payout } = yield* createPending(organisation, yield* newPayout(assembly, {
            currency,
            payout_type: "partner",
            fx: NO_FX,
            links: { creditor: creditor.id, creditor_bank_account: account }
          }))
          for (const row of rows) yield* save(appFees, organisation, row, { ...row.resource, payout: payout.id })
        })

      /** Each partner creditor's payout in a currency is its own unit of work. */
      const processPartnerDay = (organisation: string) =>
        Effect.gen(function*() {
          const day = yield* today()
          const due = yield* appFees.scan(organisation, { payout: eq("none"), created_at: { op: "range", lt: `${day}T00:00:00.000Z` } })
          yield* eachItem("partner payouts", organisation, groupRows(due), ([key]) => key, ([, rows]) => assemblePartnerGroup(organisation, rows, day))
        })

      return Payouts.of({
        get: (o, id) => Effect.map(payouts.get(o, id), (v) => v.resource),
        list: (o, p) =>
          Effect.flatMap(decodeList(p), (params) =>
            payouts.list(o, toListQuery(params, {
              creditor: params.creditor === undefined ? undefined : eq(params.creditor),
              creditor_bank_account: params.creditor_bank_account === undefined ? undefined : eq(params.creditor_bank_account),
              currency: params.currency === undefined ? undefined : eq(params.currency),
              status: params.status === undefined ? undefined : oneOf([params.status]),
              reference: params.reference === undefined ? undefined : eq(params.reference),
              payout_type: params.payout_type === undefined ? undefined : eq(params.payout_type)
            }))),
        update: (o, id, i) => run(update(o, id, i)),
        retry: (o, id) => run(retry(o, id)),
        processDay,
        processPartnerDay
      })
    })
  )
}
