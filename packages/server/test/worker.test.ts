import { Clock, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type DueItem, dueDone, DueWorkSchedule, DueWorkStore, dueRetryAt } from "@paykit/engine"
import { MAINTENANCE_KIND, MAINTENANCE_ORGANISATION, nextMaintenanceAt } from "@paykit/store-sql"
import { api, json, startServer, type TestServer } from "./harness.ts"

/**
 * The worker every server process runs: on a live server (real time, no advance), an item due a
 * second or two from now runs by itself at its instant, and an item that asks to run again does.
 */

const ran: Array<{ readonly key: string; readonly at: number; readonly attempt: number }> = []
const probe = {
  pumps: [],
  kinds: [{
    kind: "probe",
    run: (item: DueItem) =>
      Effect.flatMap(Clock.currentTimeMillis, (at) => {
        ran.push({ key: item.key, at, attempt: item.attempt })
        return Effect.succeed(item.key === "retry" && item.attempt === 0 ? dueRetryAt(at + 500) : dueDone)
      })
  }]
}

const until = async (condition: () => boolean, millis: number) => {
  const end = Date.now() + millis
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50))
}

describe("a live server's worker", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ mode: "live", dueWork: [probe], worker: { pollMillis: 50 } })
  }, 60_000)
  afterAll(() => server.close())

  it("has the database's upkeep (ANALYZE) scheduled for its next maintenance hour", async () => {
    const pending = await server.runtime.runPromise(
      Effect.flatMap(DueWorkStore, (store) => store.pendingOf(MAINTENANCE_ORGANISATION, MAINTENANCE_KIND))
    )
    expect(pending.map((item) => item.dueAt)).toEqual([nextMaintenanceAt(Date.now())])
  })

  it("runs an item due 1.5 s from now without any advance, at its instant; a retry runs again", { timeout: 30_000 }, async () => {
    const organisation = server.boot.organisation.id
    const dueAt = Date.now() + 1_500
    await server.runtime.runPromise(Effect.gen(function*() {
      const schedule = yield* DueWorkSchedule
      yield* schedule.schedule({ organisation, kind: "probe", key: "soon", dueAt })
      yield* schedule.schedule({ organisation, kind: "probe", key: "retry", dueAt })
    }))
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(ran).toEqual([])
    await until(() => ran.length >= 3, 10_000)
    const soon = ran.filter((r) => r.key === "soon")
    expect(soon).toHaveLength(1)
    expect(soon[0]?.at).toBeGreaterThanOrEqual(dueAt)
    expect(ran.filter((r) => r.key === "retry").map((r) => r.attempt)).toEqual([0, 1])
    const left = await server.runtime.runPromise(Effect.flatMap(DueWorkStore, (store) => store.pendingOf(organisation, "probe")))
    expect(left).toEqual([])
  })

  it("validates an outbound payment import seconds after its creation, not the next morning", { timeout: 30_000 }, async () => {
    const token = server.boot.accessToken ?? ""
    const idOf = async (path: string, key: string, body: unknown) =>
      String((((await json(await api(server.url, token, path, { method: "POST", body: { [key]: body } })))[key]) as { id: string }).id)
    const payee = await idOf("/customers", "customers", { given_name: "Bob", family_name: "Payee", country_code: "GB" })
    const account = await idOf("/customer_bank_accounts", "customer_bank_accounts", {
      account_holder_name: "Bob Payee", account_number: "55779922", branch_code: "200000", country_code: "GB", links: { customer: payee }
    })
    const created = await api(server.url, token, "/outbound_payment_imports", {
      method: "POST",
      body: { outbound_payment_imports: { entry_items: [{ scheme: "faster_payments", amount: 100, recipient_bank_account_id: account }], links: { creditor: server.boot.creditor } } }
    })
    expect(created.status).toBe(201)
    const body = await json(created)
    const id = String((body["outbound_payment_imports"] as { id: string }).id)
    const statusOf = async () =>
      String(((await json(await api(server.url, token, `/outbound_payment_imports/${id}`)))["outbound_payment_imports"] as { status: string }).status)
    expect(await statusOf()).toBe("validating")
    let status = "validating"
    const end = Date.now() + 15_000
    while (status === "validating" && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      status = await statusOf()
    }
    // Its one entry is checked by the worker within seconds: the import is valid, waiting for authorisation.
    expect(status).toBe("valid")
  })

  it("every organisation has its next daily run, due 06:00 UTC", async () => {
    const pending = await server.runtime.runPromise(Effect.flatMap(DueWorkStore, (store) => store.pendingOf(server.boot.organisation.id, "daily_run")))
    expect(pending).toHaveLength(1)
    expect(new Date(pending[0]?.dueAt ?? 0).toISOString()).toMatch(/T06:00:00\.000Z$/)
  })
})
