import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { type LocalDate, addDays, unsafeLocalDate, OrganisationId } from "@paykit/core"
import {
  Creditors,
  Customers,
  decodeCommand,
  EventLog,
  eq,
  inMemoryEngine,
  OutboundPaymentCreateRequest,
  OutboundPaymentImportCreateRequest,
  OutboundPaymentImports,
  OutboundPaymentListParams,
  OutboundPayments,
  OutboundPaymentWithdrawalRequest,
  PAYMENT_ACCOUNTS,
  PaymentAccountFundRequest,
  PaymentAccounts
} from "@paykit/engine"

export const ORG = OrganisationId("OR00000000000B")

/** Monday 23 November 2026, 09:00 UTC (09:00 in London). */
export const START = Date.UTC(2026, 10, 23, 9, 0, 0)
export const START_DAY: LocalDate = unsafeLocalDate("2026-11-23")
export const dayAfter = (n: number): LocalDate => addDays(START_DAY, n)

export const outboundLayer = (seed = 1) =>
  Layer.mergeAll(inMemoryEngine({ seed }), TestClock.layer())

export type OutboundTestServices = Layer.Success<ReturnType<typeof outboundLayer>>

/** Runs a program on a fresh in-memory engine with the test clock at `START`. */
export const runOutbound = <A, E>(program: Effect.Effect<A, E, OutboundTestServices>, seed = 1): Promise<A> =>
  Effect.runPromise(Effect.provide(Effect.flatMap(TestClock.setTime(START), () => program), outboundLayer(seed)))

/** A GB creditor with a GBP payout account; `verified` completes its verification review. */
export const setUpCreditor = (organisation: OrganisationId, options: { readonly verified: boolean; readonly name?: string }) =>
  Effect.gen(function*() {
    const creditors = yield* Creditors
    const creditor = yield* creditors.create(organisation, { name: options.name ?? "Acme Payroll", country_code: "GB", creditor_type: "company" })
    yield* creditors.createBankAccount(organisation, {
      account_holder_name: "Acme Payroll Ltd",
      account_number: "55779911",
      branch_code: "200000",
      country_code: "GB",
      currency: "GBP",
      links: { creditor: creditor.id }
    })
    if (options.verified) {
      yield* creditors.createVerificationDetail(organisation, {
        name: "Acme Payroll Ltd",
        company_number: "01234567",
        description: "Payroll services",
        address_line1: "1 High Street",
        city: "London",
        postal_code: "EC1A 1AA",
        directors: [{
          given_name: "Grace",
          family_name: "Hopper",
          date_of_birth: unsafeLocalDate("1970-01-01"),
          street: "1 High Street",
          city: "London",
          postal_code: "EC1A 1AA",
          country_code: "GB"
        }],
        links: { creditor: creditor.id }
      })
      yield* creditors.completeReviews(organisation)
    }
    return yield* creditors.get(organisation, creditor.id)
  })

/** A customer and a GB bank account held in `accountHolderName` (which picks the sandbox's answers). */
export const setUpRecipient = (organisation: OrganisationId, accountHolderName = "Ada Lovelace") =>
  Effect.gen(function*() {
    const customers = yield* Customers
    const customer = yield* customers.create(organisation, { given_name: "Ada", family_name: "Lovelace", country_code: "GB" })
    return yield* customers.createBankAccount(organisation, {
      account_holder_name: accountHolderName,
      account_number: "55779911",
      branch_code: "200000",
      country_code: "GB",
      links: { customer: customer.id }
    })
  })

/** The actions of the events of one resource, oldest first. */
export const actionsOf = (organisation: OrganisationId, link: "outbound_payment" | "outbound_payment_import", id: string) =>
  Effect.map(
    Effect.flatMap(EventLog, (log) => log.scan(organisation, { [link]: eq(id) })),
    (events) =>
      events
        .filter((e) => e.resource_type === (link === "outbound_payment" ? "outbound_payments" : "outbound_payment_imports"))
        .map((e) => e.action)
  )

// The HTTP edge's work for the tests that hold raw bodies (invalid ones, or literals whose fields
// are branded): the body is decoded with its operation's Schema, then the typed use case runs.
const decodeCreate = decodeCommand(OutboundPaymentCreateRequest, "outbound_payments")
const decodeWithdrawal = decodeCommand(OutboundPaymentWithdrawalRequest, "outbound_payments")
const decodeList = decodeCommand(OutboundPaymentListParams, "outbound_payments")
const decodeImport = decodeCommand(OutboundPaymentImportCreateRequest, "outbound_payment_imports")
const decodeFund = decodeCommand(PaymentAccountFundRequest, PAYMENT_ACCOUNTS)

/** `POST /outbound_payments` with `body`. */
export const createOutbound = (organisation: OrganisationId, body: unknown) =>
  Effect.flatMap(decodeCreate(body), (command) => Effect.flatMap(OutboundPayments, (o) => o.create(organisation, command)))

/** `POST /outbound_payments/withdrawal` with `body`. */
export const withdrawOutbound = (organisation: OrganisationId, body: unknown) =>
  Effect.flatMap(decodeWithdrawal(body), (command) => Effect.flatMap(OutboundPayments, (o) => o.withdraw(organisation, command)))

/** `GET /outbound_payments` with `query`. */
export const listOutbound = (organisation: OrganisationId, query: unknown) =>
  Effect.flatMap(decodeList(query), (params) => Effect.flatMap(OutboundPayments, (o) => o.list(organisation, params)))

/** `POST /outbound_payment_imports` with `body`. */
export const createImport = (organisation: OrganisationId, body: unknown) =>
  Effect.flatMap(decodeImport(body), (command) => Effect.flatMap(OutboundPaymentImports, (i) => i.create(organisation, command)))

/** `POST /sandbox/payment_accounts/fund` with `body`. */
export const fundAccount = (organisation: OrganisationId, body: unknown) =>
  Effect.flatMap(decodeFund(body), (command) => Effect.flatMap(PaymentAccounts, (a) => a.fund(organisation, command)))
