import { Effect, Schema } from "effect"
import { HttpApiEndpoint, HttpApiSchema, OpenApi } from "effect/http-api"
import { LOGO_IMAGE_MAX_BASE64_LENGTH } from "@paykit/core"
import {
  Creditor,
  CreditorBankAccount,
  CreditorBankAccountListParams,
  Creditors,
  creditors,
  ListParams,
  Logos,
  PayerThemes,
  PAYOUT_HOLDS,
  PayoutHold,
  Payouts,
  REQUEST_BODIES,
  SchemeIdentifier,
  SchemeIdentifierListParams,
  SchemeIdentifiers,
  VerificationDetailListParams,
  verificationDetails
} from "@paykit/engine"
import { LOGOS, PAYER_THEMES } from "@paykit/validation"
import { bodilessActionEndpoint, createEndpoint, declare, type EndpointDeclaration, getEndpoint, Idempotent, IdParams, listEndpoint } from "../endpoints.ts"
import { paykitExtension, updateEndpoint } from "../endpoints.ts"
import { getHandler } from "../read-handlers.ts"
import { routeRoom } from "../routes.ts"
import { single } from "../wire.ts"
import { createdWithoutLocation } from "../write-handlers.ts"

/**
 * Creditors and what belongs to one: its bank accounts, verification details, scheme identifiers
 * and branding (the payer theme and the logo of its payer pages).
 */

const services = Effect.gen(function*() {
  return {
    creditors: yield* Creditors,
    schemeIdentifiers: yield* SchemeIdentifiers,
    payerThemes: yield* PayerThemes,
    logos: yield* Logos,
    payouts: yield* Payouts
  }
})
type Declaration = EndpointDeclaration<Effect.Success<typeof services>>

const BODIES = REQUEST_BODIES
const CREDITORS = "creditors"
const CBA = "creditor_bank_accounts"
const VD = "verification_details"
const SI = "scheme_identifiers"
/** The first segment of the branding paths: `/branding/payer_themes`, `/branding/logos`. */
const BRANDING = "branding"

/** An answer naming what was stored by its id only, as the real API's branding answers. */
const idAnswer = (key: string) => single(key, Schema.Struct({ id: Schema.String })).pipe(HttpApiSchema.status(201))

/**
 * `POST /branding/payer_themes`: the engine's `PayerThemes.upsert` stores the creditor's theme
 * (one per creditor: a second call updates it); the answer is the theme's id, as the real API's.
 */
const payerTheme: Declaration = declare(
  PAYER_THEMES,
  HttpApiEndpoint.post("create", `/${BRANDING}/payer_themes`, {
    payload: single(PAYER_THEMES, BODIES.payer_themes.create),
    success: idAnswer(PAYER_THEMES)
  }).annotate(Idempotent, true),
  (s) =>
    createdWithoutLocation(
      PAYER_THEMES,
      BODIES.payer_themes.create,
      (organisation, command) => Effect.map(s.payerThemes.upsert(organisation, command), (theme) => ({ id: theme.id }))
    )
)

/** `POST /branding/logos`: the creditor's logo scaled and stored (replacing its earlier one); the answer is its id. */
const logo: Declaration = declare(
  LOGOS,
  HttpApiEndpoint.post("create", `/${BRANDING}/logos`, {
    payload: single(LOGOS, BODIES.logos.create),
    success: idAnswer(LOGOS)
  }).annotate(Idempotent, true),
  (s) => createdWithoutLocation(LOGOS, BODIES.logos.create, (o, command) => Effect.map(s.logos.upload(o, command), (made) => ({ id: made.id })), (r) => r.id, {
    longText: { image: LOGO_IMAGE_MAX_BASE64_LENGTH }
  })
)

/**
 * `GET /creditors/:id/payout_holds`, paykit's own extension: why the creditor's collected money is
 * not paid out, per currency (the engine's `Payouts.holds`; `[]` when nothing is held). A separate
 * path rather than a field of the creditor, so the creditor stays GoCardless's resource and the
 * official client never meets it. docs/money.md, "Held payouts".
 */
const payoutHolds: Declaration = declare(
  CREDITORS,
  paykitExtension(HttpApiEndpoint.get("payout_holds", `/${CREDITORS}/:id/${PAYOUT_HOLDS}`, {
    params: IdParams,
    success: single(PAYOUT_HOLDS, Schema.Array(PayoutHold))
  }).annotate(
    OpenApi.Description,
    "paykit's own API extension, not part of the GoCardless API: why the creditor's collected money is held (not paid out), per currency, with the amount waiting; empty when nothing is held. docs/money.md"
  )),
  (s) => getHandler(PAYOUT_HOLDS, (organisation, id) => s.payouts.holds(organisation, id))
)

const declarations: ReadonlyArray<Declaration> = [
  listEndpoint(CREDITORS, creditors.schema, ListParams, (s) => s.creditors.list),
  getEndpoint(CREDITORS, creditors.schema, (s) => s.creditors.get),
  createEndpoint(CREDITORS, Creditor, BODIES.creditors.create, (s) => s.creditors.create),
  updateEndpoint(CREDITORS, Creditor, BODIES.creditors.update, (s) => s.creditors.update),
  createEndpoint(CBA, CreditorBankAccount, BODIES.creditor_bank_accounts.create, (s) => s.creditors.createBankAccount),
  listEndpoint(CBA, CreditorBankAccount, CreditorBankAccountListParams, (s) => s.creditors.listBankAccounts),
  getEndpoint(CBA, CreditorBankAccount, (s) => s.creditors.getBankAccount),
  bodilessActionEndpoint("disable", CBA, CreditorBankAccount, (s) => s.creditors.disableBankAccount),
  listEndpoint(VD, verificationDetails.schema, VerificationDetailListParams, (s) => s.creditors.listVerificationDetails),
  createEndpoint(VD, verificationDetails.schema, BODIES.verification_details.create, (s) => s.creditors.createVerificationDetail),
  createEndpoint(SI, SchemeIdentifier, BODIES.scheme_identifiers.create, (s) => s.schemeIdentifiers.create),
  listEndpoint(SI, SchemeIdentifier, SchemeIdentifierListParams, (s) => s.schemeIdentifiers.list),
  getEndpoint(SI, SchemeIdentifier, (s) => s.schemeIdentifiers.get),
  payerTheme,
  logo,
  payoutHolds
]

export const creditorsRoom = routeRoom([CREDITORS, CBA, VD, SI, BRANDING], services, declarations)
