import { Effect, Layer, ManagedRuntime, Schema } from "effect"
import { HttpServer } from "effect/http"
import { HttpApiEndpoint } from "effect/http-api"
import { NotFound } from "@paykit/core"
import { WorkingOrganisation } from "@paykit/engine"
import { GoCardlessClient, PermissionsError, RateLimitError, IdempotentCreationConflictError } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  AccessTokens,
  apiDispatcher,
  bindRoutes,
  declare,
  type ApiRequest,
  createHandler,
  Idempotent,
  IdempotencyStore,
  issueAccessToken,
  ok,
  OUTBOUND_PAYMENT_WRITES,
  paramOf,
  RateLimit,
  RateLimiter,
  RequestLog,
  serveHttpApp,
  serverUrl,
  silentRequestLog
} from "../src/index.ts"

/**
 * The gateway on a small API of its own (a create and a get over a Map), driven by the official
 * client: idempotency conflicts, read-only tokens, rate limits. The engine's endpoints
 * use the same gateway; these behaviours do not depend on the resource.
 */

const Thing = Schema.Struct({ id: Schema.String, created_at: Schema.String, name: Schema.String })
const creates = HttpApiEndpoint.post("create", "/creditors", { payload: Schema.Struct({ creditors: Schema.Unknown }), success: Thing }).annotate(Idempotent, true)
const gets = HttpApiEndpoint.get("get", "/creditors/:id", { params: { id: Schema.String }, success: Thing })
const pays = HttpApiEndpoint.post("create", "/outbound_payments", { payload: Schema.Unknown, success: Thing })
  .annotate(Idempotent, true)
  .annotate(RateLimit, OUTBOUND_PAYMENT_WRITES)

let counter = 0
const stored = new Map<string, { id: string; created_at: string; name: string }>()
/** The organisation each creation's fiber worked for (`WorkingOrganisation`), by the thing's id. */
const workingFor = new Map<string, string | undefined>()
const make = (_organisation: string, input: unknown) =>
  Effect.withFiber((fiber) => Effect.sync(() => {
    counter++
    const thing = { id: `CR${String(counter).padStart(12, "0")}`, created_at: "2026-11-21T00:00:00.000Z", name: JSON.stringify(input) }
    stored.set(thing.id, thing)
    workingFor.set(thing.id, fiber.getRef(WorkingOrganisation))
    return thing
  }))

const getThing = (request: ApiRequest) => {
  const thing = stored.get(paramOf(request, "id"))
  return thing === undefined ? Effect.fail(new NotFound({ resource: "creditors", id: paramOf(request, "id") })) : Effect.succeed(ok({ creditors: thing }))
}
const table = bindRoutes([
  declare("creditors", creates, () => createHandler("creditors", Schema.Unknown, make)),
  declare("creditors", gets, () => getThing),
  declare("outbound_payments", pays, () => createHandler("outbound_payments", Schema.Unknown, make))
], Effect.void)

let runtime: ManagedRuntime.ManagedRuntime<HttpServer.HttpServer | AccessTokens, unknown>
let url: string
const client = (token: string) => {
  const c = new GoCardlessClient(token)
  ;(c as unknown as { _api: { _baseUrl: string } })._api._baseUrl = url
  return c
}

beforeAll(async () => {
  const layer = serveHttpApp(apiDispatcher(table), { port: 0, host: "127.0.0.1" }).pipe(
    Layer.provideMerge(Layer.mergeAll(AccessTokens.layerMemory, IdempotencyStore.layerMemory, RateLimiter.layerMemory)),
    Layer.provide(Layer.succeed(RequestLog, silentRequestLog))
  )
  runtime = ManagedRuntime.make(layer)
  url = await runtime.runPromise(serverUrl)
})
afterAll(async () => {
  await runtime.dispose()
})

const token = (organisation: string, scope: "read_write" | "read_only" = "read_write") =>
  runtime.runPromise(issueAccessToken({ id: `AT_${organisation}_${scope}`, organisation, scope }))

