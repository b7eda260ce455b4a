import { Context, Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { decodeAtBoundary, type IdGenerator, invalidField, InvalidState, type NotFound, type OrganisationId, type StorageError, type StorageFailure, typedStorageFailures, type ValidationFailed, withNewId } from "@paykit/core"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { captureIdGenerator, insertNew, save } from "../kernel/support.ts"
import {
  type CreatedWebhookEndpoint,
  DISABLED_BY_USER,
  publicEndpoint,
  type StoredWebhookEndpoint,
  WEBHOOK_ENDPOINTS,
  type WebhookEndpoint,
  WebhookEndpointCreateRequest,
  WebhookEndpointListParams,
  WebhookEndpointUpdateRequest
} from "./domain/webhook-endpoints.ts"
import { WebhookEndpointRepository } from "./repositories.ts"
import { WebhookSecretKey } from "./secret-box.ts"
import { WebhookSender } from "./sender.ts"
import { type WebhookTargetOwner, WebhookTargetTrust, type WebhookTargetTrustShape } from "./target-trust.ts"
import { CallingApp } from "../ledger/app-fees.ts"
import { ENDPOINT_SAVE_TRIES } from "./delivery-policy.ts"
import { constantTimeEquals } from "../kernel/constant-time.ts"

const decodeCreate = decodeAtBoundary(WebhookEndpointCreateRequest, WEBHOOK_ENDPOINTS)
const decodeUpdate = decodeAtBoundary(WebhookEndpointUpdateRequest, WEBHOOK_ENDPOINTS)
const decodeList = decodeAtBoundary(WebhookEndpointListParams, WEBHOOK_ENDPOINTS)

/** Bytes of a secret paykit makes (base64url: 43 characters). */
const GENERATED_SECRET_BYTES = 32

/** What seals an endpoint's secret to that endpoint of that organisation. */
export const secretContext = (organisation: string, endpoint: string): string => `${organisation}/${endpoint}`

type Endpoints = WebhookEndpointRepository["Service"]

/** Checks a URL under the rules of whoever chose it (`WebhookTargetTrust`); a partner app calling the API never reaches private targets. */
type UrlCheck = (owner: WebhookTargetOwner, url: string) => Effect.Effect<void, ValidationFailed | StorageError>

const urlCheck = (sender: WebhookSender["Service"], trust: WebhookTargetTrustShape): UrlCheck => (owner, url) =>
  Effect.gen(function*() {
    const byApp = owner.partnerApp === undefined && (yield* CallingApp) !== null
    const privateTargets = !byApp && (yield* trust.privateTargets(owner))
    const refused = yield* sender.check(url, privateTargets)
    if (refused !== undefined) return yield* Effect.fail(invalidField(WEBHOOK_ENDPOINTS, ["url"], refused))
  })

const create = Effect.fnUntraced(function*(
  endpoints: Endpoints,
  box: WebhookSecretKey["Service"],
  checkUrl: UrlCheck,
  organisation: string,
  command: WebhookEndpointCreateRequest
): Effect.fn.Return<CreatedWebhookEndpoint, ValidationFailed | StorageError, IdGenerator> {
  yield* checkUrl({ organisation }, command.url)
  const secret = command.secret ?? randomBytes(GENERATED_SECRET_BYTES).toString("base64url")
  const enabled = command.enabled ?? true
  const stored = yield* withNewId("webhook_endpoint", (id, created_at) =>
    insertNew(endpoints, organisation, {
      id,
      created_at,
      url: command.url,
      signature_scheme: command.signature_scheme ?? "gocardless",
      enabled,
      disabled_reason: enabled ? null : DISABLED_BY_USER,
      failing_since: null,
      sealed_secret: box.seal(secret, secretContext(organisation, id))
    } satisfies StoredWebhookEndpoint))
  return { ...publicEndpoint(stored.resource), secret }
})

/**
 * A partner app's endpoint follows the app's access (`connectApp`, `disconnectApp`): the
 * organisation may disable it, never re-enable or re-point it (the app may have lost access).
 */
const partnerAppEndpoint = (app: string): InvalidState =>
  new InvalidState({
    reason: "partner_app_endpoint",
    message: "This endpoint delivers to a partner app and follows the app's access: it cannot be changed through the API (disable it, or reconnect the app)",
    links: { oauth_app: app }
  })

/** The endpoint with `enabled` set: enabling clears the reason and the failing run, disabling names the user as the reason. */
const withEnabled = (endpoint: StoredWebhookEndpoint, enabled: boolean): StoredWebhookEndpoint =>
  enabled
    ? { ...endpoint, enabled: true, disabled_reason: null, failing_since: null }
    : { ...endpoint, enabled: false, disabled_reason: endpoint.enabled ? DISABLED_BY_USER : endpoint.disabled_reason }

const setEnabled = Effect.fnUntraced(function*(endpoints: Endpoints, organisation: string, id: string, enabled: boolean) {
  const current = yield* endpoints.get(organisation, id)
  return publicEndpoint((yield* save(endpoints, organisation, current, withEnabled(current.resource, enabled))).resource)
})

const update = Effect.fnUntraced(function*(
  endpoints: Endpoints,
  checkUrl: UrlCheck,
  organisation: string,
  id: string,
  command: WebhookEndpointUpdateRequest
): Effect.fn.Return<WebhookEndpoint, ValidationFailed | NotFound | InvalidState | StorageError> {
  if (command.url !== undefined) yield* checkUrl({ organisation }, command.url)
  const current = yield* endpoints.get(organisation, id)
  // A partner app's endpoint is the app's to point and to turn on; its organisation may only turn it off.
  const onlyDisables = command.url === undefined && command.signature_scheme === undefined && command.enabled !== true
  if (current.resource.partner_app !== undefined && !onlyDisables) return yield* Effect.fail(partnerAppEndpoint(current.resource.partner_app))
  const moved = {
    ...current.resource,
    ...(command.url === undefined ? {} : { url: command.url }),
    ...(command.signature_scheme === undefined ? {} : { signature_scheme: command.signature_scheme })
  }
  const next = command.enabled === undefined ? moved : withEnabled(moved, command.enabled)
  return publicEndpoint((yield* save(endpoints, organisation, current, next)).resource)
})

/**
 * A new random signing secret for the endpoint, sealed in place of the old and answered this
 * once (the dashboard's "rotate secret"; the API's update takes no secret). Every attempt from
 * now on, a queued delivery's too, is signed with it. A partner app's endpoint is the app's.
 */
const rotateSecret = Effect.fnUntraced(function*(
  endpoints: Endpoints,
  box: WebhookSecretKey["Service"],
  organisation: string,
  id: string
): Effect.fn.Return<CreatedWebhookEndpoint, NotFound | InvalidState | StorageError> {
  const current = yield* endpoints.get(organisation, id)
  if (current.resource.partner_app !== undefined) return yield* Effect.fail(partnerAppEndpoint(current.resource.partner_app))
  const secret = randomBytes(GENERATED_SECRET_BYTES).toString("base64url")
  const next = { ...current.resource, sealed_secret: box.seal(secret, secretContext(organisation, id)) }
  return { ...publicEndpoint((yield* save(endpoints, organisation, current, next)).resource), secret }
})

/**
 * The endpoint at `url` with `secret`, made if the organisation has none there, its secret
 * replaced if it differs: what the server does at every start with `PAYKIT_WEBHOOK_URL` and
 * `PAYKIT_WEBHOOK_SECRET`, so a restart makes no second endpoint.
 */
const ensure = Effect.fnUntraced(function*(
  endpoints: Endpoints,
  box: WebhookSecretKey["Service"],
  checkUrl: UrlCheck,
  organisation: string,
  command: { readonly url: string; readonly secret: string }
): Effect.fn.Return<WebhookEndpoint, ValidationFailed | InvalidState | StorageError, IdGenerator> {
  const existing = (yield* endpoints.scan(organisation, { url: eq(command.url) }))[0]
  if (existing === undefined) {
    const { secret: _shown, ...made } = yield* create(endpoints, box, checkUrl, organisation, command)
    return made
  }
  const context = secretContext(organisation, existing.resource.id)
  const opened = box.open(existing.resource.sealed_secret, context)
  if (opened !== undefined && constantTimeEquals(opened, command.secret)) return publicEndpoint(existing.resource)
  const next = { ...existing.resource, sealed_secret: box.seal(command.secret, context) }
  return publicEndpoint((yield* save(endpoints, organisation, existing, next)).resource)
})

/** What connects a partner app's webhook URL to an organisation: the app, its URL, the secret the app verifies with. */
export interface PartnerAppEndpoint {
  readonly app: string
  readonly url: string
  readonly secret: string
}

/**
 * The organisation's endpoint for a partner app, made on the first connection, enabled again (and
 * its secret resealed) on a reconnection: the app then receives the organisation's events.
 */
const connectApp = Effect.fnUntraced(function*(
  endpoints: Endpoints,
  box: WebhookSecretKey["Service"],
  checkUrl: UrlCheck,
  organisation: string,
  command: PartnerAppEndpoint
): Effect.fn.Return<void, ValidationFailed | InvalidState | StorageError, IdGenerator> {
  yield* checkUrl({ organisation, partnerApp: command.app }, command.url)
  const existing = (yield* endpoints.scan(organisation, { url: eq(command.url) })).find((v) => v.resource.partner_app === command.app)
  if (existing !== undefined) {
    const sealed = box.seal(command.secret, secretContext(organisation, existing.resource.id))
    yield* save(endpoints, organisation, existing, { ...withEnabled(existing.resource, true), sealed_secret: sealed })
    return
  }
  yield* withNewId("webhook_endpoint", (id, created_at) =>
    insertNew(endpoints, organisation, {
      id, created_at, url: command.url, signature_scheme: "gocardless", enabled: true, disabled_reason: null, failing_since: null,
      sealed_secret: box.seal(command.secret, secretContext(organisation, id)), partner_app: command.app
    } satisfies StoredWebhookEndpoint))
})

/** The app's endpoints in the organisation disabled (its access revoked, or the app disabled), read again when a delivery wins a race. */
const disconnectApp = (endpoints: Endpoints, organisation: string, app: string): Effect.Effect<void, InvalidState | StorageError> =>
  Effect.gen(function*() {
    for (const current of yield* endpoints.scan(organisation, { enabled: eq("true") })) {
      if (current.resource.partner_app === app) yield* save(endpoints, organisation, current, withEnabled(current.resource, false))
    }
  }).pipe(Effect.retry({ times: ENDPOINT_SAVE_TRIES, while: (e) => e instanceof InvalidState }))

export class WebhookEndpoints extends Context.Service<WebhookEndpoints, {
  /** A new endpoint; the answer holds its secret, the only time the API shows it. */
  readonly create: (organisation: OrganisationId, command: typeof WebhookEndpointCreateRequest.Encoded) => Effect.Effect<CreatedWebhookEndpoint, ValidationFailed | StorageFailure>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<WebhookEndpoint, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof WebhookEndpointListParams.Encoded) => Effect.Effect<Page<WebhookEndpoint>, ValidationFailed | StorageError>
  readonly update: (organisation: OrganisationId, id: string, command: typeof WebhookEndpointUpdateRequest.Encoded) => Effect.Effect<WebhookEndpoint, ValidationFailed | NotFound | InvalidState | StorageFailure>
  readonly disable: (organisation: OrganisationId, id: string) => Effect.Effect<WebhookEndpoint, NotFound | InvalidState | StorageFailure>
  /** A new signing secret, answered this once (`rotateSecret` above). */
  readonly rotateSecret: (organisation: OrganisationId, id: string) => Effect.Effect<CreatedWebhookEndpoint, NotFound | InvalidState | StorageFailure>
  readonly ensure: (organisation: OrganisationId, command: { readonly url: string; readonly secret: string }) => Effect.Effect<WebhookEndpoint, ValidationFailed | InvalidState | StorageFailure>
  readonly connectApp: (organisation: OrganisationId, command: PartnerAppEndpoint) => Effect.Effect<void, ValidationFailed | InvalidState | StorageFailure>
  readonly disconnectApp: (organisation: OrganisationId, app: string) => Effect.Effect<void, InvalidState | StorageFailure>
}>()("@paykit/engine/WebhookEndpoints") {
  static readonly layer: Layer.Layer<
    WebhookEndpoints,
    never,
    WebhookEndpointRepository | WebhookSecretKey | WebhookSender | IdGenerator | Transactor
  > = Layer.effect(
    WebhookEndpoints,
    Effect.gen(function*() {
      const endpoints = yield* WebhookEndpointRepository
      const box = yield* WebhookSecretKey
      const checkUrl = urlCheck(yield* WebhookSender, yield* WebhookTargetTrust)
      const provideIds = yield* captureIdGenerator
      const transactor = yield* Transactor
      const run = <A, E>(effect: Effect.Effect<A, E, IdGenerator>) => typedStorageFailures(transactor.transaction(provideIds(effect)))
      return WebhookEndpoints.of({
        create: (o, command) => Effect.flatMap(decodeCreate(command), (c) => run(create(endpoints, box, checkUrl, o, c))),
        get: (o, id) => Effect.map(endpoints.get(o, id), (v) => publicEndpoint(v.resource)),
        list: (o, plain) =>
          Effect.flatMap(decodeList(plain), (params) =>
            Effect.map(
              endpoints.list(o, toListQuery(params, { enabled: params.enabled === undefined ? undefined : eq(params.enabled) })),
              (page) => ({ ...page, items: page.items.map(publicEndpoint) })
            )),
        update: (o, id, command) => Effect.flatMap(decodeUpdate(command), (c) => run(update(endpoints, checkUrl, o, id, c))),
        disable: (o, id) => run(setEnabled(endpoints, o, id, false)),
        rotateSecret: (o, id) => run(rotateSecret(endpoints, box, o, id)),
        ensure: (o, command) => run(ensure(endpoints, box, checkUrl, o, command)),
        connectApp: (o, command) => run(connectApp(endpoints, box, checkUrl, o, command)),
        disconnectApp: (o, app) => run(disconnectApp(endpoints, o, app))
      })
    })
  )
}

/** An endpoint's secret opened, for signing; undefined when it does not open (the server key changed). */
export const openSecret = (
  box: WebhookSecretKey["Service"],
  organisation: string,
  endpoint: StoredWebhookEndpoint
): string | undefined => box.open(endpoint.sealed_secret, secretContext(organisation, endpoint.id))
