import { ID_PREFIXES, type IdPrefix, type IdResource, isIdOf } from "@paykit/core"
import { EVENT_LINK_KEYS, scenariosFor as catalogueScenariosFor } from "@paykit/engine"

/**
 * What the dashboard knows of the API's resources beyond its route table: the collections its
 * menu lists (the issue's), which event filter names a resource, which scenarios apply to it, and
 * which collection an id belongs to. Everything else (whether a list or a read exists, the
 * fields, the filters) is the API's.
 */

/** The menu's collections, in the order a merchant follows money (payout items are reached from a payout). */
export const MENU_COLLECTIONS: ReadonlyArray<string> = [
  "customers", "mandates", "payments", "subscriptions", "instalment_schedules", "refunds", "payouts", "billing_requests",
  "outbound_payments", "outbound_payment_imports", "events", "creditors", "bank_submissions", "bank_reports"
]

/** `payments` -> `payment`: the singular the API's links and filters use. */
export const singularOf = (collection: string): string => collection.endsWith("s") ? collection.slice(0, -1) : collection

/** `instalment_schedules` -> `Instalment schedules`. */
export const titleOf = (collection: string): string => {
  const words = collection.replaceAll("_", " ")
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`
}

/** The `/events` filter naming a resource of `collection` (`payment=PM…`), if events link it. */
export const eventFilterOf = (collection: string): string | undefined => {
  const singular = singularOf(collection)
  return EVENT_LINK_KEYS.find((key) => key === singular)
}

/** The scenarios that take a resource of `collection` in `status` (those that name no status apply in any). */
export const scenariosFor = (collection: string, status: unknown): ReadonlyArray<string> =>
  catalogueScenariosFor({ collection, status: typeof status === "string" ? status : undefined }).apply

/**
 * The collections an id may belong to, by its prefix (an id's body has a fixed length, so `BA`
 * never takes a `BAHV` id); a prefix several collections share (`BA`, `IM`) names each.
 */
export const collectionsOfId = (id: string): ReadonlyArray<string> =>
  (Object.entries(ID_PREFIXES) as Array<[IdResource, IdPrefix]>).filter(([, prefix]) => isIdOf(prefix, id)).map(([resource]) => `${resource}s`)