describe("idempotency through the official client", () => {
  it("any reuse of a key, with the same body or another, creates nothing: 409 naming the first resource", async () => {
    const authorization = `Bearer ${await token("OR000000001DEM")}`
    const post = (name: string) =>
      fetch(`${url}/creditors`, {
        method: "POST",
        headers: { authorization, "gocardless-version": "2015-07-06", "content-type": "application/json", "idempotency-key": "key-1" },
        body: JSON.stringify({ creditors: { name } })
      })
    const before = counter
    const first = await post("A")
    expect(first.status).toBe(201)
    const id = ((await first.json()) as { creditors: { id: string } }).creditors.id
    for (const name of ["A", "B"]) {
      const again = await post(name)
      expect(again.status).toBe(409)
      expect(await again.json()).toMatchObject({
        error: {
          type: "invalid_state",
          code: 409,
          errors: [{ reason: "idempotent_creation_conflict", links: { conflicting_resource_id: id } }]
        }
      })
    }
    expect(counter).toBe(before + 1)
  })

  it("the official client fetches the conflicting resource by default, and raises naming it when asked to", async () => {
    const c = client(await token("OR00000001DEM2"))
    const before = counter
    const first = await c.creditors.create({ name: "B" } as never, "key-2")
    for (const body of [{ name: "B" }, { name: "C" }]) {
      const fetched = await c.creditors.create(body as never, "key-2")
      expect(fetched.id).toBe(first.id)
      expect((fetched.__response__ as { statusCode: number }).statusCode).toBe(200)
    }
    const strict = new GoCardlessClient(await token("OR00000001DEM2", "read_write"), undefined, { raiseOnIdempotencyConflict: true })
    ;(strict as unknown as { _api: { _baseUrl: string } })._api._baseUrl = url
    const error = await strict.creditors.create({ name: "B" } as never, "key-2").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IdempotentCreationConflictError)
    expect((error as IdempotentCreationConflictError).conflictingResourceId).toBe(first.id)
    expect((error as IdempotentCreationConflictError).code).toBe(409)
    expect(counter).toBe(before + 1)
  })

  it("keys are per organisation", async () => {
    const a = await client(await token("OR0000000000K1")).creditors.create({ name: "D" } as never, "shared")
    const b = await client(await token("OR0000000000K2")).creditors.create({ name: "E" } as never, "shared")
    expect(a.id).not.toBe(b.id)
    // The handler and its key ran as the token's organisation's work (a distributed store routes by it).
    expect([workingFor.get(a.id ?? ""), workingFor.get(b.id ?? "")]).toEqual(["OR0000000000K1", "OR0000000000K2"])
  })
})

describe("scopes and rate limits", () => {
  it("a read_only token cannot write: 403 PermissionsError", async () => {
    const error = await client(await token("OR0000000000R0", "read_only")).creditors.create({ name: "x" } as never).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PermissionsError)
    expect((error as PermissionsError).code).toBe(403)
  })

  it("outbound payment writes stop at the limit with 429 and RateLimit headers", async () => {
    const c = client(await token("OR00000000RATE"))
    let last: unknown
    // The limit counts per clock minute: if the requests straddle a minute boundary, the second
    // window still fills within twice the limit (they finish well within a minute).
    for (let i = 0; i <= 2 * OUTBOUND_PAYMENT_WRITES.limitPerMinute; i++) {
      last = await c.outboundPayments.create({ amount: i } as never).catch((e: unknown) => e)
      if (last instanceof Error) break
    }
    expect(last).toBeInstanceOf(RateLimitError)
    const headers = ((last as RateLimitError).response as unknown as { headers: Record<string, string> }).headers
    expect(headers["ratelimit-limit"]).toBe(String(OUTBOUND_PAYMENT_WRITES.limitPerMinute))
    expect(headers["ratelimit-remaining"]).toBe("0")
    expect(Number(headers["ratelimit-reset"])).toBeGreaterThan(0)
  })
})
