import { createHash } from "node:crypto"
import { Effect } from "effect"
import { now, type OrganisationId } from "@paykit/core"
import { resolveBankDetails } from "@paykit/validation"
import type { Customers } from "../customers/customers.ts"
import type { Mandate } from "../mandates/domain/mandates.ts"
import type { CustomerBankAccountRepository } from "../customers/repositories.ts"
import type { MandateRepository } from "../mandates/repositories.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { insertNew, save } from "../kernel/support.ts"
import type { MandateTransferRepository } from "./repositories.ts"

/**
 * The sandbox bank's sort code (Barclays' that GoCardless's sandbox documents): a switched account
 * lands there, under a number of its own that passes the Vocalink modulus check.
 */
const SANDBOX_SWITCH_SORT_CODE = "200000"
/** How many numbers are tried: about one in a hundred passes this sort code's check, so far fewer are needed. */
const NUMBER_ATTEMPTS = 5000

/** A valid account number at the sandbox sort code, fixed by the seed (the same switch always lands on the same number). */
export const switchedAccountNumber = (seed: string): string => {
  for (let attempt = 0; attempt < NUMBER_ATTEMPTS; attempt++) {
    const digest = createHash("sha256").update(`${seed}/${attempt}`).digest()
    const candidate = String(digest.readUInt32BE(0) % 100_000_000).padStart(8, "0")
    const resolved = resolveBankDetails({ account_number: candidate, branch_code: SANDBOX_SWITCH_SORT_CODE, country_code: "GB" }, {})
    if (resolved.valid) return candidate
  }
  throw new Error(`no valid account number at ${SANDBOX_SWITCH_SORT_CODE} in ${NUMBER_ATTEMPTS} attempts`)
}

export interface SwitchDeps {
  readonly customers: Customers["Service"]
  readonly accounts: CustomerBankAccountRepository["Service"]
  readonly mandates: MandateRepository["Service"]
  readonly transfers: MandateTransferRepository["Service"]
}

/**
 * A current account switch of the mandate's payer (CASS), as the sandbox makes one: the payer's
 * account moves to a new account at the sandbox bank under the same holder, the mandate follows it
 * (its `links.customer_bank_account`), and the move is recorded for `GET /transferred_mandates/:id`.
 * Answers the links the `transferred` event carries.
 * The old account stays as it was: the switch service, not the payer, closed it.
 */
export const switchAccount = (deps: SwitchDeps, organisation: OrganisationId, mandate: Versioned<Mandate>) =>
  Effect.gen(function*() {
    const previous = mandate.resource.links.customer_bank_account
    const old = (yield* deps.accounts.get(organisation, previous)).resource
    const at = yield* now
    const moved = yield* deps.customers.createBankAccount(organisation, {
      account_holder_name: old.account_holder_name,
      branch_code: SANDBOX_SWITCH_SORT_CODE,
      account_number: switchedAccountNumber(`${organisation}/${mandate.resource.id}/${at}`),
      country_code: "GB",
      links: { customer: old.links.customer }
    })
    yield* save(deps.mandates, organisation, mandate, { ...mandate.resource, links: { ...mandate.resource.links, customer_bank_account: moved.id } })
    const record = { id: mandate.resource.id, created_at: at, customer_bank_account: moved.id, previous_customer_bank_account: previous }
    const earlier = yield* Effect.option(deps.transfers.get(organisation, mandate.resource.id))
    yield* earlier._tag === "Some"
      ? Effect.asVoid(save(deps.transfers, organisation, earlier.value, record))
      : Effect.asVoid(insertNew(deps.transfers, organisation, record))
    // The links of the mandate's `transferred` event, as the real API's.
    return { new_customer_bank_account: moved.id, previous_customer_bank_account: previous }
  })
