import { createHash, timingSafeEqual } from "node:crypto"
import { Clock, Effect, Option, Redacted, Schema } from "effect"
import { decodeInputEffect, Forbidden, IdGenerator, invalidField, newId, newOrganisationId, NotFound, type PaykitError, Timestamp, timestampFromMillis } from "@paykit/core"
import { Creditors, DueWorkStore, ScenarioSimulators, WebhookEndpoints } from "@paykit/engine"
import { AccessTokens, type ApiRequest, type ApiResponse, authenticateWith, bearerTokenOf, headerOf, issueAccessToken, jsonResponse, type PageRoute } from "@paykit/http"
import { Bootstrap, SANDBOX_CREDITOR, SANDBOX_CREDITOR_OPTIONS } from "./bootstrap.ts"
import { detachAppsOf } from "./oauth/apps.ts"
import { OAuthStore } from "./oauth/store.ts"
import { type Organisation, Organisations, type OrganisationRecord } from "./organisations.ts"
import { SANDBOX_ORGANISATIONS_PATH } from "./sandbox-paths.ts"

/**
 * `/sandbox/organisations`: organisations made and removed by the operator, one per test suite or
 * per test, each with its own clock, its own creditor ready to be paid out and its own token, so
 * that suites running at once neither see each other's resources nor move each other's time.
 *
 * Only the operator may call them: the bearer is the server's own sandbox organisation's
 * read-write token (`PAYKIT_SANDBOX_TOKEN`, or the one the first start printed) or the admin
 * secret (`PAYKIT_ADMIN_SECRET`). An organisation's own token cannot make more organisations.
 * They are pages of the dispatcher (they check the bearer themselves: the admin secret is no
 * access token), served by a sandbox server only; a live server's `/sandbox/*` answers 403.
 */

export { SANDBOX_ORGANISATIONS_PATH }
const KEY = "organisations"
export const OPERATOR_ONLY_REASON = "sandbox_operator_only"

/** What `POST /sandbox/organisations` takes: a name, and the instant its clock starts at (now or later). */
export const SandboxOrganisationRequest = Schema.Struct({
  name: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100))),
  start_at: Schema.optionalKey(Timestamp)
})
const decodeRequest = decodeInputEffect(SandboxOrganisationRequest, KEY)

