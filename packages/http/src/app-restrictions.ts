/**
 * The endpoints a partner app's token may not call (spec, "Restricted endpoints for OAuth apps"):
 * some always, some unless the app's payment pages are approved as scheme-rules compliant. One
 * table, keyed by the route's method and declared path, read once when the routes are built.
 */

export const APP_RESTRICTIONS = ["always", "unless_payment_pages_approved"] as const
export type AppRestriction = (typeof APP_RESTRICTIONS)[number]

const RESTRICTED: ReadonlyArray<readonly [method: string, path: string, restriction: AppRestriction]> = [
  ["POST", "/creditors", "always"],
  ["PUT", "/creditors/:id", "always"],
  ["*", "/creditor_bank_accounts", "always"],
  ["POST", "/customers", "unless_payment_pages_approved"],
  ["POST", "/customer_bank_accounts", "unless_payment_pages_approved"],
  ["POST", "/mandates", "unless_payment_pages_approved"],
  ["POST", "/mandates/:id/actions/reinstate", "unless_payment_pages_approved"]
]

/** The restriction of a route: `*` rows cover every method and every path below theirs (all creditor bank account endpoints). */
export const appRestrictionOf = (method: string, path: string): AppRestriction | undefined =>
  RESTRICTED.find(([m, p]) => m === "*" ? path === p || path.startsWith(`${p}/`) : m === method && p === path)?.[2]

/** The reason of the 403 (the spec names none; the API's `Forbidden` type with this reason). */
export const APP_RESTRICTED_REASON = "restricted_for_apps"
