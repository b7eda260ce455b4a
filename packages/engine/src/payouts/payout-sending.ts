import { Effect } from "effect"
import { type Currency, type LocalDate, today } from "@paykit/core"
import { payoutMachine } from "@paykit/machines"
import { type PayoutFx, renderExchangeRate, renderPayoutFx } from "@paykit/money"
import { type CalendarScheme, calendarFor } from "@paykit/schedule"
import type { BankFailure, BankGateway } from "../kernel/ports/bank-gateway.ts"
import type { EventLog } from "../kernel/ports/event-log.ts"
import { eq } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { applyTransition } from "../kernel/support.ts"
import type { Payout } from "./domain/payouts.ts"
import type { PayoutStores } from "./repositories.ts"
import { sandboxRate } from "./sandbox-fx.ts"

/** The links of a payout's events. */
export const payoutLinks = (p: Payout) => ({ payout: p.id, creditor: p.links.creditor })

/** The ports a payout is sent through: the bank, and the log that remembers its confirmed rate and retries. */
export interface SendingPorts {
  readonly bank: BankGateway["Service"]
  readonly log: EventLog["Service"]
}

/** The confirmed exchange of an exchanged payout at the sandbox's rate (`fx_rate_confirmed`). */
const confirmRate = (stores: PayoutStores, organisation: string, current: Versioned<Payout>, fxCurrency: NonNullable<Payout["fx"]["fx_currency"]>) =>
  Effect.gen(function*() {
    const p = current.resource
    const rate = sandboxRate(p.currency, fxCurrency)
    if (rate === undefined) return yield* Effect.die(new Error(`no sandbox rate ${p.currency}/${fxCurrency}`))
    const fx: PayoutFx = yield* Effect.orDie(Effect.fromResult(
      renderPayoutFx(p.currency, p.amount, { kind: "confirmed", fx_currency: fxCurrency, exchange_rate: renderExchangeRate(rate) })
    ))
    yield* applyTransition(stores.payouts, {
      organisation, machine: payoutMachine, current, event: "confirm_fx_rate",
      context: { exchanged: true, fx_rate_confirmed: false },
      cause: { origin: "gocardless", cause: "fx_rate_confirmed", description: "The exchange rate for the payout has been confirmed." },
      links: payoutLinks(p),
      patch: (x) => ({ ...x, fx })
    })
    return yield* Effect.orDie(stores.payouts.get(organisation, p.id))
  })

/** The creditor's bank returns a payout (pending when sent, or paid before): `bounced`. */
export const bouncePayout = (stores: PayoutStores, organisation: string, current: Versioned<Payout>, failure: BankFailure, rateConfirmed: boolean) =>
  applyTransition(stores.payouts, {
    organisation, machine: payoutMachine, current, event: "bounce",
    context: { exchanged: current.resource.fx.fx_currency !== null, fx_rate_confirmed: rateConfirmed },
    cause: { origin: "bank", cause: failure.cause, description: failure.description },
    links: payoutLinks(current.resource),
    extra: { reason_code: failure.reason_code }
  })

/** The banks' calendar a payout in each currency arrives on: its domestic scheme's. */
const PAYOUT_CALENDARS: Readonly<Record<Currency, CalendarScheme>> = {
  GBP: "bacs", EUR: "sepa_core", USD: "ach", SEK: "autogiro", DKK: "betalingsservice", AUD: "becs", NZD: "becs_nz", CAD: "pad"
}

/** A payout sent on `day` arrives that day if its currency's banks are open, else on their next business day. */
export const payoutArrivalDate = (currency: Currency, day: LocalDate): LocalDate => calendarFor(PAYOUT_CALENDARS[currency]).rollForward(day)

/**
 * A pending payout is sent: the bank bounces it, or it is paid today (an exchanged payout has its
 * rate confirmed first, once).
 */
export const sendPayout = (stores: PayoutStores, ports: SendingPorts, organisation: string, initial: Versioned<Payout>) =>
  Effect.gen(function*() {
    let current = initial
    const p = current.resource
    const exchanged = p.fx.fx_currency !== null
    let confirmed = (yield* ports.log.scan(organisation, { payout: eq(p.id), action: eq("fx_rate_confirmed") })).length > 0
    const creditor = yield* Effect.orDie(stores.creditors.get(organisation, p.links.creditor))
    const attempts = yield* ports.log.scan(organisation, { payout: eq(p.id), action: eq("retried") })
    const outcome = yield* ports.bank.sendPayout({ payoutId: p.id, amount: p.amount, currency: p.currency, creditorName: creditor.resource.name, attempt: attempts.length })
    if (outcome.outcome === "bounced") return yield* bouncePayout(stores, organisation, current, outcome, confirmed)
    if (p.fx.fx_currency !== null && !confirmed) {
      current = yield* confirmRate(stores, organisation, current, p.fx.fx_currency)
      confirmed = true
    }
    const day = yield* today()
    return yield* applyTransition(stores.payouts, {
      organisation, machine: payoutMachine, current, event: "pay",
      context: { exchanged, fx_rate_confirmed: confirmed },
      cause: { origin: "gocardless", cause: "payout_paid", description: "The payout has been paid." },
      links: payoutLinks(p),
      patch: (x) => ({ ...x, arrival_date: payoutArrivalDate(p.currency, day) })
    })
  })
