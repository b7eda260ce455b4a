import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { CreditorBankAccountListParams, Creditors, decodeCommand, Events } from "@paykit/engine"
import { ORG, runEngine } from "./fixtures.ts"

const gbpAccount = (creditor: string, account_number: string) => ({
  account_holder_name: "Acme Gym Ltd",
  account_number,
  branch_code: "200000",
  country_code: "GB",
  currency: "GBP",
  links: { creditor }
}) as const

describe("creditor bank accounts: list and disable", () => {
  it("lists by creditor and enabled; disabling unlinks the default payout account and records one event per disabling, none for a repeat", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const creditors = yield* Creditors
      const events = yield* Events
      const acme = yield* creditors.create(ORG, { name: "Acme", country_code: "GB", creditor_type: "company" })
      const other = yield* creditors.create(ORG, { name: "Other", country_code: "GB", creditor_type: "company" })
      const first = yield* creditors.createBankAccount(ORG, gbpAccount(acme.id, "55779911"))
      const second = yield* creditors.createBankAccount(ORG, gbpAccount(acme.id, "55779911"))
      yield* creditors.createBankAccount(ORG, gbpAccount(other.id, "55779911"))
      const disabled = yield* creditors.disableBankAccount(ORG, first.id)
      const again = yield* creditors.disableBankAccount(ORG, first.id)
      const disabledSecond = yield* creditors.disableBankAccount(ORG, second.id)
      return {
        first, second, disabled, again, disabledSecond,
        ofAcme: yield* creditors.listBankAccounts(ORG, { creditor: acme.id }),
        enabled: yield* creditors.listBankAccounts(ORG, { enabled: "true" }),
        owner: yield* creditors.get(ORG, acme.id),
        badFilter: yield* Effect.flip(decodeCommand(CreditorBankAccountListParams, "creditor_bank_accounts")({ enabled: "yes" })),
        missing: yield* Effect.flip(creditors.disableBankAccount(ORG, "BA000000000000")),
        logged: yield* events.list(ORG, { resource_type: "creditor_bank_accounts" })
      }
    }))
    expect(r.ofAcme.items.map((a) => a.id).sort()).toEqual([r.first.id, r.second.id].sort())
    expect(r.enabled.items.every((a) => a.enabled)).toBe(true)
    expect(r.enabled.items.map((a) => a.links.creditor)).not.toContain(r.owner.id)
    expect([r.disabled.enabled, r.again]).toEqual([false, r.disabled])
    // The first account became the default (the creditor had none) and stopped being it when
    // disabled; the second never was the default, so nothing takes its place.
    expect(r.owner.links.default_gbp_payout_account).toBeNull()
    expect(r.badFilter._tag).toBe("ValidationFailed")
    expect(r.missing._tag).toBe("NotFound")
    expect(r.logged.items.map((e) => [e.action, e.links["creditor_bank_account"]]).sort()).toEqual(
      [["disabled", r.first.id], ["disabled", r.second.id]].sort()
    )
  })
})
