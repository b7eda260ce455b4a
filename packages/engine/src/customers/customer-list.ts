import { Effect } from "effect"
import { InvalidApiUsage, type StorageError } from "@paykit/core"
import { orderOf, rangeFilter, toListQuery } from "../kernel/list-params.ts"
import { eq, matchesFilter, type Page } from "../kernel/ports/list-query.ts"
import { currencyCustomer } from "./domain/customer-bank-accounts.ts"
import { CUSTOMER_SORT_KEYS, type Customer, type CustomerListParams, isRemoved } from "./domain/customers.ts"
import type { CustomerBankAccountRepository, CustomerRepository } from "./repositories.ts"

/**
 * `GET /customers`: never a removed customer; `email`, `created_at`, `sort_field` (`name`,
 * `company_name`, `created_at`) and `sort_direction` on the customers' own keys; `currency` through
 * their bank accounts; `action_required` from what paykit asks of payers, which is nothing once
 * their mandate is set up, so no customer has an action to take.
 */

interface ListDeps {
  readonly customers: CustomerRepository["Service"]
  readonly accounts: CustomerBankAccountRepository["Service"]
}

const EMPTY: Page<Customer> = { items: [], before: null, after: null }

export const listCustomers = (deps: ListDeps, organisation: string, params: CustomerListParams): Effect.Effect<Page<Customer>, InvalidApiUsage | StorageError> => {
  if (params.action_required === "true") return Effect.succeed(EMPTY)
  if (params.currency !== undefined) {
    if (params.sort_field !== undefined || params.sort_direction !== undefined) {
      return Effect.fail(new InvalidApiUsage({ status: 400, reason: "invalid_filters", message: "`currency` lists customers newest first: it cannot be given with `sort_field` or `sort_direction`" }))
    }
    return customersInCurrency(deps, organisation, params.currency, params)
  }
  return deps.customers.list(organisation, toListQuery(params, {
    email: params.email === undefined ? undefined : eq(params.email),
    removed: eq("false")
  }, orderOf(CUSTOMER_SORT_KEYS, params.sort_field, params.sort_direction)))
}

/** How many bank accounts a walk reads at a time. */
const CHUNK = 100

/**
 * The customers with a bank account in `currency`, newest first, paged by customer id: their
 * accounts are read through `currency_customer` (the currency, a space, the customer's id) in that
 * key's order, so a page reads the accounts of the customers it lists and a few more, and each
 * customer once, however many accounts it has.
 */
const customersInCurrency = (deps: ListDeps, organisation: string, currency: string, params: CustomerListParams) =>
  Effect.gen(function*() {
    const limit = params.limit ?? 50
    const backwards = params.before !== undefined && params.after === undefined
    const keeps = (c: Customer) =>
      !isRemoved(c) && (params.email === undefined || c.email === params.email) && matchesCreatedAt(c, params)
    const walk = (from: string | undefined, towardsNewer: boolean, need: number) =>
      walkCustomers(deps, organisation, currency, from, towardsNewer, need, keeps)
    const from = backwards ? params.before : params.after
    const found = yield* walk(from, backwards, limit + 1)
    const items = found.slice(0, limit)
    const nearest = items[0]
    if (nearest === undefined) return EMPTY
    const farthest = items[items.length - 1] ?? nearest
    const beyond = found.length > limit
    const behind = from === undefined ? false : (yield* walk(nearest.id, !backwards, 1)).length > 0
    return backwards
      ? { items: [...items].reverse(), before: beyond ? farthest.id : null, after: behind ? nearest.id : null }
      : { items, before: behind ? nearest.id : null, after: beyond ? farthest.id : null }
  })

/** Up to `need` customers that `keeps` keeps, with an account in `currency`, from beyond the customer id `from`, in id order. */
const walkCustomers = (
  deps: ListDeps,
  organisation: string,
  currency: string,
  from: string | undefined,
  towardsNewer: boolean,
  need: number,
  keeps: (c: Customer) => boolean
) =>
  Effect.gen(function*() {
    // Past `from` towards older customers: keys below "GBP CU…from"; towards newer: above it.
    const lowest = `${currency} `
    const highest = `${currency}!`
    const bound = from === undefined ? undefined : currencyCustomer(currency, from)
    const range = towardsNewer
      ? { op: "range" as const, ...(bound === undefined ? { gte: lowest } : { gt: bound }), lt: highest }
      : { op: "range" as const, gte: lowest, ...(bound === undefined ? { lt: highest } : { lt: bound }) }
    const found: Array<Customer> = []
    const seen = new Set<string>()
    let after: string | undefined
    for (;;) {
      const page = yield* deps.accounts.list(organisation, {
        limit: CHUNK,
        filters: { currency_customer: range },
        order: { key: "currency_customer", direction: towardsNewer ? "asc" : "desc" },
        ...(after === undefined ? {} : { after })
      })
      const ids = [...new Set(page.items.map((a) => a.links.customer))].filter((id) => !seen.has(id))
      for (const id of ids) seen.add(id)
      const customers = new Map((yield* deps.customers.getMany(organisation, ids)).map((row) => [row.resource.id, row.resource]))
      for (const id of ids) {
        const customer = customers.get(id)
        if (customer !== undefined && keeps(customer)) found.push(customer)
        if (found.length >= need) return found
      }
      if (page.after === null) return found
      after = page.after
    }
  })

const matchesCreatedAt = (c: Customer, params: CustomerListParams): boolean =>
  params.created_at === undefined || matchesFilter(c.created_at, rangeFilter(params.created_at))
