import { Effect, Schema } from "effect"
import { LOGO_IMAGE_MAX_BASE64_LENGTH, type PaykitError, pathIdOf } from "@paykit/core"
import { HttpApiEndpoint, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  EncryptedBankDetails,
  FlattenedJwe,
  Logos,
  PUBLIC_KEY_MAX_CHARACTERS,
  PUBLIC_KEYS,
  PublicKey,
  PublicKeyListParams,
  PublicKeys,
  REQUEST_BODIES,
  SVC_KEY_ID_HEADER,
  TransferredMandate
} from "@paykit/engine"
import { type ApiHandler, headerOf, paramOf } from "./api-request.ts"
import { ok } from "./api-response.ts"
import type { Declaration } from "./api.ts"
import { annotateEach, bodilessActionEndpoint, createEndpoint, declare, getEndpoint, IdParams, Idempotent, listEndpoint } from "./endpoints.ts"
import { LOGOS } from "@paykit/validation"
import { single } from "./wire.ts"
import { createdWithoutLocation } from "./write-handlers.ts"

/**
 * The routes of issue 21's documents and secrets: logos, the organisation's public keys (paykit's
 * own extension) and the two reads that encrypt a payer's bank details to one of them
 * (docs/documents-and-secrets.md).
 */

/** The engine's services these routes call, under `EngineServices.documents`. */
export const documentServices = Effect.gen(function*() {
  return {
    logos: yield* Logos,
    publicKeys: yield* PublicKeys,
    encrypted: yield* EncryptedBankDetails
  }
})

const BODIES = REQUEST_BODIES

/**
 * A read keyed by a path id and the caller's `Svc-Key-Id`, answered under `key`. The id is one of
 * `collection` (an account's, a mandate's), checked against its grammar: a malformed one is a 404
 * before any storage sees it.
 */
const encryptedRead = <A>(
  key: string,
  collection: string,
  read: (organisation: string, id: string, keyId: string | undefined) => Effect.Effect<A, PaykitError>
): ApiHandler =>
(request, caller) =>
  Effect.flatMap(pathIdOf(collection, paramOf(request, "id")), (id) =>
    Effect.map(read(caller.organisation, id, headerOf(request, SVC_KEY_ID_HEADER)), (answer) => ok({ [key]: answer })))

const BAD = "bank_account_details"
const TM = "transferred_mandates"

const encryptedRoutes: ReadonlyArray<Declaration> = [
  declare(
    BAD,
    HttpApiEndpoint.get("get", `/${BAD}/:id`, { params: IdParams, success: single(BAD, FlattenedJwe) }),
    (s) => encryptedRead(BAD, "customer_bank_accounts", s.documents.encrypted.ofAccount)
  ),
  declare(
    TM,
    HttpApiEndpoint.get("get", `/${TM}/:id`, { params: IdParams, success: single(TM, TransferredMandate) }),
    (s) => encryptedRead(TM, "mandates", s.documents.encrypted.ofTransfer)
  )
]

/** `POST /branding/logos`: the creditor's logo scaled and stored (replacing its earlier one); the answer is its id. */
const logoRoute: Declaration = declare(
  LOGOS,
  HttpApiEndpoint.post("create", "/branding/logos", {
    payload: single(LOGOS, BODIES.logos.create),
    success: single(LOGOS, Schema.Struct({ id: Schema.String })).pipe(HttpApiSchema.status(201))
  }).annotate(Idempotent, true),
  (s) => createdWithoutLocation(LOGOS, BODIES.logos.create, (o, command) => Effect.map(s.documents.logos.upload(o, command), (logo) => ({ id: logo.id })), (r) => r.id, {
    longText: { image: LOGO_IMAGE_MAX_BASE64_LENGTH }
  })
)

const publicKeyRoutes: ReadonlyArray<Declaration> = annotateEach([
  createEndpoint(PUBLIC_KEYS, PublicKey, BODIES.public_keys.create, (s) => s.documents.publicKeys.create, {
    longText: { public_key: PUBLIC_KEY_MAX_CHARACTERS }
  }),
  listEndpoint(PUBLIC_KEYS, PublicKey, PublicKeyListParams, (s) => s.documents.publicKeys.list),
  getEndpoint(PUBLIC_KEYS, PublicKey, (s) => s.documents.publicKeys.get),
  bodilessActionEndpoint("disable", PUBLIC_KEYS, PublicKey, (s) => s.documents.publicKeys.disable)
], OpenApi.Description, () =>
  "paykit's own API extension, not part of the GoCardless API: the organisation's RSA public keys (2048 bits or more), named by the Svc-Key-Id header of GET /bank_account_details/{id}. docs/documents-and-secrets.md")

export const DOCUMENT_ROUTES: ReadonlyArray<Declaration> = [logoRoute, ...publicKeyRoutes, ...encryptedRoutes]
