import fc from "fast-check"
import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { timestampFromMillis } from "@paykit/core"
import { type Machine, outboundPaymentImportMachine, outboundPaymentMachine } from "@paykit/machines"
import {
  EventLog,
  type OutboundPayment,
  OutboundPaymentImports,
  OutboundPayments,
  PaymentAccounts,
  RESERVED_OUTBOUND_STATUSES,
  oneOf
} from "@paykit/engine"
import { ORG, START, dayAfter, fundAccount, runOutbound, setUpCreditor, setUpRecipient } from "./outbound-fixtures.ts"

/** What a user, the bank's daily run or the dashboard can do, chosen by fast-check. */
type Command =
  | { readonly kind: "fund"; readonly amount: number }
  | { readonly kind: "create"; readonly amount: number; readonly recipient: number; readonly executionIn: number | null }
  | { readonly kind: "withdraw"; readonly amount: number }
  | { readonly kind: "approve"; readonly pick: number }
  | { readonly kind: "cancel"; readonly pick: number }
  | { readonly kind: "execute"; readonly day: number }
  | { readonly kind: "expire"; readonly day: number }
  | { readonly kind: "import"; readonly amounts: ReadonlyArray<number>; readonly recipient: number; readonly authorise: boolean }

const amount = fc.integer({ min: 1, max: 4_000 })
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant("fund" as const), amount }),
  fc.record({
    kind: fc.constant("create" as const),
    amount,
    recipient: fc.integer({ min: 0, max: 3 }),
    executionIn: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null })
  }),
  fc.record({ kind: fc.constant("withdraw" as const), amount }),
  fc.record({ kind: fc.constant("approve" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("approve" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("execute" as const), day: fc.integer({ min: 0, max: 6 }) }),
  fc.record({ kind: fc.constant("expire" as const), day: fc.integer({ min: 0, max: 9 }) }),
  fc.record({
    kind: fc.constant("import" as const),
    amounts: fc.array(amount, { minLength: 1, maxLength: 3 }),
    recipient: fc.integer({ min: 0, max: 4 }),
    authorise: fc.boolean()
  })
)

/**
 * Replays a resource's event actions through its machine from the creation state: every action
 * must be the one the table emits for a transition out of the state reached so far. Returns the
 * state reached, or a description of the first action the machine does not allow.
 */
const walk = <S extends string, E extends string, C>(
  machine: Machine<S, E, C>,
  initial: S,
  actions: ReadonlyArray<string>
): S | string => {
  if (actions[0] !== machine.created) return `first action ${actions[0]} is not ${machine.created}`
  let state = initial
  for (const action of actions.slice(1)) {
    const targets = new Set(machine.transitions.filter((r) => r.from.includes(state) && r.emits === action).map((r) => r.to))
    const [to] = [...targets]
    if (targets.size !== 1 || to === undefined) return `action ${action} is not allowed from ${state}`
    state = to
  }
  return state
}

const runCommands = (commands: ReadonlyArray<Command>) =>
  runOutbound(Effect.gen(function*() {
    const outbound = yield* OutboundPayments
    const imports = yield* OutboundPaymentImports
    const accounts = yield* PaymentAccounts
    const creditor = yield* setUpCreditor(ORG, { verified: true })
    // The sandbox bank rejects payments to holders whose name contains "fail".
    const recipients = [
      yield* setUpRecipient(ORG, "Ada Lovelace"),
      yield* setUpRecipient(ORG, "Will Fail"),
      yield* setUpRecipient(ORG, "Partial Bob Smith")
    ].map((a) => a.id)
    const recipientOf = (i: number) => recipients[i] ?? "BA0000000000ZZ"
    const created: Array<string> = []
    let funded = 0
    const violations: Array<string> = []

    const checkBalance = (after: Command) =>
      Effect.gen(function*() {
        const all = yield* outbound.list(ORG, { limit: 500 })
        const executed = all.items.filter((p) => p.status === "executed").reduce((s, p) => s + p.amount, 0)
        const reserved = all.items.filter((p) => RESERVED_OUTBOUND_STATUSES.includes(p.status)).reduce((s, p) => s + p.amount, 0)
        const balance = (yield* accounts.list(ORG, { creditor: creditor.id })).items[0]?.account_balance ?? 0
        if (balance !== funded - executed - reserved || balance < 0) {
          violations.push(`after ${JSON.stringify(after)}: balance ${balance}, funded ${funded}, executed ${executed}, reserved ${reserved}`)
        }
      })

    for (const c of commands) {
      switch (c.kind) {
        case "fund":
          yield* fundAccount(ORG, { amount: c.amount, links: { creditor: creditor.id } })
          funded += c.amount
          break
        case "create": {
          const p = yield* Effect.option(outbound.create(ORG, {
            amount: c.amount,
            scheme: "faster_payments",
            ...(c.executionIn === null ? {} : { execution_date: dayAfter(c.executionIn) }),
            links: { creditor: creditor.id, recipient_bank_account: recipientOf(c.recipient) }
          }))
          if (p._tag === "Some") created.push(p.value.id)
          break
        }
        case "withdraw": {
          const p = yield* outbound.withdraw(ORG, { amount: c.amount, scheme: "faster_payments", links: { creditor: creditor.id } })
          created.push(p.id)
          break
        }
        case "approve":
        case "cancel": {
          const id = created[c.pick % Math.max(1, created.length)]
          if (id === undefined) break
          yield* Effect.exit(c.kind === "approve" ? outbound.approve(ORG, id) : outbound.cancel(ORG, id))
          break
        }
        case "execute":
          yield* outbound.executeDue(ORG, dayAfter(c.day))
          break
        case "expire":
          yield* outbound.expireUnapproved(ORG, timestampFromMillis(START + c.day * 86_400_000))
          break
        case "import": {
          const made = yield* Effect.exit(imports.create(ORG, {
            entry_items: c.amounts.map((a) => ({ scheme: "faster_payments", amount: a, recipient_bank_account_id: recipientOf(c.recipient) }))
          }))
          // An entry naming no bank account of the organisation is refused with the import, at once.
          const known = recipients[c.recipient] !== undefined
          if (Exit.isSuccess(made) !== known) violations.push(`import to ${recipientOf(c.recipient)} ${Exit.isSuccess(made) ? "accepted" : "refused"}`)
          if (Exit.isFailure(made)) break
          yield* imports.validatePending(ORG)
          if (c.authorise) yield* Effect.exit(imports.authorise(ORG, made.value.id, "dashboard.user@example.com"))
          break
        }
      }
      yield* checkBalance(c)
    }

    const log = yield* EventLog
    const events = yield* log.scan(ORG, { resource_type: oneOf(["outbound_payments", "outbound_payment_imports"]) })
    const payments: ReadonlyArray<OutboundPayment> = (yield* outbound.list(ORG, { limit: 500 })).items
    const walks: Array<string> = []
    for (const p of payments) {
      const actions = events.filter((e) => e.resource_type === "outbound_payments" && e.links.outbound_payment === p.id).map((e) => e.action)
      const reached = walk(outboundPaymentMachine, "verifying", actions)
      if (reached !== p.status) walks.push(`${p.id}: events ${actions.join(",")} give ${reached}, stored ${p.status}`)
    }
    for (const i of (yield* imports.list(ORG, { limit: 500 })).items) {
      const actions = events.filter((e) => e.resource_type === "outbound_payment_imports" && e.links.outbound_payment_import === i.id).map((e) => e.action)
      const reached = walk(outboundPaymentImportMachine, "created", actions)
      if (reached !== i.status) walks.push(`${i.id}: events ${actions.join(",")} give ${reached}, stored ${i.status}`)
    }
    return { violations, walks, statuses: payments.map((p) => p.status) }
  }))

describe("outbound payments and payment accounts under random operations", () => {
  it("the payment account balance always equals funding minus executed minus reserved, and never goes below zero", async () => {
    await fc.assert(fc.asyncProperty(fc.array(command, { maxLength: 25 }), async (commands) => {
      const { violations } = await runCommands(commands)
      expect(violations).toEqual([])
    }), { numRuns: 40 })
  })

  it("no outbound payment or import is ever in a state its machine forbids, and every status change has exactly one event", async () => {
    await fc.assert(fc.asyncProperty(fc.array(command, { maxLength: 25 }), async (commands) => {
      const { walks, statuses } = await runCommands(commands)
      expect(walks).toEqual([])
      for (const s of statuses) expect(outboundPaymentMachine.states).toContain(s)
    }), { numRuns: 40 })
  })
})
