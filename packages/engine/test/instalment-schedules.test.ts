import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addDays, type LocalDate } from "@paykit/core"
import { INSTALMENT_SCHEDULE_STATUSES, type InstalmentScheduleStatus, PAYMENT_STATUSES, type PaymentStatus } from "@paykit/machines"
import { decodeCommand, Events, InstalmentSchedules, Mandates, Payments, REQUEST_BODIES, scheduleEventFor, Simulator } from "@paykit/engine"
import { setUpPayer as setUpPaidPayer } from "@paykit/engine/testing"
import { ORG, runEngine, setUpPayer } from "./fixtures.ts"

const DAY = 86_400_000
const withDates = decodeCommand(REQUEST_BODIES.instalment_schedules.create_with_dates, "instalment_schedules")

describe("a schedule follows its payments", () => {
  // The real API: errored while a payment has failed, completed once every instalment has ended
  // with none failing (a cancelled or denied instalment ends it as a paid-out one does, as long as
  // one was paid out), resumed once the failed one is retried, cancelled with its mandate. Stated
  // over the payments' statuses, independently of the code.
  it("errors on a failure, resumes without one, completes when every instalment has ended unfailed, ends with its mandate", () => {
    const ENDED_UNFAILED: ReadonlyArray<string> = ["paid_out", "cancelled", "customer_approval_denied"]
    fc.assert(fc.property(
      fc.constantFrom(...INSTALMENT_SCHEDULE_STATUSES),
      fc.array(fc.constantFrom(...PAYMENT_STATUSES), { minLength: 1, maxLength: 6 }),
      fc.boolean(),
      (status, payments, chargeable) => {
        const failing = payments.includes("failed") || payments.includes("charged_back")
        const done = payments.every((p) => ENDED_UNFAILED.includes(p)) && payments.includes("paid_out")
        const expected = status === "active"
          ? done ? "complete" : !chargeable ? "cancel" : failing ? "error" : undefined
          : status === "errored"
          ? !chargeable ? "cancel" : failing ? undefined : "resume"
          : undefined
        expect(scheduleEventFor(status, payments, chargeable)).toBe(expected)
      }
    ))
  })

  it("answers these schedules as the real API would (answers written by hand)", () => {
    const cases: ReadonlyArray<readonly [InstalmentScheduleStatus, ReadonlyArray<PaymentStatus>, boolean, string | undefined]> = [
      ["active", ["paid_out", "cancelled", "paid_out"], true, "complete"],
      ["active", ["paid_out", "customer_approval_denied"], true, "complete"],
      ["active", ["paid_out", "cancelled"], false, "complete"],
      ["active", ["paid_out", "paid_out"], true, "complete"],
      ["active", ["cancelled", "cancelled"], true, undefined],
      ["active", ["paid_out", "confirmed"], true, undefined],
      ["active", ["paid_out", "failed"], true, "error"],
      ["active", ["paid_out", "charged_back", "cancelled"], true, "error"],
      ["active", ["paid_out", "charged_back", "cancelled"], false, "cancel"],
      ["active", ["pending_submission"], false, "cancel"],
      ["errored", ["failed", "paid_out"], true, undefined],
      ["errored", ["pending_submission", "paid_out"], true, "resume"],
      ["errored", ["failed"], false, "cancel"],
      ["completed", ["paid_out"], true, undefined],
      ["cancelled", ["cancelled"], false, undefined],
      ["creation_failed", [], true, undefined]
    ]
    for (const [status, payments, chargeable, expected] of cases) {
      expect(scheduleEventFor(status, payments, chargeable), `${status} ${payments.join(",")} ${chargeable}`).toBe(expected)
    }
  })

  it("a schedule with a cancelled instalment completes once the others are paid out", async () => {
    const result = await runEngine(Effect.gen(function*() {
      // A verified creditor, so that its collections are paid out.
      const { mandate } = yield* setUpPaidPayer(ORG, { verifyCreditor: true })
      const earliest = (yield* (yield* Mandates).get(ORG, mandate.id)).next_possible_charge_date as LocalDate
      const command = yield* withDates({
        name: "Three", currency: "GBP", total_amount: 3000, links: { mandate: mandate.id },
        instalments: [1, 2, 3].map((k) => ({ amount: 1000, charge_date: addDays(earliest, 7 * k) }))
      })
      const schedules = yield* InstalmentSchedules
      const schedule = yield* schedules.createWithDates(ORG, command)
      const paymentService = yield* Payments
      yield* paymentService.cancel(ORG, schedule.links.payments[1] ?? "")
      yield* (yield* Simulator).advanceBy(45 * DAY)
      const payments = yield* Effect.forEach(schedule.links.payments, (id) => Effect.map(paymentService.get(ORG, id), (p) => p.status))
      const events = yield* (yield* Events).list(ORG, { instalment_schedule: schedule.id, resource_type: "instalment_schedules", limit: 10 })
      return { payments, status: (yield* schedules.get(ORG, schedule.id)).status, actions: events.items.map((e) => e.action).reverse() }
    }))
    expect(result).toEqual({ payments: ["paid_out", "cancelled", "paid_out"], status: "completed", actions: ["created", "completed"] })
  })

  it("a schedule whose payment fails is errored, and active again (resumed) once the payment is retried", async () => {
    const result = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const earliest = (yield* (yield* Mandates).get(ORG, mandate.id)).next_possible_charge_date as LocalDate
      // An amount ending in 91 fails at the sandbox bank (insufficient funds).
      const command = yield* withDates({
        name: "Two", currency: "GBP", total_amount: 2091, links: { mandate: mandate.id },
        instalments: [{ amount: 1000, charge_date: addDays(earliest, 7) }, { amount: 1091, charge_date: addDays(earliest, 7) }]
      })
      const schedules = yield* InstalmentSchedules
      const schedule = yield* schedules.createWithDates(ORG, command)
      const simulator = yield* Simulator
      yield* simulator.advanceBy(20 * DAY)
      const errored = yield* schedules.get(ORG, schedule.id)
      yield* (yield* Payments).retry(ORG, schedule.links.payments[1] ?? "", { charge_date: addDays(earliest, 30) })
      yield* simulator.advanceBy(DAY)
      const resumed = yield* schedules.get(ORG, schedule.id)
      const events = yield* (yield* Events).list(ORG, { instalment_schedule: schedule.id, resource_type: "instalment_schedules", limit: 10 })
      return { errored: errored.status, resumed: resumed.status, actions: events.items.map((e) => e.action).reverse() }
    }))
    expect(result).toEqual({ errored: "errored", resumed: "active", actions: ["created", "errored", "resumed"] })
  })

  it("a schedule whose mandate is cancelled is cancelled by the next daily run, its payments with the mandate", async () => {
    const result = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const earliest = (yield* (yield* Mandates).get(ORG, mandate.id)).next_possible_charge_date as LocalDate
      const command = yield* withDates({
        name: "One", currency: "GBP", total_amount: 1000, links: { mandate: mandate.id },
        instalments: [{ amount: 1000, charge_date: addDays(earliest, 20) }]
      })
      const schedules = yield* InstalmentSchedules
      const schedule = yield* schedules.createWithDates(ORG, command)
      yield* (yield* Mandates).cancel(ORG, mandate.id)
      yield* (yield* Simulator).advanceBy(DAY)
      const payment = yield* (yield* Payments).get(ORG, schedule.links.payments[0] ?? "")
      const events = yield* (yield* Events).list(ORG, { instalment_schedule: schedule.id, resource_type: "instalment_schedules", limit: 10 })
      return {
        status: (yield* schedules.get(ORG, schedule.id)).status,
        payment: payment.status,
        causes: events.items.map((e) => [e.action, e.details.cause]).reverse()
      }
    }))
    expect(result).toEqual({
      status: "cancelled",
      payment: "cancelled",
      causes: [["created", "instalment_schedule_created"], ["cancelled", "mandate_cancelled"]]
    })
  })
})
