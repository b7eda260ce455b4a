import { Cause, ConfigProvider, Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { IdGenerator } from "@paykit/core"
import { ACCESS_SCOPES, type AccessScope, AccessTokens, DISPLAY_PREFIX_LENGTH } from "@paykit/http"
import { type Database, serverConfig } from "../config.ts"
import { sqlClientLayer } from "../server.ts"
import { SqlAccessTokens } from "../sql-access-tokens.ts"
import { startFailureLine } from "../start-failure.ts"
import { createToken, listTokens, organisationOf, revokeToken } from "../tokens.ts"
import { CommandFailure, printResult, type Io, type Parsed, positionalOf, stringOf, UsageError } from "./args.ts"
import { environmentWith, STORAGE_SETTINGS } from "./settings.ts"

/**
 * What `paykit token` does on the configured store (`DATABASE_URL`, else the PGlite directory),
 * with no server in between: loaded by token.ts only when the command runs, since opening a store
 * loads effect, the SQL client and the database.
 */

const storeLayer = (database: Database) =>
  Layer.mergeAll(SqlAccessTokens, IdGenerator.layer).pipe(Layer.provideMerge(sqlClientLayer(database)))

type Store = SqlClient.SqlClient | AccessTokens | IdGenerator

/** Runs `effect` on the store `serverConfig` names; a failure is one line saying why (and what to do, for a database's). */
const onStore = async <A>(parsed: Parsed, io: Io, failed: string, effect: Effect.Effect<A, unknown, Store>): Promise<A> => {
  let database: Database | undefined
  const program = Effect.gen(function*() {
    const config = yield* serverConfig
    database = config.database
    return yield* Effect.provide(effect, storeLayer(config.database))
  })
  const exit = await Effect.runPromiseExit(Effect.provide(program, ConfigProvider.layer(ConfigProvider.fromEnvRecord(environmentWith(parsed, io, STORAGE_SETTINGS)))))
  if (Exit.isSuccess(exit)) return exit.value
  throw new CommandFailure(startFailureLine(exit.cause, database, failed).msg, Cause.pretty(exit.cause))
}

const scopeOf = (parsed: Parsed): AccessScope => {
  const scope = stringOf(parsed, "scope") ?? "read_write"
  const known = ACCESS_SCOPES.find((s) => s === scope)
  if (known === undefined) throw new UsageError(`--scope must be ${ACCESS_SCOPES.join(" or ")}`)
  return known
}

export const create = async (parsed: Parsed, io: Io): Promise<void> => {
  const wanted = stringOf(parsed, "organisation")
  const scope = scopeOf(parsed)
  const made = await onStore(parsed, io, "no token was made", Effect.gen(function*() {
    const organisation = yield* organisationOf(wanted)
    if (organisation === undefined) {
      return yield* Effect.fail(new Error(wanted === undefined
        ? "this store holds no organisation yet: start the server once (paykit start), then make a token"
        : `this store holds no organisation ${wanted}`))
    }
    return yield* createToken(organisation.id, scope)
  }))
  printResult(io, parsed, { access_tokens: made }, [
    `access token ${made.id} (${made.scope}) for organisation ${made.organisation}, shown this once:`,
    made.access_token
  ])
}

export const list = async (parsed: Parsed, io: Io): Promise<void> => {
  const tokens = await onStore(parsed, io, "could not list the tokens", listTokens(stringOf(parsed, "organisation")))
  printResult(io, parsed, { access_tokens: tokens }, tokens.map((t) =>
    `${t.id}  ${t.organisation}  ${(t.display_prefix ?? "-").padEnd(DISPLAY_PREFIX_LENGTH)}  ${t.scope.padEnd(10)}  ${t.status.padEnd(8)}  ${t.created_at}  last used ${t.last_used_at ?? "never"}${t.app_organisation === null ? "" : `  app of ${t.app_organisation}`}`))
}

export const revoke = async (parsed: Parsed, io: Io): Promise<void> => {
  const id = positionalOf(parsed, 1, "token id")
  const status = await onStore(parsed, io, "no token was revoked", revokeToken(id))
  if (status === undefined) throw new CommandFailure(`no access token ${id} in this store`)
  printResult(io, parsed, { access_tokens: { id, status } }, [`${id} ${status}`])
}
