import { Effect, Layer, Semaphore } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Forbidden, type PaykitError, timestampFromMillis } from "@paykit/core"
import { BankAuthorisations, DAILY_RUN_OFFSET_MS, OutboundPaymentImports, PaymentAccounts, Simulator } from "@paykit/engine"
import { authenticate, type CallerShape, PROTOCOL_REASONS, respond, usage } from "@paykit/http"
import { advanceTarget, formatIsoDuration } from "./advance.ts"
import { SandboxClock } from "./sandbox-clock.ts"

/**
 * The sandbox-only endpoints, under `/sandbox/`: what a developer does in place of waiting days or
 * of being the payer at a bank. They take the same bearer tokens as the API (a read-only token may
 * only read the clock) and answer errors in the API's error body. A live server refuses all of
 * them with 403 (`liveSandboxRoutes`).
 */

const DAY_MS = 86_400_000
export const SANDBOX_ONLY_REASON = "sandbox_only"

const readBody = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<unknown, PaykitError> =>
  Effect.flatMap(Effect.orDie(request.text), (text) =>
    text.trim().length === 0
      ? Effect.succeed({})
      : Effect.try({
        try: (): unknown => JSON.parse(text),
        catch: () => usage(400, PROTOCOL_REASONS.invalidJson, "The request body is not valid JSON")
      }))

/** Accepts an action's body under `data` (as the official client sends actions) or bare. */
const actionData = (body: unknown): unknown =>
  typeof body === "object" && body !== null && "data" in body ? body.data : body

type Handler<R> = (caller: CallerShape, body: unknown, params: Readonly<Record<string, string | undefined>>) => Effect.Effect<unknown, PaykitError, R>

const route = <R>(method: "GET" | "POST", path: `/sandbox/${string}`, handler: Handler<R>) =>
  HttpRouter.add(method, path, (request) =>
    respond(Effect.gen(function*() {
      const caller = yield* authenticate(request.headers["authorization"])
      if (method !== "GET" && caller.scope === "read_only") {
        return yield* new Forbidden({ reason: PROTOCOL_REASONS.readOnlyToken, message: "This access token is read-only" })
      }
      const body = method === "GET" ? {} : yield* readBody(request)
      const params = yield* HttpRouter.params
      return HttpServerResponse.jsonUnsafe(yield* handler(caller, body, params))
    })))

const param = (params: Readonly<Record<string, string | undefined>>, name: string): string => params[name] ?? ""

/** The clock as the endpoints show it. */
const clockView = Effect.gen(function*() {
  const clock = yield* SandboxClock
  const now = yield* clock.now
  const offset = yield* clock.offsetMillis
  const sinceRun = (((now - DAILY_RUN_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS
  return {
    simulator_clock: {
      now: timestampFromMillis(now),
      offset_ms: offset,
      offset: formatIsoDuration(offset),
      next_daily_run_at: timestampFromMillis(now - sinceRun + DAY_MS)
    }
  }
})

export const sandboxRoutes = Layer.unwrap(Effect.gen(function*() {
  // One advance at a time: two interleaved advances would run one day's jobs twice.
  const advancing = yield* Semaphore.make(1)
  return Layer.mergeAll(
    route("GET", "/sandbox/simulator/clock", () => clockView),
    route("POST", "/sandbox/simulator/advance", (_caller, body) =>
      advancing.withPermits(1)(Effect.gen(function*() {
        const now = yield* (yield* SandboxClock).now
        const target = yield* Effect.fromResult(advanceTarget(body, now))
        yield* (yield* Simulator).advanceTo(target)
        return yield* clockView
      }))),
    route("POST", "/sandbox/bank_authorisations/:id/actions/visit", (caller, _body, params) =>
      Effect.map(BankAuthorisations.use((s) => s.visit(caller.organisation, param(params, "id"))), (r) => ({ bank_authorisations: r }))),
    route("POST", "/sandbox/bank_authorisations/:id/actions/authorise", (caller, body, params) =>
      Effect.map(BankAuthorisations.use((s) => s.authorise(caller.organisation, param(params, "id"), actionData(body))), (r) => ({ bank_authorisations: r }))),
    route("POST", "/sandbox/bank_authorisations/:id/actions/deny", (caller, _body, params) =>
      Effect.map(BankAuthorisations.use((s) => s.deny(caller.organisation, param(params, "id"))), (r) => ({ bank_authorisations: r }))),
    route("POST", "/sandbox/bank_authorisations/:id/actions/fail", (caller, _body, params) =>
      Effect.map(BankAuthorisations.use((s) => s.fail(caller.organisation, param(params, "id"))), (r) => ({ bank_authorisations: r }))),
    route("POST", "/sandbox/outbound_payment_imports/:id/actions/authorise", (caller, _body, params) =>
      // The dashboard records who authorised; the sandbox's user is the token that asked.
      Effect.map(OutboundPaymentImports.use((s) => s.authorise(caller.organisation, param(params, "id"), `access token ${caller.tokenId}`)), (r) => ({ outbound_payment_imports: r }))),
    route("POST", "/sandbox/payment_accounts/fund", (caller, body) =>
      Effect.map(PaymentAccounts.use((s) => s.fund(caller.organisation, actionData(body))), (r) => ({ payment_accounts: r })))
  )
}))

/** A live server: every `/sandbox/` path is 403, after authentication like any other endpoint. */
export const liveSandboxRoutes = HttpRouter.add("*", "/sandbox/*", (request) =>
  respond(Effect.gen(function*() {
    yield* authenticate(request.headers["authorization"])
    return yield* new Forbidden({ reason: SANDBOX_ONLY_REASON, message: "Sandbox endpoints are not available on a live server" })
  })))
