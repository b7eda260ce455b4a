import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { AccessTokens, authenticateWith, hashToken } from "../src/index.ts"

/** The token states of docs/oauth.md on the in-memory adapter, and a disabled app's token refused. */

const run = <A>(effect: Effect.Effect<A, never, AccessTokens>) => Effect.runPromise(Effect.provide(effect, AccessTokens.layerMemory))

describe("access token states", () => {
  it("deactivating moves only an active token, revoking an active or inactive one: a revoked one stays revoked; statusOf reads it", async () => {
    const statuses = await run(Effect.gen(function*() {
      const tokens = yield* AccessTokens
      for (const id of ["AT1", "AT2", "AT3"]) yield* tokens.insert({ id, organisation: "OR000000000003", scope: "read_write", tokenHash: hashToken(id), status: "active" })
      yield* tokens.move("AT2", "revoke")
      yield* tokens.move("AT1", "deactivate")
      yield* tokens.move("AT2", "deactivate")
      yield* tokens.move("AT3", "deactivate")
      yield* tokens.move("AT3", "deactivate")
      yield* tokens.move("AT3", "revoke")
      yield* tokens.move("AT4", "revoke")
      return [yield* tokens.statusOf("AT1"), yield* tokens.statusOf("AT2"), yield* tokens.statusOf("AT3"), yield* tokens.statusOf("AT4")]
    }))
    expect(statuses).toEqual(["inactive", "revoked", "revoked", undefined])
  })

  it("a token whose app is disabled is not active, whatever its own status says; a revoked one still reads revoked", async () => {
    const reasons = await run(Effect.gen(function*() {
      const tokens = yield* AccessTokens
      const app = { organisation: "OR000000000APP", creditor: "CR_APP" }
      yield* tokens.insert({ id: "AT1", organisation: "OR000000000003", scope: "read_write", tokenHash: hashToken("t1"), status: "active", app, appDisabled: true })
      yield* tokens.insert({ id: "AT2", organisation: "OR000000000003", scope: "read_write", tokenHash: hashToken("t2"), status: "revoked", app, appDisabled: true })
      const reason = (token: string) => Effect.match(authenticateWith(tokens, `Bearer ${token}`), { onFailure: (e) => e.reason, onSuccess: () => "ok" })
      return [yield* reason("t1"), yield* reason("t2")]
    }))
    expect(reasons).toEqual(["access_token_not_active", "access_token_revoked"])
  })
})
