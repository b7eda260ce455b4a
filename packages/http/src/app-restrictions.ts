/**
 * The endpoints a partner app's token may not call (spec, "Restricted endpoints for OAuth apps"):
 * some always, some unless the app's payment pages are approved as scheme-rules compliant. One
 * table, keyed by the route's method and declared path, read once when the routes are built; the
 * list of refused routes in `docs/oauth.md` is rendered from it (`appRestrictionsDoc`).
 *
 * The spec names customer, customer bank account and mandate creation; the rule behind it is that
 * an app without approved payment pages may not take a payer's details and set up their mandate
 * itself, so every route that makes a customer, a bank account or a mandate from what the caller
 * sends falls under it: the payer's details given to a billing request, its fulfilment, payer
 * authorisations, mandate imports, a redirect flow's completion and a bank authorisation made
 * outside the hosted pages. The hosted pages (no token) stay the app's way to collect a payer.
 */

export const APP_RESTRICTIONS = ["always", "unless_payment_pages_approved"] as const
export type AppRestriction = (typeof APP_RESTRICTIONS)[number]

/** Why a route is restricted: the one line `docs/oauth.md` shows for its group of routes. */
const WHY = {
  creditor: "the organisation's own setup: creditors and where its money is paid",
  merchantAct: "the merchant's own act: authorising money out, reading a payer's bank details in full",
  payerRecords: "makes a customer, a customer bank account or a mandate from what the caller sends"
} as const

interface Restricted {
  readonly method: string
  readonly path: string
  readonly restriction: AppRestriction
  readonly why: keyof typeof WHY
}

const row = (method: string, path: string, restriction: AppRestriction, why: keyof typeof WHY): Restricted => ({ method, path, restriction, why })
const always = (method: string, path: string, why: keyof typeof WHY) => row(method, path, "always", why)
const payerRecords = (method: string, path: string) => row(method, path, "unless_payment_pages_approved", "payerRecords")

/** `*` rows cover every method and every path below theirs (all creditor bank account endpoints). */
export const APP_RESTRICTED_ROUTES: ReadonlyArray<Restricted> = [
  always("POST", "/creditors", "creditor"),
  always("PUT", "/creditors/:id", "creditor"),
  always("*", "/creditor_bank_accounts", "creditor"),
  // Authorising an import sends its payments: the dashboard user's act (the spec's import flow).
  always("POST", "/sandbox/outbound_payment_imports/:id/actions/authorise", "merchantAct"),
  // GoCardless's bank details access: the merchant uploads its public key in its dashboard and
  // reads the details itself; nothing grants it to a partner integration.
  always("*", "/public_keys", "merchantAct"),
  always("GET", "/bank_account_details/:id", "merchantAct"),
  always("GET", "/transferred_mandates/:id", "merchantAct"),
  payerRecords("POST", "/customers"),
  payerRecords("POST", "/customer_bank_accounts"),
  payerRecords("POST", "/mandates"),
  payerRecords("POST", "/mandates/:id/actions/reinstate"),
  payerRecords("POST", "/billing_requests/create_with_actions"),
  payerRecords("POST", "/billing_requests/:id/actions/collect_customer_details"),
  payerRecords("POST", "/billing_requests/:id/actions/collect_bank_account"),
  payerRecords("POST", "/billing_requests/:id/actions/confirm_payer_details"),
  payerRecords("POST", "/billing_requests/:id/actions/fulfil"),
  payerRecords("POST", "/bank_authorisations"),
  payerRecords("POST", "/payer_authorisations/:id/actions/submit"),
  payerRecords("POST", "/payer_authorisations/:id/actions/confirm"),
  payerRecords("POST", "/mandate_imports"),
  payerRecords("POST", "/mandate_imports/:id/actions/submit"),
  payerRecords("POST", "/mandate_import_entries"),
  payerRecords("POST", "/redirect_flows/:id/actions/complete")
]

const covers = (r: Restricted, method: string, path: string): boolean =>
  r.method === "*" ? path === r.path || path.startsWith(`${r.path}/`) : r.method === method && r.path === path

/** The restriction of a route. */
export const appRestrictionOf = (method: string, path: string): AppRestriction | undefined =>
  APP_RESTRICTED_ROUTES.find((r) => covers(r, method, path))?.restriction

/** The reason of the 403 (the spec names none; the API's `Forbidden` type with this reason). */
export const APP_RESTRICTED_REASON = "restricted_for_apps"

const RESTRICTION_TITLES: Record<AppRestriction, string> = {
  always: "Always refused",
  unless_payment_pages_approved: "Refused unless the app's payment pages are approved"
}

/** The refused routes as `docs/oauth.md` lists them, grouped by restriction and reason. */
export const appRestrictionsDoc = (): string =>
  APP_RESTRICTIONS.flatMap((restriction) => {
    const rows = APP_RESTRICTED_ROUTES.filter((r) => r.restriction === restriction)
    const reasons = [...new Set(rows.map((r) => r.why))]
    return [
      `${RESTRICTION_TITLES[restriction]}:`,
      "",
      ...reasons.flatMap((why) => [
        `- ${WHY[why]}:`,
        ...rows.filter((r) => r.why === why).map((r) => r.method === "*" ? `  - \`${r.path}\` and every path below it, any method` : `  - \`${r.method} ${r.path}\``)
      ]),
      ""
    ]
  }).join("\n").trimEnd()