/** The payout account the new creditor is paid to: a sandbox GBP account (the sandbox bank's valid sort code and number). */
const SANDBOX_PAYOUT_ACCOUNT = { account_holder_name: SANDBOX_CREDITOR.name, account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP" } as const

const SANDBOX_ORGANISATION_DEFAULT_NAME = "Sandbox test organisation"

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest()

const services = Effect.gen(function*() {
  return {
    organisations: yield* Organisations,
    creditors: yield* Creditors,
    scenarios: yield* ScenarioSimulators,
    tokens: yield* AccessTokens,
    boot: yield* Bootstrap,
    clock: yield* Clock.Clock,
    clocks: yield* DueWorkStore,
    ids: yield* IdGenerator,
    oauth: yield* OAuthStore,
    endpoints: yield* WebhookEndpoints
  }
})
type Services = Effect.Success<typeof services>

const refused = new Forbidden({
  reason: OPERATOR_ONLY_REASON,
  message: "Only the server's sandbox token or the admin secret may manage sandbox organisations"
})

/** The bearer is the admin secret, or an active read-write token of the server's own sandbox organisation. */
const operatorOnly = (s: Services, adminSecret: Option.Option<Redacted.Redacted<string>>, request: ApiRequest): Effect.Effect<void, PaykitError> => {
  const authorization = headerOf(request, "authorization")
  const given = bearerTokenOf(authorization)
  if (given !== undefined && Option.isSome(adminSecret) && timingSafeEqual(digest(given), digest(Redacted.value(adminSecret.value)))) return Effect.void
  return Effect.flatMap(authenticateWith(s.tokens, authorization), (caller) =>
    caller.organisation === s.boot.organisation.id && caller.scope === "read_write" && caller.app === null ? Effect.void : Effect.fail(refused))
}

const view = (o: OrganisationRecord) => ({ id: o.id, name: o.name, created_at: o.createdAt, made_by_operator: o.madeByOperator })

/**
 * Makes the organisation, then its creditor: a GBP payout account, reviewed, and the creditor
 * verified, as the sandbox's daily run and scenario would (each step an operation of the engine,
 * so the organisation's events say what happened), then its token.
 */
const create = (s: Services, request: ApiRequest) =>
  Effect.gen(function*() {
    const command = yield* decodeRequest(request.json._tag === "Parsed" ? request.json.value : {})
    const now = s.clock.currentTimeMillisUnsafe()
    const startAt = command.start_at === undefined ? undefined : Date.parse(command.start_at)
    if (startAt !== undefined && startAt < now) {
      return yield* Effect.fail(invalidField(KEY, ["start_at"], "must not be in the past: an organisation's clock only moves forward"))
    }
    const id = yield* newOrganisationId
    const organisation: Organisation = {
      id,
      name: command.name ?? SANDBOX_ORGANISATION_DEFAULT_NAME,
      environment: "sandbox",
      origin: "operator",
      madeByOperator: true
    }
    yield* s.organisations.insert(organisation, startAt)
    if (startAt !== undefined && startAt > now) yield* s.clocks.raiseOffset(organisation.id, startAt - now)
    const creditor = yield* s.creditors.createWith(id, SANDBOX_CREDITOR, SANDBOX_CREDITOR_OPTIONS)
    yield* s.creditors.createBankAccount(id, { ...SANDBOX_PAYOUT_ACCOUNT, set_as_default_payout_account: true, links: { creditor: creditor.id } })
    yield* s.creditors.completeReviews(id)
    yield* s.scenarios.run(id, "creditor_verification_status_successful", { links: { resource: creditor.id } })
    const accessToken = yield* issueAccessToken({ id: yield* newId("access_token"), organisation: organisation.id, scope: "read_write" })
    const made = (yield* s.organisations.all).find((o) => o.id === organisation.id)
    return jsonResponse(201, {
      [KEY]: {
        ...(made === undefined ? { id: organisation.id, name: organisation.name, made_by_operator: true } : view(made)),
        clock_starts_at: timestampFromMillis(Math.max(now, startAt ?? now)),
        links: { creditor: creditor.id },
        access_token: accessToken
      }
    })
  }).pipe(Effect.provideService(AccessTokens, s.tokens), Effect.provideService(IdGenerator, s.ids))

const list = (s: Services) =>
  Effect.map(s.organisations.all, (all) => jsonResponse(200, { [KEY]: all.filter((o) => o.madeByOperator).map(view) }))

/**
 * Only an organisation the operator made may go: the first start's organisation holds the server's
 * own token. Its partner apps are detached from the organisations that connected them.
 */
const remove = (s: Services, request: ApiRequest) =>
  Effect.gen(function*() {
    const id = request.params["id"] ?? ""
    const known = (yield* s.organisations.all).find((o) => o.id === id && o.madeByOperator)
    const detach = detachAppsOf(id).pipe(Effect.provideService(OAuthStore, s.oauth), Effect.provideService(WebhookEndpoints, s.endpoints))
    if (known === undefined || !(yield* s.organisations.remove(id, detach))) return yield* Effect.fail(new NotFound({ resource: KEY, id }))
    return jsonResponse(200, { [KEY]: { id, deleted: true } })
  })

const route = (method: string, path: string, s: Services, adminSecret: Option.Option<Redacted.Redacted<string>>, answer: (s: Services, request: ApiRequest) => Effect.Effect<ApiResponse, PaykitError>): PageRoute => ({
  method,
  path,
  page: (request) => Effect.andThen(operatorOnly(s, adminSecret, request), answer(s, request))
})

/** The routes, for a sandbox server's dispatcher. */
export const sandboxOrganisationRoutes = (adminSecret: Option.Option<Redacted.Redacted<string>>) =>
  Effect.map(services, (s): ReadonlyArray<PageRoute> => [
    route("POST", SANDBOX_ORGANISATIONS_PATH, s, adminSecret, create),
    route("GET", SANDBOX_ORGANISATIONS_PATH, s, adminSecret, list),
    route("DELETE", `${SANDBOX_ORGANISATIONS_PATH}/:id`, s, adminSecret, remove)
  ])
