import { Context } from "effect"
import { createHmac, randomBytes } from "node:crypto"
import { constantTimeEquals } from "./constant-time.ts"

/**
 * The pages this server serves to people, where the API's URLs lead: one path per page, read by
 * the engine to build a resource's URL and by the HTTP layer to route it. The path names the
 * organisation and the resource (pages have no caller); neither id is a secret. A payer's page
 * carries after the id its page key (`pageKeyOf`): its URL is the payer's unguessable capability,
 * as GoCardless's page links are. Images need none; a mandate PDF's link has its own signature; an
 * import's page is the merchant's, possibly on an embedder's dashboard, which cannot know the key.
 */
export const HOSTED_PAGE_PATHS = {
  bankAuthorisation: "/pages/:organisation/bank_authorisations/:id/:key",
  bankAuthorisationComplete: "/pages/:organisation/bank_authorisations/:id/:key/complete",
  bankAuthorisationQrCode: "/pages/:organisation/bank_authorisations/:id/:key/qr.png",
  outboundPaymentImport: "/pages/:organisation/outbound_payment_imports/:id",
  mandatePdf: "/pages/:organisation/mandate_pdfs/:id",
  billingRequestFlow: "/pages/:organisation/billing_request_flows/:id/:key",
  redirectFlow: "/pages/:organisation/redirect_flows/:id/:key",
  redirectFlowConfirmation: "/pages/:organisation/redirect_flows/:id/:key/success",
  billingRequestTemplate: "/pages/:organisation/billing_request_templates/:id/:key",
  institutionIcon: "/institutions/:id/icon.svg",
  institutionLogo: "/institutions/:id/logo.svg",
  creditorLogo: "/pages/:organisation/logos/:id"
} as const

export type HostedPage = keyof typeof HOSTED_PAGE_PATHS

/** The pages whose URL carries the page key. */
export type KeyedPage = { readonly [P in HostedPage]: (typeof HOSTED_PAGE_PATHS)[P] extends `${string}/:key${string}` ? P : never }[HostedPage]

type UnkeyedPage = Exclude<HostedPage, KeyedPage>

/** The key of page keys: the server's (from its secret, so all its processes serve one URL); unset, random per process. */
export const HostedPagesKey = Context.Reference<Uint8Array>("@paykit/engine/HostedPagesKey", { defaultValue: () => randomBytes(32) })

/**
 * A resource's page key: the first 128 bits, base64url, of an HMAC-SHA256 under `key` of its
 * collection (the segment before `:id`), organisation and id, framed as JSON. Every page of one
 * resource (a bank authorisation's page, QR code and outcome) carries the same key.
 */
export const pageKeyOf = (key: Uint8Array, collection: string, organisation: string, id: string): string =>
  createHmac("sha256", key).update(JSON.stringify([collection, organisation, id])).digest().subarray(0, 16).toString("base64url")

/** Whether `given` is the resource's page key, compared in constant time (as text: one spelling per key). */
export const pageKeyHolds = (key: Uint8Array, collection: string, organisation: string, id: string, given: string): boolean =>
  constantTimeEquals(given, pageKeyOf(key, collection, organisation, id))

/** The collection a page path's id belongs to: the segment before `:id` (`bank_authorisations/:id`). */
export const collectionOfPath = (path: string): string => {
  const segments = path.split("/")
  return segments[segments.indexOf(":id") - 1] ?? ""
}

const fill = (path: string, params: Readonly<Record<string, string>>): string =>
  path.replace(/:(organisation|id|key)/g, (_, name: string) => encodeURIComponent(params[name] ?? ""))

/** The absolute URL of a page without a key: `base` (no trailing slash needed) and the page's path with its parameters. */
export const hostedPageUrl = (base: string, page: UnkeyedPage, params: { readonly organisation?: string; readonly id: string }): string =>
  base.replace(/\/+$/, "") + fill(HOSTED_PAGE_PATHS[page], params)

/** The absolute URL of a payer's page: as `hostedPageUrl`, with the resource's page key under `key`. */
export const keyedPageUrl = (base: string, key: Uint8Array, page: KeyedPage, params: { readonly organisation: string; readonly id: string }): string => {
  const path = HOSTED_PAGE_PATHS[page]
  return base.replace(/\/+$/, "") + fill(path, { ...params, key: pageKeyOf(key, collectionOfPath(path), params.organisation, params.id) })
}
