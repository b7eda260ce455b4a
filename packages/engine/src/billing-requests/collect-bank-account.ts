import { Effect } from "effect"
import { fieldError, invalidField, isCountryCode, type OrganisationId, type StorageError, validationFailed } from "@paykit/core"
import { resolveBankDetails, type ResolvedBankAccount } from "@paykit/validation"
import type { CustomerBankAccountCreateRequest } from "../customers/domain/customer-bank-accounts.ts"
import { isEurozone } from "../creditors/scheme-identifiers.ts"
import type { EngineContext } from "../kernel/support.ts"
import type { BillingRequest } from "./domain/billing-requests.ts"
import type { CollectBankAccountCommand } from "./domain/billing-request-commands.ts"
import { checkBillingRequestEvent, stepBillingRequest } from "./billing-request-steps.ts"
import { type BillingRequestDeps, type Errors, ROOT } from "./deps.ts"
import { present } from "./read.ts"

/** The exact message the real API gives when confirmation of payee finds another name. */
export const NAME_MISMATCH_MESSAGE = "Account holder name does not match bank account details provided"

/** The bank account to create for the customer: an IBAN when there is one, else the local details. */
const bankAccountCommand = (
  req: CollectBankAccountCommand,
  resolved: ResolvedBankAccount,
  holder: string,
  customer: string
): CustomerBankAccountCreateRequest => {
  const details = resolved.iban !== null
    ? { iban: resolved.iban }
    : {
      // resolveBankDetails resolves a known country; the guard only narrows its string.
      ...(isCountryCode(resolved.country_code) ? { country_code: resolved.country_code } : {}),
      ...(resolved.account_number === null ? {} : { account_number: resolved.account_number }),
      ...(resolved.branch_code === null ? {} : { branch_code: resolved.branch_code }),
      ...(resolved.bank_code === null ? {} : { bank_code: resolved.bank_code }),
      ...(resolved.account_number_suffix === null ? {} : { account_number_suffix: resolved.account_number_suffix })
    }
  return {
    account_holder_name: holder,
    ...details,
    ...(resolved.currency === null ? {} : { currency: resolved.currency }),
    ...(req.account_type === undefined ? {} : { account_type: req.account_type }),
    ...(req.metadata === undefined ? {} : { metadata: req.metadata }),
    links: { customer }
  }
}

export const collectBankAccount = (
  deps: Pick<BillingRequestDeps, "requests" | "customers" | "details" | "accounts" | "customerService" | "verifier">,
  organisation: OrganisationId,
  id: string,
  req: CollectBankAccountCommand
): Effect.Effect<BillingRequest, Errors | StorageError, EngineContext> =>
  Effect.gen(function*() {
    const current = yield* deps.requests.get(organisation, id)
    const br = current.resource
    yield* checkBillingRequestEvent(br, "collect_bank_account")
    if (req.pay_id !== undefined) return yield* invalidField(ROOT, ["pay_id"], "is not supported by this engine: PayTo PayIDs cannot be collected")
    const resolution = resolveBankDetails(req, { rejectSekIban: true, checkCurrencyAndAccountType: true })
    if (!resolution.valid) return yield* validationFailed(resolution.issues.map((i) => fieldError(ROOT, i.path, i.message)))
    const resolved = resolution.account
    const wanted = br.mandate_request?.currency ?? br.payment_request?.currency
    if (wanted !== undefined && resolved.currency !== null && resolved.currency !== wanted) {
      return yield* invalidField(ROOT, ["currency"], `must be ${wanted}, the currency of this billing request`)
    }
    const holder = req.account_holder_name ?? ""
    // Confirmation of payee runs for UK and eurozone accounts; only a clear mismatch is refused.
    if (resolved.country_code === "GB" || isEurozone(resolved.country_code)) {
      const verification = yield* deps.verifier.verify({
        account_holder_name: holder,
        account_number_ending: resolved.account_number_ending,
        country_code: resolved.country_code
      })
      if (verification.result === "no_match") return yield* invalidField(ROOT, ["account_holder_name"], NAME_MISMATCH_MESSAGE)
    }
    const account = yield* deps.customerService.createBankAccount(organisation, bankAccountCommand(req, resolved, holder, br.links.customer))
    const next = yield* stepBillingRequest(deps.requests, organisation, current, "collect_bank_account",
      { origin: "payer", cause: "billing_request_collect_bank_account", description: "The payer's bank account was collected." },
      { patch: (b) => ({ ...b, links: { ...b.links, customer_bank_account: account.id } }) })
    return yield* present(deps, organisation, next)
  })
