import type { OrganisationId } from "@paykit/core"
import { Context, Effect } from "effect"
import {
  BankAuthorisations,
  BillingRequestFlows,
  BillingRequests,
  BillingRequestTemplates,
  Creditors,
  Customers,
  hostedPageUrl,
  HostedPagesKey,
  Institutions,
  Logos,
  MandatePdfs,
  Mandates,
  OutboundPaymentImports,
  PayerThemes,
  RedirectFlows
} from "@paykit/engine"
import type { StorageError } from "@paykit/core"
import { AccessTokens } from "../access-tokens.ts"
import { csrfSignerFrom, PageSigningSecret } from "./csrf.ts"
import { mandatePdfLinksFrom } from "./mandate-pdf-links.ts"
import { type Theme, themeOf } from "./layout.ts"
import { organisationClock } from "./page-kit.ts"

/**
 * Whether the sandbox bank's authorisation page acts: a sandbox server's. On a live server the
 * payer authorises at the real bank, whose page is the bank's; the page answers 403 as the API's
 * `/sandbox/` routes do.
 */
export const SandboxBankPage = Context.Reference<boolean>("@paykit/http/SandboxBankPage", { defaultValue: () => true })

/** The engine services and ports the pages call, taken once when the pages are bound (as the API's routes take theirs). */
export const pageServices = Effect.gen(function*() {
  const payerThemes = yield* PayerThemes
  const logos = yield* Logos
  const creditors = yield* Creditors
  /** The creditor's logo as the header shows it: its page's path, with the time it changed so a replaced one is fetched again. */
  const logoOf = (organisation: OrganisationId, creditor: string) =>
    Effect.flatMap(logos.forCreditor(organisation, creditor), (logo) =>
      logo === null ? Effect.succeed(undefined) : Effect.map(Effect.option(creditors.get(organisation, creditor)), (found) => ({
        src: `${hostedPageUrl("", "creditorLogo", { organisation, id: logo.id })}?v=${encodeURIComponent(logo.updated_at)}`,
        alt: found._tag === "Some" ? found.value.name : ""
      })))
  return {
    billingRequests: yield* BillingRequests,
    bankAuthorisations: yield* BankAuthorisations,
    billingRequestFlows: yield* BillingRequestFlows,
    redirectFlows: yield* RedirectFlows,
    templates: yield* BillingRequestTemplates,
    creditors,
    logos,
    customers: yield* Customers,
    mandates: yield* Mandates,
    institutions: yield* Institutions,
    imports: yield* OutboundPaymentImports,
    tokens: yield* AccessTokens,
    csrf: csrfSignerFrom(yield* PageSigningSecret),
    mandatePdfs: yield* MandatePdfs,
    mandatePdfLinks: mandatePdfLinksFrom(yield* PageSigningSecret),
    sandboxBank: yield* SandboxBankPage,
    onClock: yield* organisationClock,
    /** The key the payer's pages' URLs are checked under, the engine's (`HostedPagesKey`), which makes them. */
    pageKey: yield* HostedPagesKey,
    /** The creditor's payer theme as the layout's colours, and its logo. */
    themeOf: (organisation: OrganisationId, creditor: string): Effect.Effect<Theme, StorageError> =>
      Effect.zipWith(payerThemes.forCreditor(organisation, creditor), logoOf(organisation, creditor), (theme, logo) =>
        logo === undefined ? themeOf(theme) : { ...themeOf(theme), logo })
  }
})

export type PageServices = Effect.Success<typeof pageServices>
