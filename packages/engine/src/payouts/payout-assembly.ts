import { Effect, Schema } from "effect"
import { type Currency, isCountryCode, type LocalDate, withNewId } from "@paykit/core"
import { canTransition, paymentMachine, payoutMachine } from "@paykit/machines"
import { assembleDecodedPartnerPayout, assembleDecodedPayout, BankReferencePrefix, type PayoutFx, renderExchangeRate } from "@paykit/money"
import { markScheduleDue } from "../payments/instalment-schedule-checks.ts"
import { eq } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { applyCreation, applyTransition, save } from "../kernel/support.ts"
import type { Creditor } from "../creditors/domain/creditors.ts"
import type { AppFeeLedgerEntry } from "../ledger/domain/app-fees.ts"
import type { Payout } from "./domain/payouts.ts"
import type { LedgerEntry } from "../ledger/domain/settlement-entries.ts"
import type { PayoutStores } from "./repositories.ts"
import { logHeld, payoutHoldOf } from "./payout-holds.ts"
import { merchantTaxInput, sandboxRate } from "./sandbox-fx.ts"

/** A payout's fields when it is not exchanged. */
const NO_FX: PayoutFx = { fx_currency: null, fx_amount: null, exchange_rate: null, estimated_exchange_rate: null }

type Assembly = { readonly amount: number; readonly deducted_fees: number; readonly reference: string; readonly tax_currency: Payout["tax_currency"] }

/**
 * Stores a new payout of an assembly (merchant or partner) as its machine creates it: pending,
 * with no event (the real API sends none).
 */
const createPending = (stores: PayoutStores, organisation: string, assembly: Assembly, fields: Pick<Payout, "currency" | "payout_type" | "fx" | "links">) =>
  withNewId("payout", (id, created_at) =>
    Effect.orDie(applyCreation(stores.payouts, {
      organisation,
      machine: payoutMachine,
      state: "pending",
      resource: {
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
      },
      cause: { origin: "gocardless", cause: "payout_created" },
      links: { payout: id, creditor: fields.links.creditor }
    })))

/**
 * Who a group of one creditor's rows in one currency is paid to: the creditor, its verified payout
 * account in the currency (`payoutHoldOf`'s rule), and the number of its next payout's reference.
 * Undefined (and the hold logged) while the group cannot be paid.
 */
const payeeOf = (stores: PayoutStores, organisation: string, rows: ReadonlyArray<Versioned<{ readonly creditor: string; readonly currency: Currency }>>) =>
  Effect.gen(function*() {
    const first = rows[0]
    if (first === undefined) return undefined
    const creditor = (yield* Effect.orDie(stores.creditors.get(organisation, first.resource.creditor))).resource
    const currency = first.resource.currency
    const payout = yield* payoutHoldOf(stores, organisation, creditor, currency)
    if ("held" in payout) return yield* Effect.as(logHeld(organisation, creditor.id, currency, payout.held), undefined)
    const previous = yield* stores.payouts.scan(organisation, { creditor: eq(creditor.id) })
    return { creditor, currency, account: payout.account, sequence: previous.length + 1 }
  })

const prefixOf = (creditor: Creditor) => Effect.orDie(Schema.decodeUnknownEffect(BankReferencePrefix)(creditor.bank_reference_prefix))

/** The payment event a settled ledger row moves its payment by, if any. */
const paymentEventOf = (kind: LedgerEntry["entry"]["kind"]) =>
  kind === "payment_paid_out" ? "pay_out" as const
    : kind === "late_failure_settled" ? "settle_late_failure" as const
    : kind === "chargeback_settled" ? "settle_chargeback" as const
    : undefined

