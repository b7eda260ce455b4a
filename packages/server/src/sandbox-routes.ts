import { Effect, Layer, Semaphore } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Forbidden, type PaykitError, pathIdOf, timestampFromMillis } from "@paykit/core"
import {
  BankAuthorisations,
  decodeCommand,
  nextDailyRunAfter,
  OutboundPaymentImports,
  PAYMENT_ACCOUNTS,
  PaymentAccountFundRequest,
  PaymentAccounts,
  Simulator
} from "@paykit/engine"
import { AccessTokens, authenticate, bodyTooLarge, type CallerShape, PROTOCOL_REASONS, respond, usage } from "@paykit/http"
import { advanceTarget, formatIsoDuration } from "./advance.ts"
import { SandboxClock } from "./sandbox-clock.ts"

/**
 * The sandbox-only endpoints, under `/sandbox/`: what a developer does in place of waiting days or
 * of being the payer at a bank. They take the same bearer tokens as the API (a read-only token may
 * only read the clock) and answer errors in the API's error body. A live server refuses all of
 * them with 403 (`liveSandboxRoutes`).
 */

export const SANDBOX_ONLY_REASON = "sandbox_only"

/**
 * The body as text, at most `REQUEST_BODY_MAX_BYTES` of it (the server reads its routes' bodies
 * with that limit; a larger declared one never gets here). A body that could not be read at all
 * (its client went, or the body timeout cut it) has nobody to answer; 400 is for the log.
 */
const bodyText = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<string, PaykitError> =>
  Effect.mapError(request.text, (error) =>
    error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
      ? bodyTooLarge()
      : usage(400, PROTOCOL_REASONS.invalidJson, "The request body could not be read"))

const readBody = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<unknown, PaykitError> =>
  Effect.flatMap(bodyText(request), (text) =>
    text.trim().length === 0
      ? Effect.succeed({})
      : Effect.try({
        try: (): unknown => JSON.parse(text),
        catch: () => usage(400, PROTOCOL_REASONS.invalidJson, "The request body is not valid JSON")
      }))

/** Accepts an action's body under `data` (as the official client sends actions) or bare. */
const actionData = (body: unknown): unknown =>
  typeof body === "object" && body !== null && "data" in body ? body.data : body

type Handler = (caller: CallerShape, body: unknown, params: Readonly<Record<string, string | undefined>>) => Effect.Effect<unknown, PaykitError>

/**
 * A route whose handler needs nothing from the request's context: the services are taken when the
 * routes are built (an HttpRouter route would otherwise ask for them per request).
 */
const route = (tokens: AccessTokens["Service"], method: "GET" | "POST", path: `/sandbox/${string}`, handler: Handler) =>
  HttpRouter.add(method, path, (request) =>
    respond(Effect.gen(function*() {
      const caller = yield* Effect.provideService(authenticate(request.headers["authorization"]), AccessTokens, tokens)
      if (method !== "GET" && caller.scope === "read_only") {
        return yield* new Forbidden({ reason: PROTOCOL_REASONS.readOnlyToken, message: "This access token is read-only" })
      }
      const body = method === "GET" ? {} : yield* readBody(request)
      const params = yield* HttpRouter.params
      return HttpServerResponse.jsonUnsafe(yield* handler(caller, body, params))
    })))

const param = (params: Readonly<Record<string, string | undefined>>, name: string): string => params[name] ?? ""

/** The clock as the endpoints show it. */
const clockView = (clock: SandboxClock["Service"]) =>
  Effect.gen(function*() {
    const now = yield* clock.now
    const offset = yield* clock.offsetMillis
    return {
      simulator_clock: {
        now: timestampFromMillis(now),
        offset_ms: offset,
        offset: formatIsoDuration(offset),
        next_daily_run_at: timestampFromMillis(nextDailyRunAfter(now))
      }
    }
  })

export const sandboxRoutes = Layer.unwrap(Effect.gen(function*() {
  const tokens = yield* AccessTokens
  const clock = yield* SandboxClock
  const simulator = yield* Simulator
  const authorisations = yield* BankAuthorisations
  const imports = yield* OutboundPaymentImports
  const accounts = yield* PaymentAccounts
  const decodeFund = decodeCommand(PaymentAccountFundRequest, PAYMENT_ACCOUNTS)
  // One advance at a time: two interleaved advances would run one day's jobs twice.
  const advancing = yield* Semaphore.make(1)
  const authorisationAction = (action: "visit" | "authorise" | "deny" | "fail") =>
    route(tokens, "POST", `/sandbox/bank_authorisations/:id/actions/${action}`, (caller, body, params) =>
      Effect.flatMap(pathIdOf("bank_authorisations", param(params, "id")), (id) => {
        const done = action === "authorise" ? authorisations.authorise(caller.organisation, id, actionData(body)) : authorisations[action](caller.organisation, id)
        return Effect.map(done, (resource) => ({ bank_authorisations: resource }))
      }))
  /** The dashboard's actions on an import: authorising it, or cancelling it before (the API has neither). */
  const importAction = (action: "authorise" | "cancel") =>
    route(tokens, "POST", `/sandbox/outbound_payment_imports/:id/actions/${action}`, (caller, _body, params) =>
      Effect.flatMap(pathIdOf("outbound_payment_imports", param(params, "id")), (id) =>
        Effect.map(
          // The dashboard records who authorised; the sandbox's user is the token that asked.
          action === "authorise" ? imports.authorise(caller.organisation, id, `access token ${caller.tokenId}`) : imports.cancel(caller.organisation, id),
          (resource) => ({ outbound_payment_imports: resource })
        )))
  return Layer.mergeAll(
    route(tokens, "GET", "/sandbox/simulator/clock", () => clockView(clock)),
    route(tokens, "POST", "/sandbox/simulator/advance", (_caller, body) =>
      advancing.withPermits(1)(Effect.gen(function*() {
        const before = yield* clock.offsetMillis
        const now = yield* clock.now
        const target = yield* Effect.fromResult(advanceTarget(body, now))
        yield* simulator.advanceTo(target)
        // The simulator leaves the clock at the target, which real time has since passed by the
        // run's duration: "by P1D" then moves the offset by exactly one day, not a day less that.
        yield* clock.raiseOffset(before + (target - now))
        return yield* clockView(clock)
      }))),
    authorisationAction("visit"),
    authorisationAction("authorise"),
    authorisationAction("deny"),
    authorisationAction("fail"),
    importAction("authorise"),
    importAction("cancel"),
    route(tokens, "POST", "/sandbox/payment_accounts/fund", (caller, body) =>
      Effect.flatMap(decodeFund(actionData(body)), (command) =>
        Effect.map(accounts.fund(caller.organisation, command), (resource) => ({ payment_accounts: resource }))))
  )
}))

/** A live server: every `/sandbox/` path is 403, after authentication like any other endpoint. */
export const liveSandboxRoutes = Layer.unwrap(Effect.map(AccessTokens, (tokens) =>
  HttpRouter.add("*", "/sandbox/*", (request) =>
    respond(Effect.gen(function*() {
      yield* Effect.provideService(authenticate(request.headers["authorization"]), AccessTokens, tokens)
      return yield* new Forbidden({ reason: SANDBOX_ONLY_REASON, message: "Sandbox endpoints are not available on a live server" })
    })))))
