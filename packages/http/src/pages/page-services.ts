import { Effect } from "effect"
import { BankAuthorisations, BillingRequests, Creditors, Institutions, OutboundPaymentImports, PayerThemes } from "@paykit/engine"
import { AccessTokens } from "../access-tokens.ts"
import { csrfSignerFrom, PageSigningSecret } from "./csrf.ts"
import { type Theme, themeOf } from "./layout.ts"

/** The engine services and ports the pages call, taken once when the pages are bound (as the API's routes take theirs). */
export const pageServices = Effect.gen(function*() {
  const payerThemes = yield* PayerThemes
  return {
    billingRequests: yield* BillingRequests,
    bankAuthorisations: yield* BankAuthorisations,
    creditors: yield* Creditors,
    institutions: yield* Institutions,
    imports: yield* OutboundPaymentImports,
    tokens: yield* AccessTokens,
    csrf: csrfSignerFrom(yield* PageSigningSecret),
    /** The creditor's payer theme as the layout's colours. */
    themeOf: (organisation: string, creditor: string): Effect.Effect<Theme> =>
      Effect.map(payerThemes.forCreditor(organisation, creditor), themeOf)
  }
})

export type PageServices = Effect.Success<typeof pageServices>
