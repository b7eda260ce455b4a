/**
 * fast-check arbitraries for property tests of the state machines (`@paykit/machines/testing`;
 * fast-check is an optional peer): timestamps, causes, billing request facts, and each machine's
 * guard facts (`CASES`, `caseOf`) from which event paths are drawn (`eventPathArb`).
 * docs/property-testing.md shows them at work.
 */
import { fromDayNumber, type Timestamp, timestampFromMillis } from "@paykit/core"
import fc from "fast-check"
import {
  accessTokenMachine,
  type AnyMachine,
  bankAccountHolderVerificationMachine,
  bankAuthorisationMachine,
  billingRequestMachine,
  type BillingRequestContext,
  type BillingRequestFacts,
  buildActions,
  type Cause,
  creditorBankAccountVerificationMachine,
  creditorVerificationMachine,
  instalmentScheduleMachine,
  type Machine,
  mandateImportMachine,
  mandateMachine,
  oauthAppMachine,
  outboundPaymentImportMachine,
  outboundPaymentMachine,
  payerAuthorisationMachine,
  paymentMachine,
  payoutMachine,
  refundMachine,
  schemeIdentifierMachine,
  subscriptionMachine,
  type SubscriptionPauseFacts,
  transition,
  webhookDeliveryMachine
} from "./index.ts"
import type { HistoryEntry } from "./index.ts"

export const BASE_MS = Date.UTC(2026, 10, 21, 9, 0, 0)

export const timestampArb: fc.Arbitrary<Timestamp> = fc
  .integer({ min: 0, max: 2 * 60 * 60 * 1000 })
  .map((d) => timestampFromMillis(BASE_MS + d))

export const localDateArb = fc.integer({ min: 20_400, max: 20_440 }).map(fromDayNumber)

export const causeArb: fc.Arbitrary<Cause> = fc.record({
  origin: fc.constantFrom("bank", "api", "gocardless", "customer", "payer"),
  cause: fc.constantFrom("payment_confirmed", "mandate_cancelled", "insufficient_funds", "api_request")
})

const text = fc.option(fc.constantFrom("x", "Ann", "  "), { nil: null })

export const factsArb: fc.Arbitrary<BillingRequestFacts> = fc.record({
  mandate_request: fc.option(
    fc.record({
      scheme: fc.option(fc.constantFrom("bacs", "sepa_core", "autogiro", "betalingsservice", "ach", "pay_to", "faster_payments"), {
        nil: null
      }),
      currency: fc.option(fc.constantFrom("GBP", "EUR"), { nil: null })
    }),
    { nil: null }
  ),
  payment_request: fc.option(
    fc.record({
      scheme: fc.constantFrom("faster_payments", "sepa_credit_transfer", "sepa_instant_credit_transfer"),
      currency: fc.constantFrom("GBP", "EUR")
    }),
    { nil: null }
  ),
  customer: fc.record({ email: text, given_name: text, family_name: text, company_name: text }, { requiredKeys: [] }),
  customer_billing_detail: fc.record({
    address_line1: text,
    city: text,
    postal_code: text,
    country_code: text,
    swedish_identity_number: text,
    danish_identity_number: text
  }, { requiredKeys: [] }),
  bank_account_present: fc.boolean(),
  institution_selected: fc.boolean()
})

/** Random facts for a machine's guards, so guards both hold and refuse. */
export interface MachineCase {
  readonly machine: AnyMachine
  readonly context: fc.Arbitrary<unknown>
}

const billingRequestContextArb: fc.Arbitrary<BillingRequestContext> = fc
  .tuple(factsArb, fc.boolean(), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }))
  .map(([facts, fallback_enabled, flips]) => ({
    // Random statuses too, so the guards see both ready and unready lists.
    actions: buildActions(facts).map((a, i) => (flips[i] === true ? { ...a, status: "completed" as const } : a)),
    has_payment_request: facts.payment_request !== null,
    fallback_enabled
  }))

/** Any facts a pause request can be judged on. */
export const pauseFactsArb: fc.Arbitrary<SubscriptionPauseFacts> = fc.record({
  has_end_date: fc.boolean(),
  pause_kind: fc.constantFrom("active", "paused_for_cycles", "paused_indefinitely"),
  pause_cycles: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
  has_occurrence_to_pause: fc.boolean(),
  minimum_pause_cycles: fc.integer({ min: 1, max: 6 })
})

