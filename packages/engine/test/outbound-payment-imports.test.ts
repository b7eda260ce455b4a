import { Effect, Exit } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { timestampFromMillis, OrganisationId } from "@paykit/core"
import {
  Customers,
  DashboardBaseUrl,
  IMPORT_PROCESSING_CHUNK_SIZE,
  OUTBOUND_PAYMENT_IMPORT_AUTHORISATION_WINDOW_DAYS,
  PaymentAccountRepository,
  OutboundPaymentImports,
  OutboundPayments,
  PaymentAccounts,
  authorisationUrlOf
} from "@paykit/engine"
import {
  ORG,
  START,
  START_DAY,
  actionsOf,
  createImport,
  fundAccount,
  runOutbound,
  setUpCreditor,
  setUpRecipient
} from "./outbound-fixtures.ts"

const failureJson = <A, E>(exit: Exit.Exit<A, E>): string => (Exit.isFailure(exit) ? JSON.stringify(exit.cause) : "")

const entry = (recipient: string, amount: number, extra: Record<string, unknown> = {}) => ({
  scheme: "faster_payments",
  amount,
  recipient_bank_account_id: recipient,
  ...extra
})

const DAY = 86_400_000

describe("outbound payment imports", () => {
  it("authorising moves the payment account's balance once per chunk of entries, not once per entry; the entries the balance cannot cover stay pending", async () => {
    const entries = 2 * IMPORT_PROCESSING_CHUNK_SIZE + 5
    const covered = entries - 3
    const r = await runOutbound(Effect.gen(function*() {
      const imports = yield* OutboundPaymentImports
      const creditor = yield* setUpCreditor(ORG, { verified: true })
      const recipient = yield* setUpRecipient(ORG, "Ada Lovelace")
      yield* fundAccount(ORG, { amount: covered * 10, links: { creditor: creditor.id } })
      const accounts = yield* PaymentAccountRepository
      const accountOf = Effect.map(accounts.scan(ORG, {}), (rows) => rows[0])
      const before = yield* accountOf
      const created = yield* createImport(ORG, { entry_items: Array.from({ length: entries }, () => entry(recipient.id, 10)) })
      yield* imports.validatePending(ORG)
      const processed = yield* imports.authorise(ORG, created.id, "grace@acme.example")
      const payments = yield* (yield* OutboundPayments).list(ORG, { limit: 500 })
      return { before, after: yield* accountOf, processed, statuses: payments.items.map((p) => p.status) }
    }))
    expect(r.processed.status).toBe("processed")
    expect(r.processed.entry_counts.processed).toBe(entries)
    expect(r.after?.resource.account_balance).toBe(0)
    expect(r.statuses.filter((s) => s === "scheduled")).toHaveLength(covered)
    expect(r.statuses.filter((s) => s === "pending_approval")).toHaveLength(entries - covered)
    // Three chunks: three writes of the account row (each a new version), where there were 202, one per payment approved.
    expect((r.after?.version ?? 0) - (r.before?.version ?? 0)).toBe(Math.ceil(entries / IMPORT_PROCESSING_CHUNK_SIZE))
  })

  it("answers validating with an authorisation URL, then turns invalid on a bad entry, with entry counts", async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const imports = yield* OutboundPaymentImports
      const creditor = yield* setUpCreditor(ORG, { verified: false })
      const good = yield* setUpRecipient(ORG, "Ada Lovelace")
      const partial = yield* setUpRecipient(ORG, "Partial Bob Smith")
      // Held by the organisation, so the creation takes it; disabled, so the validation does not.
      const disabled = yield* setUpRecipient(ORG, "Disabled Dan")
      yield* (yield* Customers).disableBankAccount(ORG, disabled.id)
      const created = yield* createImport(ORG, {
        entry_items: [entry(good.id, 1_000, { reference: "JAN PAY" }), entry(disabled.id, 200), entry(partial.id, 300)]
      })
      const [validated] = yield* imports.validatePending(ORG)
      const entries = yield* imports.listEntries(ORG, { outbound_payment_import: created.id })
      const authorise = yield* Effect.exit(imports.authorise(ORG, created.id, "grace@acme.example"))
      return { creditor, created, validated, entries, authorise, actions: yield* actionsOf(ORG, "outbound_payment_import", created.id) }
    }))
    expect(r.created.status).toBe("validating")
    expect(r.created.amount_sum).toBe(1_500)
    expect(r.created.currency).toBe("GBP")
    expect(r.created.links).toEqual({ creditor: r.creditor.id })
    // No base provided: the import page's path on the server itself.
    expect(r.created.authorisation_url).toBe(authorisationUrlOf("", ORG, r.created.id))
    expect(r.created.authorisation_url).toBe(`/pages/${ORG}/outbound_payment_imports/${r.created.id}`)
    expect(r.validated?.status).toBe("invalid")
    expect(r.validated?.entry_counts).toEqual({
      total: 3,
      valid: 2,
      invalid: 1,
      verified: 2,
      verified_with_full_match: 1,
      verified_with_partial_match: 1,
      verified_with_no_match: 0,
      verified_with_unable_to_match: 0,
      processed: 0,
      failed_to_process: 0
    })
    const bad = r.entries.items.find((e) => e.validation_errors !== null)
    expect(bad?.validation_errors).toEqual({ outbound_payment: { recipient_bank_account: ["must be an enabled bank account"] } })
    expect(r.entries.items.map((e) => e.verification_result).sort()).toEqual(["full_match", "partial_match", null].sort())
    expect(failureJson(r.authorise)).toContain("outbound_payment_import_not_authorisable")
    expect(r.actions).toEqual(["created", "validating", "invalid"])
  })

  it("refuses at once an entry naming a bank account the organisation does not hold (another organisation's, or none)", async () => {
    const refused = await runOutbound(Effect.gen(function*() {
      yield* setUpCreditor(ORG, { verified: false })
      const own = yield* setUpRecipient(ORG)
      const foreign = yield* setUpRecipient(OrganisationId("OR00000000000T"))
      return yield* Effect.exit(createImport(ORG, { entry_items: [entry(own.id, 100), entry(foreign.id, 200), entry("BA0000000000ZZ", 300)] }))
    }))
    expect(failureJson(refused)).toContain("ValidationFailed")
    expect(failureJson(refused)).toContain("entry_items/1/recipient_bank_account_id")
    expect(failureJson(refused)).toContain("entry_items/2/recipient_bank_account_id")
    expect(failureJson(refused)).not.toContain("entry_items/0/")
  })

  it("builds the authorisation URL from the dashboard base the application provides", async () => {
    const url = await runOutbound(Effect.gen(function*() {
      yield* setUpCreditor(ORG, { verified: false })
      const a = yield* setUpRecipient(ORG)
      const created = yield* createImport(ORG, { entry_items: [entry(a.id, 100)] })
      return created.authorisation_url.replace(created.id, "<id>")
    }).pipe(Effect.provideService(DashboardBaseUrl, "https://manage.acme.example/")))
    expect(url).toBe(`https://manage.acme.example/pages/${ORG}/outbound_payment_imports/<id>`)
  })

  it("refuses a malformed entry with a pointer to its field", async () => {
    const exit = await runOutbound(Effect.gen(function*() {
      yield* setUpCreditor(ORG, { verified: false })
      const good = yield* setUpRecipient(ORG)
      return yield* Effect.exit(createImport(ORG, {
        entry_items: [entry(good.id, 100), entry(good.id, 0, { reference: "no ~ tildes" }), { amount: 5 }]
      }))
    }))
    const json = failureJson(exit)
    expect(json).toContain("/outbound_payment_imports/entry_items/1/amount")
    expect(json).toContain("/outbound_payment_imports/entry_items/1/reference")
    expect(json).toContain("/outbound_payment_imports/entry_items/2/scheme")
    expect(json).toContain("/outbound_payment_imports/entry_items/2/recipient_bank_account_id")
    const empty = await runOutbound(Effect.gen(function*() {
      yield* setUpCreditor(ORG, { verified: false })
      return yield* Effect.exit(createImport(ORG, { entry_items: [] }))
    }))
    expect(failureJson(empty)).toContain("/outbound_payment_imports/entry_items")
  })

  it("valid import -> authorised -> processed, with one scheduled outbound payment per entry", async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const imports = yield* OutboundPaymentImports
      const outbound = yield* OutboundPayments
      const creditor = yield* setUpCreditor(ORG, { verified: false })
      const a = yield* setUpRecipient(ORG, "Ada Lovelace")
      const b = yield* setUpRecipient(ORG, "Alan Turing")
      const funded = yield* fundAccount(ORG, { amount: 1_000, links: { creditor: creditor.id } })
      const created = yield* createImport(ORG, {
        entry_items: [entry(a.id, 400, { reference: "SALARY", metadata: { employee: "ada" } }), entry(b.id, 500)],
        links: { creditor: creditor.id }
      })
      const [valid] = yield* imports.validatePending(ORG)
      const processed = yield* imports.authorise(ORG, created.id, "grace@acme.example")
      const payments = yield* outbound.list(ORG, {})
      const entries = yield* imports.listEntries(ORG, { outbound_payment_import: created.id })
      const account = yield* (yield* PaymentAccounts).get(ORG, funded.id)
      yield* outbound.executeDue(ORG, START_DAY)
      const afterRun = yield* outbound.list(ORG, { status: "executed" })
      return { created, valid, processed, payments, entries, account, afterRun, actions: yield* actionsOf(ORG, "outbound_payment_import", created.id) }
    }))
    expect(r.valid?.status).toBe("valid")
    expect(r.processed.status).toBe("processed")
    expect(r.processed.entry_counts).toMatchObject({ total: 2, valid: 2, invalid: 0, verified: 2, processed: 2, failed_to_process: 0 })
    expect(r.payments.items).toHaveLength(2)
    for (const p of r.payments.items) {
      expect(p.links.outbound_payment_import).toBe(r.created.id)
      expect(p.status).toBe("scheduled")
    }
    expect(r.payments.items.map((p) => p.amount).sort()).toEqual([400, 500])
    expect(r.payments.items.find((p) => p.amount === 400)).toMatchObject({ reference: "SALARY", metadata: { employee: "ada" } })
    expect(new Set(r.entries.items.map((e) => e.links.outbound_payment))).toEqual(new Set(r.payments.items.map((p) => p.id)))
    expect(r.entries.items.every((e) => e.processed_at !== null)).toBe(true)
    expect(r.account.account_balance).toBe(100)
    expect(r.afterRun.items).toHaveLength(2)
    expect(r.actions).toEqual(["created", "validating", "valid", "processing", "processed"])
  })

  it("leaves a payment the balance cannot cover pending approval when the import is processed", async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const imports = yield* OutboundPaymentImports
      const creditor = yield* setUpCreditor(ORG, { verified: false })
      const a = yield* setUpRecipient(ORG)
      yield* fundAccount(ORG, { amount: 600, links: { creditor: creditor.id } })
      const created = yield* createImport(ORG, { entry_items: [entry(a.id, 400), entry(a.id, 400)] })
      yield* imports.validatePending(ORG)
      const processed = yield* imports.authorise(ORG, created.id, "grace")
      const statuses = (yield* (yield* OutboundPayments).list(ORG, {})).items.map((p) => p.status).sort()
      return { processed, statuses }
    }))
    expect(r.processed.status).toBe("processed")
    expect(r.processed.entry_counts.processed).toBe(2)
    expect(r.statuses).toEqual(["pending_approval", "scheduled"])
  })

  it(`expires an import not authorised within ${OUTBOUND_PAYMENT_IMPORT_AUTHORISATION_WINDOW_DAYS} days`, async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const imports = yield* OutboundPaymentImports
      yield* setUpCreditor(ORG, { verified: false })
      const a = yield* setUpRecipient(ORG)
      const created = yield* createImport(ORG, { entry_items: [entry(a.id, 100)] })
      yield* imports.validatePending(ORG)
      const window = OUTBOUND_PAYMENT_IMPORT_AUTHORISATION_WINDOW_DAYS * DAY
      const early = yield* imports.expireUnauthorised(ORG, timestampFromMillis(START + window - 1))
      yield* TestClock.setTime(START + window)
      const late = yield* imports.expireUnauthorised(ORG, timestampFromMillis(START + window))
      const authorise = yield* Effect.exit(imports.authorise(ORG, created.id, "grace"))
      return { early, late, authorise, actions: yield* actionsOf(ORG, "outbound_payment_import", created.id) }
    }))
    expect(r.early).toEqual([])
    expect(r.late.map((i) => i.status)).toEqual(["cancelled"])
    expect(failureJson(r.authorise)).toContain("outbound_payment_import_not_authorisable")
    expect(r.actions).toEqual(["created", "validating", "valid", "expired"])
  })

  it("cancels an unauthorised import, and lists imports by status", async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const imports = yield* OutboundPaymentImports
      yield* setUpCreditor(ORG, { verified: false })
      const a = yield* setUpRecipient(ORG)
      const first = yield* createImport(ORG, { entry_items: [entry(a.id, 100)] })
      const second = yield* createImport(ORG, { entry_items: [entry(a.id, 200)] })
      const cancelled = yield* imports.cancel(ORG, first.id)
      const again = yield* Effect.exit(imports.cancel(ORG, first.id))
      return {
        cancelled,
        again,
        byStatus: (yield* imports.list(ORG, { status: "cancelled" })).items.map((i) => i.id),
        all: (yield* imports.list(ORG, {})).items.map((i) => i.id),
        ids: [first.id, second.id]
      }
    }))
    expect(r.cancelled.status).toBe("cancelled")
    expect(failureJson(r.again)).toContain("cancellation_failed")
    expect(r.byStatus).toEqual([r.ids[0]])
    expect(r.all).toEqual([r.ids[1], r.ids[0]])
  })
})
