import { Effect, Schema } from "effect"
import { HttpApiEndpoint } from "effect/http-api"
import { decodeRequestEffect, Forbidden, type PaykitError, pathIdOf, timestampFromMillis } from "@paykit/core"
import {
  BankAuthorisationOutcomeRequest,
  BankAuthorisations,
  bankAuthorisations,
  nextDailyRunAfter,
  OutboundPaymentImports,
  PAYMENT_ACCOUNTS,
  PaymentAccountFundRequest,
  outboundPaymentImports,
  PaymentAccounts,
  paymentAccounts,
  DueWorker,
  DueWorkStore
} from "@paykit/engine"
import {
  type ApiHandler,
  type ApiRequest,
  ApiProtocol,
  type AnyEndpoint,
  bindRoutes,
  type CallerShape,
  declare,
  type EndpointDeclaration,
  IdParams,
  ok,
  paramOf,
  paykitExtension,
  routeOf,
  single
} from "@paykit/http"
import { advanceTarget, formatIsoDuration } from "./advance.ts"
import { ClockAdvanceLock } from "./clock-lock.ts"

/**
 * The sandbox-only endpoints, under `/sandbox/`: what a developer does in place of waiting days or
 * of being the payer at a bank. They are a route table of their own, served by the API's
 * dispatcher through the same gateway: the same bearer tokens (a read-only token may only read the
 * clock), the same body reading and limits, the API's error body. They do not speak the API's
 * protocol (`ApiProtocol` false: no `GoCardless-Version` header, any content type). A live server
 * refuses all of them with 403 (`liveSandboxRoutes`).
 */

export const SANDBOX_ONLY_REASON = "sandbox_only"

const SANDBOX = "sandbox"

/** The services the sandbox's handlers call, taken once when the routes are bound. */
const sandboxServices = Effect.gen(function*() {
  return {
    worker: yield* DueWorker,
    store: yield* DueWorkStore,
    authorisations: yield* BankAuthorisations,
    imports: yield* OutboundPaymentImports,
    accounts: yield* PaymentAccounts,
    // One advance at a time per organisation, across processes; other organisations' do not wait.
    advancing: (yield* ClockAdvanceLock).around
  }
})
type SandboxServices = Effect.Success<typeof sandboxServices>

/** The body as parsed JSON, `{}` when there is none (the gateway has refused one that is not JSON). */
const bodyOf = (request: ApiRequest): unknown => request.json._tag === "Parsed" ? request.json.value : {}

/** Accepts an action's body under `data` (as the official client sends actions) or bare. */
const actionData = (body: unknown): unknown =>
  typeof body === "object" && body !== null && "data" in body ? body.data : body

/** A sandbox endpoint: its answer is the value `run` computes, as JSON with 200. */
const sandboxEndpoint = (
  endpoint: AnyEndpoint,
  run: (services: SandboxServices, request: ApiRequest, caller: CallerShape) => Effect.Effect<unknown, PaykitError>
): EndpointDeclaration<SandboxServices> =>
  declare(SANDBOX, paykitExtension(endpoint.annotate(ApiProtocol, false)), (services): ApiHandler => (request, caller) => Effect.map(run(services, request, caller), ok))

const SimulatorClock = Schema.Struct({
  simulator_clock: Schema.Struct({ now: Schema.String, offset_ms: Schema.Number, offset: Schema.String, next_daily_run_at: Schema.String })
})

/** `{"to": <timestamp>}` or `{"by": <ISO 8601 duration or seconds>}` (`advanceTarget` reads it). */
const AdvanceBody = Schema.Struct({
  to: Schema.optionalKey(Schema.String),
  by: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number]))
})

/** An action's body: its attributes under `data` (bare attributes are read too). */
/** The body as `actionData` reads it: the attributes under `data`, or alone. */
const dataBody = <S extends Schema.Top>(request: S) => Schema.Union([Schema.Struct({ data: Schema.optionalKey(request) }), request])

/** The caller's organisation's clock as the endpoints show it. */
const clockView = ({ worker, store }: SandboxServices, organisation: string) =>
  Effect.gen(function*() {
    const now = yield* worker.nowOf(organisation)
    const offset = yield* store.offsetOf(organisation)
    return {
      simulator_clock: {
        now: timestampFromMillis(now),
        offset_ms: offset,
        offset: formatIsoDuration(offset),
        next_daily_run_at: timestampFromMillis(nextDailyRunAfter(now))
      }
    }
  })

/**
 * Moves the caller's organisation's clock, and only it, to the target: its due rows up to there run
 * first, each at its instant (`DueWorker.advance`); the answer comes once they have.
 */
