import { Effect } from "effect"
import type { PageRoute } from "../routes.ts"
import { assetPages } from "./assets.ts"
import { bankAuthorisationPages } from "./bank-authorisation-page.ts"
import { billingRequestTemplatePages } from "./billing-request-template-page.ts"
import { flowPages } from "./flow-page.ts"
import { redirectFlowConfirmationPages } from "./redirect-flow-confirmation-page.ts"
import { importPages } from "./import-page.ts"
import { mandatePdfPages } from "./mandate-pdf-page.ts"
import { pageServices } from "./page-services.ts"

/**
 * The pages for people (docs/pages.md): where the URLs the API hands out lead. They are routes of
 * the API's dispatcher answered without the gateway, bound once to the engine's services.
 */
export const hostedPages: Effect.Effect<ReadonlyArray<PageRoute>, never, Effect.Services<typeof pageServices>> = Effect.map(pageServices, (services) => [
  ...bankAuthorisationPages(services),
  ...importPages(services),
  ...mandatePdfPages(services),
  ...flowPages(services),
  ...redirectFlowConfirmationPages(services),
  ...billingRequestTemplatePages(services),
  ...assetPages(services)
])

export { escapeHtml, html, Html } from "./html.ts"
export { LANGUAGES, MESSAGES, pickLanguage } from "./i18n.ts"
export { CSRF_FIELD, type CsrfSigner, csrfSignerFrom, hostedPagesKeyLayer, makeCsrfSigner, PageSigningSecret } from "./csrf.ts"
export { mandatePdfLinksFrom, type MandatePdfLinks } from "./mandate-pdf-links.ts"
export { SandboxBankPage } from "./page-services.ts"
export { DEFAULT_THEME, layout } from "./layout.ts"
export { formFields, page as htmlPage, redirect as seeOther } from "./page-kit.ts"
