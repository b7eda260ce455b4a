import { Effect } from "effect"
import { type Currency, invalidField, newId, now } from "@paykit/core"
import { creditorBankAccountVerificationMachine, creditorVerificationMachine } from "@paykit/machines"
import type { Versioned } from "../kernel/ports/repository.ts"
import { accepts, API_CAUSE, applyCreation, applyTransition, emit, save } from "../kernel/support.ts"
import type { CreditorBankAccount } from "./domain/creditor-bank-accounts.ts"
import { type Creditor, payoutLinkKey } from "./domain/creditors.ts"
import { CREDITOR_BANK_ACCOUNTS_ROOT, type CreditorBankAccountCreateCommand } from "./domain/requests.ts"
import type { CreditorStores } from "./repositories.ts"

const endingOf = (digits: string, currency: Currency): string => digits.slice(currency === "NZD" ? -4 : -2)

/**
 * Makes `account` the creditor's default payout account in its currency. A verified creditor is
 * reviewed again (spec: verification may be required again after a payout bank account change);
 * one not yet verified stays as it is.
 */
const makeDefaultPayoutAccount = (stores: CreditorStores, organisation: string, creditor: Versioned<Creditor>, account: CreditorBankAccount) =>
  Effect.gen(function*() {
    const relink = (c: Creditor): Creditor => ({ ...c, links: { ...c.links, [payoutLinkKey(account.currency)]: account.id } })
    const event = "change_payout_account"
    if (!accepts(creditorVerificationMachine, creditor.resource.verification_status, event, {}, yield* now)) {
      return yield* save(stores.creditors, organisation, creditor, relink(creditor.resource))
    }
    return yield* applyTransition(stores.creditors, {
      organisation,
      machine: creditorVerificationMachine,
      current: creditor,
      event,
      context: {},
      cause: API_CAUSE("creditor_bank_account_created"),
      patch: relink,
      links: { creditor: creditor.resource.id }
    })
  })

/**
 * `POST /creditor_bank_accounts`: the account is made in review (its verification machine's
 * `in_review`: its details come with it, and it needs its own review whoever its creditor is); it
 * becomes the creditor's default payout account in its currency when asked to, or when the
 * creditor has none in it.
 */
export const createBankAccount = (stores: CreditorStores, organisation: string, command: CreditorBankAccountCreateCommand) =>
  Effect.gen(function*() {
    const creditor = yield* stores.creditors.get(organisation, command.links.creditor)
    const digits = command.iban !== undefined ? command.iban.replace(/\D/g, "") : command.account_number
    if (digits === undefined) {
      return yield* invalidField(CREDITOR_BANK_ACCOUNTS_ROOT, ["account_number"], "is required unless an iban is given")
    }
    const id = yield* newId("creditor_bank_account")
    const stored = yield* applyCreation(stores.accounts, {
      organisation,
      machine: creditorBankAccountVerificationMachine,
      state: "in_review",
      resource: {
        id,
        created_at: yield* now,
        account_holder_name: command.account_holder_name,
        account_number_ending: endingOf(digits, command.currency),
        account_type: command.account_type ?? null,
        bank_name: null,
        country_code: command.country_code,
        currency: command.currency,
        enabled: true,
        metadata: command.metadata ?? {},
        links: { creditor: creditor.resource.id }
      },
      cause: API_CAUSE("creditor_bank_account_created"),
      links: { creditor: creditor.resource.id, creditor_bank_account: id }
    }).pipe(Effect.orDie)
    const account = stored.resource
    if (command.set_as_default_payout_account === true || creditor.resource.links[payoutLinkKey(command.currency)] === null) {
      yield* makeDefaultPayoutAccount(stores, organisation, creditor, account)
    }
    return account
  })

/**
 * Disables an account for good. An account that is its creditor's default payout account in its
 * currency stops being the default, so no payout is sent to a disabled account.
 */
export const disableBankAccount = (stores: CreditorStores, organisation: string, id: string) =>
  Effect.gen(function*() {
    const current = yield* stores.accounts.get(organisation, id)
    if (!current.resource.enabled) return current.resource
    const next: CreditorBankAccount = { ...current.resource, enabled: false }
    yield* save(stores.accounts, organisation, current, next)
    // An account's creditor exists for as long as the account: a missing one is a storage defect.
    const owner = yield* Effect.orDie(stores.creditors.get(organisation, next.links.creditor))
    const link = payoutLinkKey(next.currency)
    if (owner.resource.links[link] === id) {
      const unlinked: Creditor = { ...owner.resource, links: { ...owner.resource.links, [link]: null } }
      yield* save(stores.creditors, organisation, owner, unlinked)
    }
    yield* emit(organisation, {
      resource_type: "creditor_bank_accounts",
      action: "disabled",
      links: { creditor: next.links.creditor, creditor_bank_account: id },
      cause: API_CAUSE("creditor_bank_account_disabled")
    })
    return next
  })