const advance = (services: SandboxServices, request: ApiRequest, caller: CallerShape) =>
  services.advancing(caller.organisation)(Effect.gen(function*() {
    const now = yield* services.worker.nowOf(caller.organisation)
    const target = yield* Effect.fromResult(advanceTarget(bodyOf(request), now))
    yield* services.worker.advance(caller.organisation, target, now)
    return yield* clockView(services, caller.organisation)
  }))

const BA = "bank_authorisations"
/** The bank's outcome a sandbox `authorise` carries, decoded here at the edge like every API body. */
const decodeOutcome = decodeRequestEffect(BankAuthorisationOutcomeRequest, BA)
/** The sandbox's funding of a payment account, decoded at the edge. */
const decodeFund = decodeRequestEffect(PaymentAccountFundRequest, PAYMENT_ACCOUNTS)
const authorisationAction = (action: "visit" | "authorise" | "deny" | "fail") =>
  sandboxEndpoint(
    HttpApiEndpoint.post(`bank_authorisation_${action}`, `/sandbox/bank_authorisations/:id/actions/${action}`, {
      params: IdParams,
      ...(action === "authorise" ? { payload: dataBody(BankAuthorisationOutcomeRequest) } : {}),
      success: single(BA, bankAuthorisations.schema) }),
    ({ authorisations }, request, caller) =>
      Effect.flatMap(pathIdOf(BA, paramOf(request, "id")), (id) => {
        const done = action === "authorise"
          ? Effect.flatMap(decodeOutcome(actionData(bodyOf(request)) ?? {}), (outcome) => authorisations.authorise(caller.organisation, id, outcome))
          : authorisations[action](caller.organisation, id)
        return Effect.map(done, (resource) => ({ [BA]: resource }))
      })
  )

const IMPORTS = "outbound_payment_imports"
/** The dashboard's actions on an import: authorising it, or cancelling it before (the API has neither). */
const importAction = (action: "authorise" | "cancel") =>
  sandboxEndpoint(
    HttpApiEndpoint.post(`import_${action}`, `/sandbox/outbound_payment_imports/:id/actions/${action}`, { params: IdParams, success: single(IMPORTS, outboundPaymentImports.schema) }),
    ({ imports }, request, caller) =>
      Effect.flatMap(pathIdOf(IMPORTS, paramOf(request, "id")), (id) =>
        Effect.map(
          // The dashboard records who authorised; the sandbox's user is the token that asked.
          action === "authorise" ? imports.authorise(caller.organisation, id, `access token ${caller.tokenId}`) : imports.cancel(caller.organisation, id),
          (resource) => ({ [IMPORTS]: resource })
        ))
  )

/** The sandbox's route table. */
export const SANDBOX_ROUTES: ReadonlyArray<EndpointDeclaration<SandboxServices>> = [
  sandboxEndpoint(HttpApiEndpoint.get("clock", "/sandbox/simulator/clock", { success: SimulatorClock }), (services, _request, caller) => clockView(services, caller.organisation)),
  sandboxEndpoint(HttpApiEndpoint.post("advance", "/sandbox/simulator/advance", { payload: AdvanceBody, success: SimulatorClock }), advance),
  authorisationAction("visit"),
  authorisationAction("authorise"),
  authorisationAction("deny"),
  authorisationAction("fail"),
  importAction("authorise"),
  importAction("cancel"),
  sandboxEndpoint(
    HttpApiEndpoint.post("fund", "/sandbox/payment_accounts/fund", { payload: dataBody(PaymentAccountFundRequest), success: single(PAYMENT_ACCOUNTS, paymentAccounts.schema) }),
    ({ accounts }, request, caller) =>
      Effect.flatMap(decodeFund(actionData(bodyOf(request))), (command) =>
        Effect.map(accounts.fund(caller.organisation, command), (resource) => ({ [PAYMENT_ACCOUNTS]: resource })))
  )
]

/** The sandbox's routes bound to the server's services, for the API's dispatcher. */
export const sandboxRoutes = bindRoutes(SANDBOX_ROUTES, sandboxServices)

const refusal: ApiHandler = () => Effect.fail(new Forbidden({ reason: SANDBOX_ONLY_REASON, message: "Sandbox endpoints are not available on a live server" }))

/** A live server: every `/sandbox/` path, whatever its method, is 403 after authentication like any other endpoint. */
export const liveSandboxRoutes = Effect.succeed([{
  ...routeOf(declare(SANDBOX, HttpApiEndpoint.get("sandbox_only", "/sandbox/*").annotate(ApiProtocol, false), () => refusal), refusal),
  method: "*"
}])
