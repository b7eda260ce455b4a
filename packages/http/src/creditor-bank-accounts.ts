import { Context, Effect, Layer, Schema } from "effect"
import { decodeInputEffect, type InvalidState, type NotFound, type ValidationFailed } from "@paykit/core"
import {
  type Creditor,
  type CreditorBankAccount,
  CreditorBankAccountRepository,
  type CreditorLinks,
  CreditorRepository,
  Creditors,
  eq,
  ListParams,
  type Page,
  PageFields,
  save,
  toListQuery,
  Transactor
} from "@paykit/engine"

/**
 * Creditor bank accounts as the API serves them. Creation and reads are the engine's `Creditors`
 * service; the engine's service has no list or disable yet, so those two are built here over the
 * engine's own repository, list-query and save helpers, in one unit of work each, the way the
 * engine's services build theirs. They belong in `Creditors` and move there when it grows them.
 */

/** `GET /creditor_bank_accounts` parameters (the real API's: `creditor`, `enabled`, `created_at`). */
export const CreditorBankAccountListParams = Schema.Struct({
  ...PageFields,
  created_at: ListParams.fields.created_at,
  creditor: Schema.optionalKey(Schema.String),
  enabled: Schema.optionalKey(Schema.Literals(["true", "false"]))
})

const KEY = "creditor_bank_accounts"

const payoutLinkKey = (currency: string): keyof CreditorLinks =>
  `default_${currency.toLowerCase()}_payout_account` as keyof CreditorLinks

export class CreditorBankAccounts extends Context.Service<CreditorBankAccounts, {
  readonly create: (organisation: string, input: unknown) => Effect.Effect<CreditorBankAccount, ValidationFailed | InvalidState | NotFound>
  readonly get: (organisation: string, id: string) => Effect.Effect<CreditorBankAccount, NotFound>
  readonly list: (organisation: string, params: unknown) => Effect.Effect<Page<CreditorBankAccount>, ValidationFailed>
  /**
   * Disables an account for good (a new account is created to use the details again). An account
   * that is its creditor's default payout account in its currency stops being the default, so no
   * payout is sent to a disabled account; payouts wait until another default is set. Disabling a
   * disabled account answers it unchanged.
   */
  readonly disable: (organisation: string, id: string) => Effect.Effect<CreditorBankAccount, NotFound | InvalidState>
}>()("@paykit/http/CreditorBankAccounts") {
  static readonly layer: Layer.Layer<CreditorBankAccounts, never, Creditors | CreditorRepository | CreditorBankAccountRepository | Transactor> =
    Layer.effect(
      CreditorBankAccounts,
      Effect.gen(function*() {
        const service = yield* Creditors
        const creditors = yield* CreditorRepository
        const accounts = yield* CreditorBankAccountRepository
        const transactor = yield* Transactor
        const decodeList = decodeInputEffect(CreditorBankAccountListParams, KEY)

        const disable = (organisation: string, id: string) =>
          Effect.gen(function*() {
            const current = yield* accounts.get(organisation, id)
            if (!current.resource.enabled) return current.resource
            const next: CreditorBankAccount = { ...current.resource, enabled: false }
            yield* save(accounts, organisation, current, next)
            const owner = yield* Effect.orDie(creditors.get(organisation, next.links.creditor))
            const link = payoutLinkKey(next.currency)
            if (owner.resource.links[link] === id) {
              const unlinked: Creditor = { ...owner.resource, links: { ...owner.resource.links, [link]: null } }
              yield* save(creditors, organisation, owner, unlinked)
            }
            return next
          })

        return CreditorBankAccounts.of({
          create: service.createBankAccount,
          get: service.getBankAccount,
          list: (o, p) =>
            Effect.flatMap(decodeList(p), (params) =>
              accounts.list(o, toListQuery(params, {
                creditor: params.creditor === undefined ? undefined : eq(params.creditor),
                enabled: params.enabled === undefined ? undefined : eq(params.enabled)
              }))),
          disable: (o, id) => transactor.transaction(disable(o, id))
        })
      })
    )
}
