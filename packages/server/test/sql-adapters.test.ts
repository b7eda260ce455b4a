import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AccessTokens, authenticate, IdempotencyStore, issueAccessToken, type StoredResponse } from "@paykit/http"
import { migrate, PgliteClient } from "@paykit/store-sql"
import { migrateServer, Organisations, SqlAccessTokens, SqlIdempotencyStore, STALE_CLAIM_SECONDS } from "../src/index.ts"

const database = Layer.effectDiscard(Effect.andThen(migrate(), migrateServer)).pipe(Layer.provideMerge(PgliteClient.layer({})))
const runtime = ManagedRuntime.make(Layer.mergeAll(SqlAccessTokens, SqlIdempotencyStore, Organisations.layerSql).pipe(Layer.provideMerge(database)))
const run = <A, E>(effect: Effect.Effect<A, E, AccessTokens | IdempotencyStore | Organisations | SqlClient.SqlClient>) => runtime.runPromise(effect)

const ORG = "OR0000000000TEST"
const response = (resourceId: string): StoredResponse => ({ status: 201, body: `{"creditors":{"id":"${resourceId}"}}`, location: `/creditors/${resourceId}`, resourceId })

beforeAll(() => run(Effect.flatMap(Organisations, (o) => o.insert({ id: ORG, name: "Test", environment: "sandbox" }))))
afterAll(() => runtime.dispose())

describe("SqlIdempotencyStore", () => {
  it("of concurrent first requests with one key exactly one is fresh; the others wait as in progress", async () => {
    const outcomes = await run(Effect.flatMap(IdempotencyStore, (store) =>
      Effect.all(Array.from({ length: 8 }, () => store.begin(ORG, "concurrent", "fp")), { concurrency: "unbounded" })))
    expect(outcomes.filter((o) => o._tag === "Fresh")).toHaveLength(1)
    expect(outcomes.filter((o) => o._tag === "InProgress")).toHaveLength(7)
  })

  it("replays a completed key with the same fingerprint, and names the resource on a conflict", async () => {
    const outcomes = await run(Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.begin(ORG, "replay", "fp-1")
      yield* store.complete(ORG, "replay", response("CR1"))
      return [yield* store.begin(ORG, "replay", "fp-1"), yield* store.begin(ORG, "replay", "fp-2"), yield* store.begin("OR_OTHER", "replay", "fp-2")]
    }))
    expect(outcomes).toEqual([{ _tag: "Replay", response: response("CR1") }, { _tag: "Conflict", resourceId: "CR1" }, { _tag: "Fresh" }])
  })

  it("an abandoned key is free again; a completed one cannot be abandoned", async () => {
    const outcomes = await run(Effect.gen(function*() {
      const store = yield* IdempotencyStore
      yield* store.begin(ORG, "abandon", "fp")
      yield* store.abandon(ORG, "abandon")
      const again = yield* store.begin(ORG, "abandon", "fp-other")
      yield* store.complete(ORG, "abandon", response("CR2"))
      yield* store.abandon(ORG, "abandon")
      return [again, yield* store.begin(ORG, "abandon", "fp-other")]
    }))
    expect(outcomes).toEqual([{ _tag: "Fresh" }, { _tag: "Replay", response: response("CR2") }])
  })

  it("a claim left incomplete longer than the stale limit is taken over", async () => {
    const outcome = await run(Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const sql = yield* SqlClient.SqlClient
      yield* store.begin(ORG, "stale", "fp")
      yield* sql`UPDATE idempotency_keys SET created_at = now() - make_interval(secs => ${STALE_CLAIM_SECONDS + 1}) WHERE key = 'stale'`
      return yield* store.begin(ORG, "stale", "fp-new")
    }))
    expect(outcome).toEqual({ _tag: "Fresh" })
  })
})

describe("SqlAccessTokens", () => {
  it("authenticates an issued token, then refuses it once revoked or inactive", async () => {
    const results = await run(Effect.gen(function*() {
      const token = yield* issueAccessToken({ id: "AT_sql_1", organisation: ORG, scope: "read_only" })
      const tokens = yield* AccessTokens
      const check = Effect.match(authenticate(`Bearer ${token}`), { onFailure: (e) => e.reason, onSuccess: (caller) => caller })
      const active = yield* check
      yield* tokens.setStatus("AT_sql_1", "inactive")
      const inactive = yield* check
      yield* tokens.setStatus("AT_sql_1", "revoked")
      return [active, inactive, yield* check, yield* Effect.match(authenticate("Bearer nope"), { onFailure: (e) => e.reason, onSuccess: () => "accepted" })]
    }))
    expect(results).toEqual([
      { organisation: ORG, scope: "read_only", tokenId: "AT_sql_1", app: null },
      "access_token_not_active",
      "access_token_revoked",
      "access_token_not_found"
    ])
  })

  it("a partner app's token keeps its app across the store (organisation and creditor); an own token has none", async () => {
    const PARTNER = "OR0000000PARTNER"
    const callers = await run(Effect.gen(function*() {
      yield* Effect.flatMap(Organisations, (o) => o.insert({ id: PARTNER, name: "Partner", environment: "sandbox" }))
      const app = { organisation: PARTNER, creditor: "CR_partner" }
      const appToken = yield* issueAccessToken({ id: "AT_sql_app", organisation: ORG, scope: "read_write", app })
      const ownToken = yield* issueAccessToken({ id: "AT_sql_own", organisation: ORG, scope: "read_write" })
      return [yield* authenticate(`Bearer ${appToken}`), yield* authenticate(`Bearer ${ownToken}`)]
    }))
    expect(callers.map((c) => c.app)).toEqual([{ organisation: PARTNER, creditor: "CR_partner" }, null])
  })

  it("a token of an organisation the server does not host cannot be stored", async () => {
    const exit = await runtime.runPromiseExit(issueAccessToken({ id: "AT_sql_2", organisation: "OR_NOWHERE", scope: "read_write" }))
    expect(exit._tag).toBe("Failure")
  })
})
