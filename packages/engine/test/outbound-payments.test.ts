import { Effect, Exit } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { type LocalDate, timestampFromMillis } from "@paykit/core"
import { Customers, OUTBOUND_PAYMENT_APPROVAL_WINDOW_DAYS, OutboundPayments, PaymentAccounts } from "@paykit/engine"
import {
  ORG,
  START,
  START_DAY,
  actionsOf,
  createOutbound,
  dayAfter,
  fundAccount,
  listOutbound,
  runOutbound,
  setUpCreditor,
  setUpRecipient
} from "./outbound-fixtures.ts"

const failureJson = <A, E>(exit: Exit.Exit<A, E>): string => (Exit.isFailure(exit) ? JSON.stringify(exit.cause) : "")

const balanceOf = (creditor: string) =>
  Effect.flatMap(PaymentAccounts, (accounts) =>
    Effect.map(accounts.list(ORG, { creditor }), (page) => page.items[0]?.account_balance))

describe("outbound payments", () => {
  it("create -> verified -> approved -> executed on its execution date, with one event per status change", async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const outbound = yield* OutboundPayments
      const creditor = yield* setUpCreditor(ORG, { verified: false })
      const recipient = yield* setUpRecipient(ORG)
      yield* fundAccount(ORG, { amount: 10_000, links: { creditor: creditor.id } })
      const created = yield* outbound.create(ORG, {
        amount: 2_500,
        scheme: "faster_payments",
        execution_date: dayAfter(2),
        reference: "INV 42",
        metadata: { invoice: "42" },
        links: { recipient_bank_account: recipient.id }
      })
      const approved = yield* outbound.approve(ORG, created.id)
      const afterApproval = yield* balanceOf(creditor.id)
      const early = yield* outbound.executeDue(ORG, dayAfter(1))
      const onDate = yield* outbound.executeDue(ORG, dayAfter(2))
      const final = yield* outbound.get(ORG, created.id)
      return {
        creditor,
        recipient,
        created,
        approved,
        afterApproval,
        early,
        onDate,
        final,
        balance: yield* balanceOf(creditor.id),
        actions: yield* actionsOf(ORG, "outbound_payment", created.id)
      }
    }))
    expect(r.created.status).toBe("pending_approval")
    expect(r.created.links).toEqual({ creditor: r.creditor.id, recipient_bank_account: r.recipient.id, customer: r.recipient.links.customer })
    expect(r.created.verifications).toEqual({
      recipient_bank_account_holder_verification: { type: "confirmation_of_payee", result: "full_match", actual_account_name: null }
    })
    expect(r.created).toMatchObject({ currency: "GBP", scheme: "faster_payments", is_withdrawal: false, reference: "INV 42", metadata: { invoice: "42" } })
    expect(r.approved.status).toBe("scheduled")
    expect(r.afterApproval).toBe(7_500)
    expect(r.early).toEqual([])
    expect(r.onDate.map((p) => p.status)).toEqual(["executed"])
    expect(r.final.status).toBe("executed")
    expect(r.balance).toBe(7_500)
    expect(r.actions).toEqual(["created", "set_to_pending_approval", "approved", "set_to_executing", "executed"])
  })

  it("sends a payment without an execution date on the next run after approval", async () => {
    const status = await runOutbound(Effect.gen(function*() {
      const outbound = yield* OutboundPayments
      const creditor = yield* setUpCreditor(ORG, { verified: false })
      const recipient = yield* setUpRecipient(ORG)
      yield* fundAccount(ORG, { amount: 500, links: { creditor: creditor.id } })
      const p = yield* outbound.create(ORG, { amount: 500, scheme: "faster_payments", links: { recipient_bank_account: recipient.id } })
      yield* outbound.approve(ORG, p.id)
      yield* outbound.executeDue(ORG, START_DAY)
      return (yield* outbound.get(ORG, p.id)).status
    }))
    expect(status).toBe("executed")
  })

  it("shows the name the bank holds only on a partial match", async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const outbound = yield* OutboundPayments
      yield* setUpCreditor(ORG, { verified: false })
      const partial = yield* setUpRecipient(ORG, "Partial Bob Smith")
      const none = yield* setUpRecipient(ORG, "No Match Holdings")
      const unable = yield* setUpRecipient(ORG, "Unable Corp")
      const make = (account: string) => outbound.create(ORG, { amount: 100, scheme: "faster_payments", links: { recipient_bank_account: account } })
      return [yield* make(partial.id), yield* make(none.id), yield* make(unable.id)].map((p) => p.verifications?.recipient_bank_account_holder_verification)
    }))
    expect(r).toEqual([
      { type: "confirmation_of_payee", result: "partial_match", actual_account_name: "BOB SMITH" },
      { type: "confirmation_of_payee", result: "no_match", actual_account_name: null },
      { type: "confirmation_of_payee", result: "unable_to_match", actual_account_name: null }
    ])
  })

  it("refuses an approval the payment account cannot cover, leaving no trace", async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const outbound = yield* OutboundPayments
      const creditor = yield* setUpCreditor(ORG, { verified: false })
      const recipient = yield* setUpRecipient(ORG)
      yield* fundAccount(ORG, { amount: 999, links: { creditor: creditor.id } })
      const p = yield* outbound.create(ORG, { amount: 1_000, scheme: "faster_payments", links: { recipient_bank_account: recipient.id } })
      const exit = yield* Effect.exit(outbound.approve(ORG, p.id))
      return {
        exit,
        status: (yield* outbound.get(ORG, p.id)).status,
        balance: yield* balanceOf(creditor.id),
        actions: yield* actionsOf(ORG, "outbound_payment", p.id)
      }
    }))
    expect(failureJson(r.exit)).toContain("insufficient_balance")
    expect(r.status).toBe("pending_approval")
    expect(r.balance).toBe(999)
    expect(r.actions).toEqual(["created", "set_to_pending_approval"])
  })

  it("releases the reservation when a scheduled payment is cancelled", async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const outbound = yield* OutboundPayments
      const creditor = yield* setUpCreditor(ORG, { verified: false })
      const recipient = yield* setUpRecipient(ORG)
      yield* fundAccount(ORG, { amount: 3_000, links: { creditor: creditor.id } })
      const p = yield* outbound.create(ORG, { amount: 1_200, scheme: "faster_payments", execution_date: dayAfter(5), links: { recipient_bank_account: recipient.id } })
      yield* outbound.approve(ORG, p.id)
      const reserved = yield* balanceOf(creditor.id)
      const cancelled = yield* outbound.cancel(ORG, p.id, { metadata: { why: "duplicate" } })
      const again = yield* Effect.exit(outbound.cancel(ORG, p.id))
      return { reserved, cancelled, again, balance: yield* balanceOf(creditor.id), actions: yield* actionsOf(ORG, "outbound_payment", p.id) }
    }))
    expect(r.reserved).toBe(1_800)
    expect(r.cancelled.status).toBe("cancelled")
    expect(r.cancelled.metadata).toEqual({ why: "duplicate" })
    expect(r.balance).toBe(3_000)
    expect(failureJson(r.again)).toContain("cancellation_failed")
    expect(r.actions).toEqual(["created", "set_to_pending_approval", "approved", "cancelled"])
  })

  it("fails a payment the sandbox bank rejects and gives the money back", async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const outbound = yield* OutboundPayments
      const creditor = yield* setUpCreditor(ORG, { verified: false })
      const recipient = yield* setUpRecipient(ORG)
      yield* fundAccount(ORG, { amount: 5_000, links: { creditor: creditor.id } })
      // Amounts ending in 91 are rejected by the sandbox bank (docs/engine.md).
      const p = yield* outbound.create(ORG, { amount: 1_291, scheme: "faster_payments", links: { recipient_bank_account: recipient.id } })
      yield* outbound.approve(ORG, p.id)
      const [sent] = yield* outbound.executeDue(ORG, START_DAY)
      return { sent, balance: yield* balanceOf(creditor.id), actions: yield* actionsOf(ORG, "outbound_payment", p.id) }
    }))
    expect(r.sent?.status).toBe("failed")
    expect(r.balance).toBe(5_000)
    expect(r.actions).toEqual(["created", "set_to_pending_approval", "approved", "set_to_executing", "failed"])
  })

  it("refuses a withdrawal for an unverified creditor and sends one to a verified creditor's payout account", async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const outbound = yield* OutboundPayments
      const unverified = yield* setUpCreditor(ORG, { verified: false, name: "Unverified Ltd" })
      const refused = yield* Effect.exit(outbound.withdraw(ORG, { amount: 100, scheme: "faster_payments", links: { creditor: unverified.id } }))
      const verified = yield* setUpCreditor(ORG, { verified: true, name: "Verified Ltd" })
      const withdrawal = yield* outbound.withdraw(ORG, { amount: 100, scheme: "faster_payments", links: { creditor: verified.id } })
      return { refused, verified, withdrawal }
    }))
    expect(failureJson(r.refused)).toContain("creditor_not_verified")
    expect(r.verified.verification_status).toBe("successful")
    expect(r.withdrawal).toMatchObject({
      status: "pending_approval",
      is_withdrawal: true,
      verifications: { recipient_bank_account_holder_verification: null },
      links: { creditor: r.verified.id, recipient_bank_account: r.verified.links.default_gbp_payout_account }
    })
  })

  it("validates the request: past execution dates, unknown recipients, a creditor when there are several", async () => {
    const r = await runOutbound(Effect.gen(function*() {
      yield* setUpCreditor(ORG, { verified: false })
      const recipient = yield* setUpRecipient(ORG)
      const past = yield* Effect.exit(createOutbound(ORG, {
        amount: 100,
        scheme: "faster_payments",
        execution_date: "2026-11-22",
        links: { recipient_bank_account: recipient.id }
      }))
      const unknown = yield* Effect.exit(createOutbound(ORG, { amount: 100, scheme: "faster_payments", links: { recipient_bank_account: "BA000000000000" } }))
      const badScheme = yield* Effect.exit(createOutbound(ORG, { amount: 0, scheme: "bacs", links: { recipient_bank_account: recipient.id } }))
      yield* setUpCreditor(ORG, { verified: false, name: "Second Creditor" })
      const ambiguous = yield* Effect.exit(createOutbound(ORG, { amount: 100, scheme: "faster_payments", links: { recipient_bank_account: recipient.id } }))
      return { past, unknown, badScheme, ambiguous }
    }))
    expect(failureJson(r.past)).toContain("/outbound_payments/execution_date")
    expect(failureJson(r.unknown)).toContain("/outbound_payments/links/recipient_bank_account")
    expect(failureJson(r.badScheme)).toContain("/outbound_payments/scheme")
    expect(failureJson(r.badScheme)).toContain("/outbound_payments/amount")
    expect(failureJson(r.ambiguous)).toContain("/outbound_payments/links/creditor")
  })

  it("refuses a recipient it cannot pay and an import it may not use, and writes nothing", async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const outbound = yield* OutboundPayments
      const customers = yield* Customers
      yield* setUpCreditor(ORG, { verified: false })
      const disabled = yield* setUpRecipient(ORG)
      yield* customers.disableBankAccount(ORG, disabled.id)
      const customer = yield* customers.create(ORG, { given_name: "Erika", family_name: "Mustermann", country_code: "DE" })
      const euro = yield* customers.createBankAccount(ORG, {
        account_holder_name: "Erika Mustermann", iban: "DE89370400440532013000", links: { customer: customer.id }
      })
      const payable = yield* setUpRecipient(ORG)
      const make = (links: Record<string, string>) =>
        Effect.exit(createOutbound(ORG, { amount: 100, scheme: "faster_payments", links }))
      return {
        euroCurrency: euro.currency,
        disabled: yield* make({ recipient_bank_account: disabled.id }),
        euro: yield* make({ recipient_bank_account: euro.id }),
        noImport: yield* make({ recipient_bank_account: payable.id, outbound_payment_import: "IM000000000000" }),
        payments: (yield* outbound.list(ORG, {})).items
      }
    }))
    expect(r.euroCurrency).toBe("EUR")
    expect(failureJson(r.disabled)).toContain("must be an enabled bank account")
    expect(failureJson(r.euro)).toContain("must be a GBP bank account")
    expect(failureJson(r.noImport)).toContain("must be an outbound payment import of this organisation")
    expect(failureJson(r.noImport)).toContain("/outbound_payments/links/outbound_payment_import")
    expect(r.payments).toEqual([])
  })

  it("lists with created_from, created_to and status, and updates metadata", async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const outbound = yield* OutboundPayments
      const creditor = yield* setUpCreditor(ORG, { verified: false })
      const recipient = yield* setUpRecipient(ORG)
      yield* fundAccount(ORG, { amount: 10_000, links: { creditor: creditor.id } })
      const make = () => outbound.create(ORG, { amount: 100, scheme: "faster_payments", links: { recipient_bank_account: recipient.id } })
      const first = yield* make()
      yield* TestClock.setTime(START + 60_000)
      const second = yield* make()
      yield* TestClock.setTime(START + 120_000)
      const third = yield* make()
      yield* outbound.approve(ORG, third.id)
      const updated = yield* outbound.update(ORG, first.id, { metadata: { note: "first" } })
      const ids = (page: { readonly items: ReadonlyArray<{ readonly id: string }> }) => page.items.map((p) => p.id)
      return {
        all: ids(yield* outbound.list(ORG, {})),
        from: ids(yield* outbound.list(ORG, { created_from: new Date(START + 60_000).toISOString() })),
        to: ids(yield* outbound.list(ORG, { created_to: new Date(START + 60_000).toISOString() })),
        scheduled: ids(yield* outbound.list(ORG, { status: "scheduled" })),
        badStatus: yield* Effect.exit(listOutbound(ORG, { status: "paid" })),
        updated,
        ids: [first.id, second.id, third.id]
      }
    }))
    const [first, second, third] = r.ids
    expect(r.all).toEqual([third, second, first])
    expect(r.from).toEqual([third, second])
    expect(r.to).toEqual([second, first])
    expect(r.scheduled).toEqual([third])
    expect(failureJson(r.badStatus)).toContain("status")
    expect(r.updated.metadata).toEqual({ note: "first" })
  })

  it(`cancels payments not approved after their execution date, or ${OUTBOUND_PAYMENT_APPROVAL_WINDOW_DAYS} days after creation without one`, async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const outbound = yield* OutboundPayments
      const creditor = yield* setUpCreditor(ORG, { verified: false })
      const recipient = yield* setUpRecipient(ORG)
      yield* fundAccount(ORG, { amount: 100, links: { creditor: creditor.id } })
      const make = (extra: { readonly execution_date?: LocalDate }) =>
        outbound.create(ORG, { amount: 100, scheme: "faster_payments", links: { recipient_bank_account: recipient.id }, ...extra })
      const dated = yield* make({ execution_date: dayAfter(1) })
      const asap = yield* make({})
      const approved = yield* make({ execution_date: dayAfter(1) })
      yield* outbound.approve(ORG, approved.id)
      const at = (ms: number) => timestampFromMillis(ms)
      // November is GMT: London midnight is UTC midnight.
      const onDate = yield* outbound.expireUnapproved(ORG, at(Date.UTC(2026, 10, 24, 23, 59)))
      const dayAfterDate = yield* outbound.expireUnapproved(ORG, at(Date.UTC(2026, 10, 25, 0, 1)))
      const window = OUTBOUND_PAYMENT_APPROVAL_WINDOW_DAYS * 86_400_000
      const beforeWindow = yield* outbound.expireUnapproved(ORG, at(START + window - 1))
      const atWindow = yield* outbound.expireUnapproved(ORG, at(START + window))
      return {
        ids: { dated: dated.id, asap: asap.id },
        onDate, dayAfterDate, beforeWindow, atWindow,
        approved: (yield* outbound.get(ORG, approved.id)).status,
        balance: yield* balanceOf(creditor.id),
        actions: yield* actionsOf(ORG, "outbound_payment", dated.id)
      }
    }))
    expect(r.onDate).toEqual([])
    expect(r.dayAfterDate.map((p) => [p.id, p.status])).toEqual([[r.ids.dated, "cancelled"]])
    expect(r.beforeWindow).toEqual([])
    expect(r.atWindow.map((p) => [p.id, p.status])).toEqual([[r.ids.asap, "cancelled"]])
    expect(r.approved).toBe("scheduled")
    expect(r.balance).toBe(0)
    expect(r.actions).toEqual(["created", "set_to_pending_approval", "cancelled"])
  })
})
