/**
 * The pages this server serves to people, where the API's URLs lead: one path per page, read by
 * the engine to build a resource's URL and by the HTTP layer to route it. A page's path names the
 * organisation and the resource: pages have no caller, so the path says whose resource it is (the
 * id alone is a capability, as GoCardless's own page links are; neither is a secret).
 */
export const HOSTED_PAGE_PATHS = {
  bankAuthorisation: "/pages/:organisation/bank_authorisations/:id",
  bankAuthorisationComplete: "/pages/:organisation/bank_authorisations/:id/complete",
  bankAuthorisationQrCode: "/pages/:organisation/bank_authorisations/:id/qr.png",
  outboundPaymentImport: "/pages/:organisation/outbound_payment_imports/:id",
  mandatePdf: "/pages/:organisation/mandate_pdfs/:id",
  billingRequestFlow: "/pages/:organisation/billing_request_flows/:id",
  redirectFlow: "/pages/:organisation/redirect_flows/:id",
  redirectFlowConfirmation: "/pages/:organisation/redirect_flows/:id/success",
  billingRequestTemplate: "/pages/:organisation/billing_request_templates/:id",
  institutionIcon: "/institutions/:id/icon.svg",
  institutionLogo: "/institutions/:id/logo.svg",
  creditorLogo: "/pages/:organisation/logos/:id"
} as const

export type HostedPage = keyof typeof HOSTED_PAGE_PATHS

/** The absolute URL of a page: `base` (no trailing slash needed) and the page's path with its parameters. */
export const hostedPageUrl = (base: string, page: HostedPage, params: { readonly organisation?: string; readonly id: string }): string =>
  base.replace(/\/+$/, "") +
  HOSTED_PAGE_PATHS[page].replace(":organisation", encodeURIComponent(params.organisation ?? "")).replace(":id", encodeURIComponent(params.id))