/** A ledger row is taken by `payout`, and the payment it settles is paid out (or its reversal settled). */
const settleRow = (stores: PayoutStores, organisation: string, payout: Payout, row: Versioned<LedgerEntry>) =>
  Effect.gen(function*() {
    yield* save(stores.ledger, organisation, row, { ...row.resource, payout: payout.id })
    const entry = row.resource.entry
    if (!("payment" in entry)) return
    const payment = yield* Effect.orDie(stores.payments.get(organisation, entry.payment))
    const event = paymentEventOf(entry.kind)
    // A collection reversed before its payout (a late failure of a confirmed payment) is
    // settled by its reversal row in the same payout; its status stays where the bank put it.
    if (event === undefined || !canTransition(paymentMachine, payment.resource.status, event, {}, payout.created_at)) return
    const mandate = payment.resource.links.mandate
    const moved = yield* applyTransition(stores.payments, {
      organisation, machine: paymentMachine, current: payment, event, context: {},
      cause: {
        origin: "gocardless",
        cause: event === "pay_out" ? "payment_paid_out" : entry.kind,
        description: event === "pay_out" ? "The payment has been paid out." : "The fees of this payment have been settled in a payout."
      },
      links: { payment: entry.payment, ...(mandate === undefined ? {} : { mandate }), creditor: payout.links.creditor, payout: payout.id },
      ...(event === "pay_out" ? { patch: (x) => ({ ...x, links: { ...x.links, payout: payout.id } }) } : {})
    })
    if (moved.status !== payment.resource.status) yield* markScheduleDue(stores.scheduleChecks, organisation, moved)
  })

/** The currency a creditor's payout in `currency` is exchanged into, with the sandbox's estimate. */
const fxOf = (creditor: Creditor, currency: Currency): PayoutFx => {
  const fxCurrency = creditor.fx_payout_currency !== null && creditor.fx_payout_currency !== currency ? creditor.fx_payout_currency : null
  const estimate = fxCurrency === null ? undefined : sandboxRate(currency, fxCurrency)
  return fxCurrency === null || estimate === undefined
    ? NO_FX
    : { fx_currency: fxCurrency, fx_amount: null, exchange_rate: null, estimated_exchange_rate: renderExchangeRate(estimate) }
}

/**
 * One merchant payout from a verified creditor's unsettled movements in one currency, if they add
 * up to more than zero and its payout account is verified; the rows are taken and their payments
 * paid out.
 */
export const assembleMerchantPayout = (stores: PayoutStores, organisation: string, rows: ReadonlyArray<Versioned<LedgerEntry>>) =>
  Effect.gen(function*() {
    const payee = yield* payeeOf(stores, organisation, rows)
    if (payee === undefined) return
    const { creditor, currency, account, sequence } = payee
    const assembly = yield* Effect.orDie(Effect.fromResult(assembleDecodedPayout({
      creditor: { id: creditor.id, bank_reference_prefix: yield* prefixOf(creditor), country_code: isCountryCode(creditor.country_code) ? creditor.country_code : null },
      currency,
      reference_sequence: sequence,
      fees_invoiced: false,
      ...merchantTaxInput(creditor.country_code, currency),
      entries: rows.map((r) => r.resource.entry)
    })))
    // A zero or negative balance is carried to the next payout (the spec's negative balance).
    if (assembly.amount <= 0) return
    const { resource: payout } = yield* createPending(stores, organisation, assembly, {
      currency, payout_type: "merchant", fx: fxOf(creditor, currency), links: { creditor: creditor.id, creditor_bank_account: account }
    })
    for (const row of rows) yield* settleRow(stores, organisation, payout, row)
  })

/**
 * One partner payout of a partner creditor's app fees in one currency, dated `day`: fees of any
 * earlier day not yet paid out (a day that netted to zero or less is carried, as a merchant's
 * negative balance is) are paid in today's payout.
 */
export const assemblePartnerPayout = (stores: PayoutStores, organisation: string, rows: ReadonlyArray<Versioned<AppFeeLedgerEntry>>, day: LocalDate) =>
  Effect.gen(function*() {
    const payee = yield* payeeOf(stores, organisation, rows)
    if (payee === undefined) return
    const { creditor, currency, account, sequence } = payee
    const assembly = yield* Effect.orDie(Effect.fromResult(assembleDecodedPartnerPayout({
      partner: { id: creditor.id, bank_reference_prefix: yield* prefixOf(creditor) },
      currency,
      date: day,
      reference_sequence: sequence,
      entries: rows.map((r) => ({ ...r.resource.entry, date: day }))
    })))
    if (assembly.amount <= 0) return
    const { resource: payout } = yield* createPending(stores, organisation, assembly, {
      currency, payout_type: "partner", fx: NO_FX, links: { creditor: creditor.id, creditor_bank_account: account }
    })
    for (const row of rows) yield* save(stores.appFees, organisation, row, { ...row.resource, payout: payout.id })
  })
