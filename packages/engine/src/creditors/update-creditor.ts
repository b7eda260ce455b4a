import { Effect } from "effect"
import { invalidField } from "@paykit/core"
import { API_CAUSE, emit, save } from "../kernel/support.ts"
import { type Creditor, type CreditorLinks, payoutLinkKey } from "./domain/creditors.ts"
import { CREDITORS_ROOT, type CreditorUpdateCommand } from "./domain/requests.ts"
import type { CreditorStores } from "./repositories.ts"

/** The links after `requested`: each names a bank account of this creditor in the link's currency. */
const payoutLinksOf = (stores: CreditorStores, organisation: string, creditor: Creditor, requested: CreditorUpdateCommand["links"]) =>
  Effect.gen(function*() {
    const links: { -readonly [K in keyof CreditorLinks]: CreditorLinks[K] } = { ...creditor.links }
    for (const [key, accountId] of Object.entries(requested ?? {})) {
      if (accountId === undefined) continue
      const account = yield* stores.accounts.get(organisation, accountId).pipe(
        Effect.mapError(() => invalidField(CREDITORS_ROOT, ["links", key], "must be a bank account of this creditor"))
      )
      if (account.resource.links.creditor !== creditor.id || payoutLinkKey(account.resource.currency) !== key) {
        return yield* invalidField(CREDITORS_ROOT, ["links", key], "must be an enabled bank account of this creditor in that currency")
      }
      links[payoutLinkKey(account.resource.currency)] = accountId
    }
    return links
  })

/** `PUT /creditors/:id`: the fields given replace the stored ones; payout account links are checked. */
export const updateCreditor = (stores: CreditorStores, organisation: string, id: string, command: CreditorUpdateCommand) =>
  Effect.gen(function*() {
    const current = yield* stores.creditors.get(organisation, id)
    const links = yield* payoutLinksOf(stores, organisation, current.resource, command.links)
    const { links: _links, ...fields } = command
    const next: Creditor = { ...current.resource, ...fields, links }
    yield* save(stores.creditors, organisation, current, next)
    yield* emit(organisation, { resource_type: "creditors", action: "updated", links: { creditor: id }, cause: API_CAUSE("creditor_updated") })
    return next
  })
