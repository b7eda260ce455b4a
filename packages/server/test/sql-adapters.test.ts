import { OrganisationId } from "@paykit/core"
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AccessTokens, authenticate, DISPLAY_PREFIX_LENGTH, issueAccessToken } from "@paykit/http"
import { makeSqlDueWorkStore, migrate, PgliteClient } from "@paykit/store-sql"
import { DueWorkSchedule } from "@paykit/engine"
import { migrateServer, Organisations, SqlAccessTokens } from "../src/index.ts"

const database = Layer.effectDiscard(Effect.andThen(migrate(), migrateServer)).pipe(Layer.provideMerge(PgliteClient.layer({})))
// A new organisation gets its first daily run through the due-work schedule.
const schedule = Layer.effect(DueWorkSchedule, Effect.map(makeSqlDueWorkStore, (store) => DueWorkSchedule.of({ schedule: store.schedule })))
const runtime = ManagedRuntime.make(Layer.mergeAll(SqlAccessTokens, Organisations.layerSql).pipe(Layer.provide(schedule), Layer.provideMerge(database)))
const run = <A, E>(effect: Effect.Effect<A, E, AccessTokens | Organisations | SqlClient.SqlClient>) => runtime.runPromise(effect)

const ORG = OrganisationId("OR0000000000TE")

beforeAll(() => run(Effect.flatMap(Organisations, (o) => o.insert({ id: ORG, name: "Test", environment: "sandbox", origin: "operator" }))))
afterAll(() => runtime.dispose())

describe("SqlAccessTokens", () => {
  it("authenticates an issued token, then refuses it once revoked or inactive", async () => {
    const results = await run(Effect.gen(function*() {
      const token = yield* issueAccessToken({ id: "AT_sql_1", organisation: ORG, scope: "read_only" })
      const tokens = yield* AccessTokens
      const check = Effect.match(authenticate(`Bearer ${token}`), { onFailure: (e) => e.reason, onSuccess: (caller) => caller })
      const active = yield* check
      yield* tokens.move("AT_sql_1", "deactivate")
      const inactive = yield* check
      yield* tokens.move("AT_sql_1", "revoke")
      return [token, active, inactive, yield* check, yield* Effect.match(authenticate("Bearer nope"), { onFailure: (e) => e.reason, onSuccess: () => "accepted" })]
    }))
    const [token, ...outcomes] = results
    expect(outcomes).toEqual([
      { organisation: ORG, scope: "read_only", tokenId: "AT_sql_1", app: null, clockOffsetMillis: 0, tokenPrefix: String(token).slice(0, DISPLAY_PREFIX_LENGTH) },
      "access_token_not_active",
      "access_token_revoked",
      "access_token_not_found"
    ])
  })

  it("deactivating moves only an active token, revoking an active or inactive one: a revoked one stays revoked; statusOf reads it", async () => {
    const statuses = await run(Effect.gen(function*() {
      yield* issueAccessToken({ id: "AT_sql_2", organisation: ORG, scope: "read_write" })
      yield* issueAccessToken({ id: "AT_sql_3", organisation: ORG, scope: "read_write" })
      const tokens = yield* AccessTokens
      yield* issueAccessToken({ id: "AT_sql_4", organisation: ORG, scope: "read_write" })
      yield* tokens.move("AT_sql_3", "revoke")
      yield* tokens.move("AT_sql_2", "deactivate")
      yield* tokens.move("AT_sql_3", "deactivate")
      yield* tokens.move("AT_sql_4", "deactivate")
      yield* tokens.move("AT_sql_4", "revoke")
      yield* tokens.move("AT_none", "revoke")
      return [yield* tokens.statusOf("AT_sql_2"), yield* tokens.statusOf("AT_sql_3"), yield* tokens.statusOf("AT_sql_4"), yield* tokens.statusOf("AT_none")]
    }))
    expect(statuses).toEqual(["inactive", "revoked", "revoked", undefined])
  })

  it("a partner app's token keeps its app across the store (organisation and creditor); an own token has none", async () => {
    const PARTNER = "OR0000000PARTN"
    const callers = await run(Effect.gen(function*() {
      yield* Effect.flatMap(Organisations, (o) => o.insert({ id: PARTNER, name: "Partner", environment: "sandbox", origin: "operator" }))
      const app = { organisation: PARTNER, creditor: "CR_partner" }
      const appToken = yield* issueAccessToken({ id: "AT_sql_app", organisation: ORG, scope: "read_write", app })
      const ownToken = yield* issueAccessToken({ id: "AT_sql_own", organisation: ORG, scope: "read_write" })
      return [yield* authenticate(`Bearer ${appToken}`), yield* authenticate(`Bearer ${ownToken}`)]
    }))
    expect(callers.map((c) => c.app)).toEqual([{ organisation: PARTNER, creditor: "CR_partner" }, null])
  })

  it("a token brings its organisation's clock: a clock moved after it was issued, and one moved before (migration 0008)", async () => {
    const CLOCKED = "OR00000000C10C"
    const offsets = await run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* Effect.flatMap(Organisations, (o) => o.insert({ id: CLOCKED, name: "Clocked", environment: "sandbox", origin: "operator" }))
      const offsetOf = (token: string) => Effect.map(authenticate(`Bearer ${token}`), (caller) => caller.clockOffsetMillis)
      const before = yield* issueAccessToken({ id: "AT_clock_1", organisation: CLOCKED, scope: "read_write" })
      const fresh = yield* offsetOf(before)
      // What a sandbox advance does (store-sql's raiseOffset): a new row, then an update of it.
      yield* sql`INSERT INTO organisation_clocks (organisation_id, offset_ms) VALUES (${CLOCKED}, ${86_400_000})`
      const moved = yield* offsetOf(before)
      yield* sql`UPDATE organisation_clocks SET offset_ms = ${2 * 86_400_000} WHERE organisation_id = ${CLOCKED}`
      const movedAgain = yield* offsetOf(before)
      const after = yield* issueAccessToken({ id: "AT_clock_2", organisation: CLOCKED, scope: "read_write" })
      // Another organisation's tokens keep their own clock.
      const other = yield* issueAccessToken({ id: "AT_clock_3", organisation: ORG, scope: "read_write" })
      return [fresh, moved, movedAgain, yield* offsetOf(after), yield* offsetOf(other)]
    }))
    expect(offsets).toEqual([0, 86_400_000, 2 * 86_400_000, 2 * 86_400_000, 0])
  })

  it("a token of an organisation the server does not host cannot be stored", async () => {
    const exit = await runtime.runPromiseExit(issueAccessToken({ id: "AT_sql_2", organisation: "OR00000N0WHERE", scope: "read_write" }))
    expect(exit._tag).toBe("Failure")
  })
})