const erase = <S extends string, E extends string, C>(m: Machine<S, E, C>): AnyMachine => m

export const CASES: ReadonlyArray<MachineCase> = [
  {
    machine: erase(outboundPaymentMachine),
    context: fc.record({ execution_date: fc.option(localDateArb, { nil: null }), today: localDateArb })
  },
  {
    machine: erase(outboundPaymentImportMachine),
    context: fc.record({
      entry_counts: fc.record({
        valid: fc.nat({ max: 5 }),
        processed: fc.nat({ max: 5 }),
        failed_to_process: fc.nat({ max: 5 })
      })
    })
  },
  { machine: erase(payoutMachine), context: fc.record({ exchanged: fc.boolean(), fx_rate_confirmed: fc.boolean() }) },
  { machine: erase(payerAuthorisationMachine), context: fc.record({ incomplete_field_count: fc.nat({ max: 3 }) }) },
  { machine: erase(subscriptionMachine), context: fc.record({ has_further_payments: fc.boolean(), pause: fc.option(pauseFactsArb, { nil: null }) }) },
  { machine: erase(mandateMachine), context: fc.record({ reinstating: fc.boolean() }) },
  { machine: erase(paymentMachine), context: fc.constant({}) },
  { machine: erase(refundMachine), context: fc.constant({}) },
  {
    machine: erase(bankAuthorisationMachine),
    context: fc.integer({ min: 0, max: 60 * 60 * 1000 }).map((d) => ({ created_at: timestampFromMillis(BASE_MS + d) }))
  },
  { machine: erase(billingRequestMachine), context: billingRequestContextArb },
  { machine: erase(creditorVerificationMachine), context: fc.constant({}) },
  { machine: erase(instalmentScheduleMachine), context: fc.constant({}) },
  { machine: erase(mandateImportMachine), context: fc.constant({}) },
  { machine: erase(webhookDeliveryMachine), context: fc.record({ endpoint_enabled: fc.boolean(), retry_left: fc.boolean() }) },
  { machine: erase(creditorBankAccountVerificationMachine), context: fc.constant({}) },
  { machine: erase(schemeIdentifierMachine), context: fc.constant({}) },
  { machine: erase(bankAccountHolderVerificationMachine), context: fc.constant({}) },
  { machine: erase(accessTokenMachine), context: fc.constant({}) },
  { machine: erase(oauthAppMachine), context: fc.constant({}) }
]

/** The case of one machine (its guard facts): for paths through that machine alone (`eventPathArb(caseOf(paymentMachine))`). */
export const caseOf = <S extends string, E extends string, C>(machine: Machine<S, E, C>): MachineCase => {
  const found = CASES.find((c) => c.machine === erase(machine))
  if (found === undefined) throw new RangeError(`@paykit/machines/testing has no case for the ${machine.name} machine`)
  return found
}

/** A path through a machine: the state it starts in and the history of the moves it accepted, in order. */
export interface EventPath {
  readonly initial: string
  readonly entries: ReadonlyArray<HistoryEntry<string, string>>
}

/**
 * Paths through the machine of `machineCase`: from one of its initial states, up to `maxEvents`
 * random events (with random guard facts, instants and causes), of which the path keeps those the
 * table accepts, each applied where the previous one ended.
 */
export const eventPathArb = (machineCase: MachineCase, maxEvents = 20): fc.Arbitrary<EventPath> =>
  fc.record({
    initial: fc.constantFrom(...machineCase.machine.initial),
    attempts: fc.array(fc.tuple(fc.constantFrom(...machineCase.machine.events), machineCase.context, timestampArb, causeArb), { maxLength: maxEvents })
  }).map(({ initial, attempts }) => {
    const entries: Array<HistoryEntry<string, string>> = []
    let state = initial
    for (const [event, context, at, cause] of attempts) {
      // The case pairs the machine with the arbitrary of its own facts; erasing the machine's type lost the pairing.
      const moved = transition(machineCase.machine, state, event, { context: context as never, at, cause })
      if (moved._tag === "Success") {
        entries.push(moved.success)
        state = moved.success.to
      }
    }
    return { initial, entries }
  })
