import { Effect } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { type PaykitError, pathIdOf, type OrganisationId } from "@paykit/core"
import {
  EncryptedBankDetails,
  FlattenedJwe,
  PUBLIC_KEY_MAX_CHARACTERS,
  PUBLIC_KEYS,
  PublicKey,
  PublicKeyListParams,
  PublicKeys,
  REQUEST_BODIES,
  SVC_KEY_ID_HEADER,
  TransferredMandate
} from "@paykit/engine"
import { type ApiHandler, headerOf, paramOf } from "../api-request.ts"
import { ok } from "../api-response.ts"
import { annotateEach, bodilessActionEndpoint, createEndpoint, declare, type EndpointDeclaration, getEndpoint, IdParams, listEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"
import { single } from "../wire.ts"

/**
 * The organisation's public keys (paykit's own extension) and the two reads that encrypt a
 * payer's bank details to one of them: an account's details and a transferred mandate's
 * (docs/documents-and-secrets.md).
 */

const services = Effect.gen(function*() {
  return { publicKeys: yield* PublicKeys, encrypted: yield* EncryptedBankDetails }
})
type Declaration = EndpointDeclaration<Effect.Success<typeof services>>

/**
 * A read keyed by a path id and the caller's `Svc-Key-Id`, answered under `key`. The id is one of
 * `collection` (an account's, a mandate's), checked against its grammar: a malformed one is a 404
 * before any storage sees it.
 */
const encryptedRead = <A>(
  key: string,
  collection: string,
  read: (organisation: OrganisationId, id: string, keyId: string | undefined) => Effect.Effect<A, PaykitError>
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
    (s) => encryptedRead(BAD, "customer_bank_accounts", s.encrypted.ofAccount)
  ),
  declare(
    TM,
    HttpApiEndpoint.get("get", `/${TM}/:id`, { params: IdParams, success: single(TM, TransferredMandate) }),
    (s) => encryptedRead(TM, "mandates", s.encrypted.ofTransfer)
  )
]

const publicKeyRoutes: ReadonlyArray<Declaration> = annotateEach([
  createEndpoint(PUBLIC_KEYS, PublicKey, REQUEST_BODIES.public_keys.create, (s) => s.publicKeys.create, {
    longText: { public_key: PUBLIC_KEY_MAX_CHARACTERS }
  }),
  listEndpoint(PUBLIC_KEYS, PublicKey, PublicKeyListParams, (s) => s.publicKeys.list),
  getEndpoint(PUBLIC_KEYS, PublicKey, (s) => s.publicKeys.get),
  bodilessActionEndpoint("disable", PUBLIC_KEYS, PublicKey, (s) => s.publicKeys.disable)
], OpenApi.Description, () =>
  "paykit's own API extension, not part of the GoCardless API: the organisation's RSA public keys (2048 bits or more), named by the Svc-Key-Id header of GET /bank_account_details/{id}. docs/documents-and-secrets.md")

export const documentsRoom = routeRoom([PUBLIC_KEYS, BAD, TM], services, [...publicKeyRoutes, ...encryptedRoutes])
