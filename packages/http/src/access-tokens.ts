import { Clock, Context, Effect, Layer } from "effect"
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import { InvalidApiUsage, timestampFromMillis, OrganisationId } from "@paykit/core"
import {
  ACCESS_TOKEN_STATUSES,
  type AccessTokenEvent,
  accessTokenMachine,
  type AccessTokenStatus,
  createdState,
  stateAfter
} from "@paykit/machines"
import type { PartnerApp } from "@paykit/engine"
import type { AccessScope, CallerShape } from "./request-context.ts"

/**
 * Access tokens. Only the SHA-256 of a token is stored; a presented token is hashed and compared
 * with the stored hash in constant time. A token belongs to one organisation and has one scope.
 */

export { ACCESS_TOKEN_STATUSES, type AccessTokenEvent, type AccessTokenStatus }

export interface AccessTokenRecord {
  readonly id: string
  readonly organisation: string
  readonly scope: AccessScope
  /** Hex SHA-256 of the token. */
  readonly tokenHash: string
  readonly status: AccessTokenStatus
  /**
   * The partner app the token was issued to (an organisation of its own and the creditor there
   * that receives its app fees), absent for the organisation's own tokens. Requests made with it
   * create payments and subscriptions for the app (the engine's `CallingApp`) and may carry
   * `app_fee`.
   */
  readonly app?: PartnerApp
  /** Whether the app's payment pages are approved as scheme-rules compliant (read with the token; absent: not). */
  readonly appPaymentPagesApproved?: boolean
  /** The app the token was issued to is disabled: the token is refused whatever its own status (a token issued in a race with the disabling). */
  readonly appDisabled?: boolean
  /**
   * How far the organisation's sandbox clock runs ahead of real time, read with the token (one
   * query): every request runs under its organisation's clock, and an advance made through another
   * process is seen by the next request here. Absent or 0 on real time (live mode).
   */
  readonly clockOffsetMillis?: number
  /**
   * The token's first characters, safe to show (`issueAccessToken`), stored when paykit made the
   * token; absent for a token given to it (`PAYKIT_SANDBOX_TOKEN`) and for those made before.
   */
  readonly displayPrefix?: string
}

/** The token after `event` by its machine at `at`; undefined where the machine refuses it (a revoked token stays revoked). */
export const tokenAfter = (record: AccessTokenRecord, event: AccessTokenEvent, atMillis: number): AccessTokenRecord | undefined => {
  const status = stateAfter(accessTokenMachine, record.status, event, {}, timestampFromMillis(atMillis))
  return status === undefined ? undefined : { ...record, status }
}

/** The port: look a token up by its hash (an index lookup in SQL), list nothing else. */
export class AccessTokens extends Context.Service<AccessTokens, {
  readonly findByHash: (tokenHash: string) => Effect.Effect<AccessTokenRecord | undefined>
  readonly insert: (record: AccessTokenRecord) => Effect.Effect<void>
  /**
   * Moves the token by its machine (`accessTokenMachine`), read and written in one step: revoking
   * ends an active or inactive token, deactivating an active one; an event the machine refuses
   * (a revoked token revoked again or deactivated) leaves it as it is.
   */
  readonly move: (id: string, event: AccessTokenEvent) => Effect.Effect<void>
  readonly statusOf: (id: string) => Effect.Effect<AccessTokenStatus | undefined>
}>()("@paykit/http/AccessTokens") {
  /** The in-memory adapter, for tests, benchmarks and the embedded server. */
  static readonly layerMemory: Layer.Layer<AccessTokens> = Layer.sync(AccessTokens, () => {
    const byHash = new Map<string, AccessTokenRecord>()
    const hashById = new Map<string, string>()
    const recordOf = (id: string) => {
      const hash = hashById.get(id)
      return hash === undefined ? undefined : byHash.get(hash)
    }
    return AccessTokens.of({
      findByHash: (hash) => Effect.sync(() => byHash.get(hash)),
      insert: (record) =>
        Effect.sync(() => {
          byHash.set(record.tokenHash, record)
          hashById.set(record.id, record.tokenHash)
        }),
      move: (id, event) =>
        Effect.map(Clock.currentTimeMillis, (at) => {
          const record = recordOf(id)
          const next = record === undefined ? undefined : tokenAfter(record, event, at)
          if (next !== undefined) byHash.set(next.tokenHash, next)
        }),
      statusOf: (id) => Effect.sync(() => recordOf(id)?.status)
    })
  })
}

export const hashToken = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex")

/**
 * How many characters of a token's random part its display prefix shows after the fixed
 * `paykit_rw_`: 4 base64url characters, 24 of its 256 bits, enough to tell an organisation's
 * tokens apart and far too few to guess the rest from.
 */
export const DISPLAY_PREFIX_RANDOM_CHARACTERS = 4

/** A made token's fixed start, by scope (both the same length). */
const tokenHead = (scope: AccessScope): string => `paykit_${scope === "read_only" ? "ro" : "rw"}_`

/** How long a display prefix is: the fixed start and `DISPLAY_PREFIX_RANDOM_CHARACTERS`. */
export const DISPLAY_PREFIX_LENGTH = tokenHead("read_write").length + DISPLAY_PREFIX_RANDOM_CHARACTERS

/** A fresh token (shown to its owner once) and the record to store for it, its display prefix with it. */
export const issueAccessToken = (options: {
  readonly id: string
  readonly organisation: string
  readonly scope: AccessScope
  readonly app?: PartnerApp
}): Effect.Effect<string, never, AccessTokens> =>
  Effect.gen(function*() {
    const token = `${tokenHead(options.scope)}${randomBytes(32).toString("base64url")}`
    const store = yield* AccessTokens
    yield* store.insert({
      ...options,
      tokenHash: hashToken(token),
      status: createdState(accessTokenMachine, "active"),
      displayPrefix: token.slice(0, DISPLAY_PREFIX_LENGTH)
    })
    return token
  })

const unauthorised = (reason: "access_token_not_found" | "access_token_revoked" | "access_token_not_active", message: string) =>
  new InvalidApiUsage({ status: 401, reason, message })

const sameHash = (a: string, b: string): boolean => {
  const left = Buffer.from(a, "hex")
  const right = Buffer.from(b, "hex")
  return left.length === right.length && timingSafeEqual(left, right)
}

const BEARER = /^Bearer +(\S+) *$/i

/** The token of an `Authorization: Bearer <token>` header value; undefined for any other. */
export const bearerTokenOf = (authorization: string | undefined): string | undefined =>
  authorization === undefined ? undefined : BEARER.exec(authorization)?.[1]

/**
 * Authenticates the `Authorization` header value against a token store: the caller, or a 401 with
 * the spec's reason. Takes the store itself so the gateway, which holds it, adds nothing to the
 * request's context.
 */
export const authenticateWith = (
  store: AccessTokens["Service"],
  authorization: string | undefined
): Effect.Effect<CallerShape, InvalidApiUsage> => {
  const token = bearerTokenOf(authorization)
  if (token === undefined) {
    return Effect.fail(unauthorised("access_token_not_found", "Authorization header missing or not a bearer token"))
  }
  const hash = hashToken(token)
  return Effect.flatMap(store.findByHash(hash), (record) => {
    // The lookup is by hash; the constant-time comparison keeps a store that matches by prefix or
    // case-insensitively from turning into a timing oracle.
    if (record === undefined || !sameHash(record.tokenHash, hash)) {
      return Effect.fail(unauthorised("access_token_not_found", "Access token not found"))
    }
    if (record.appDisabled === true && record.status === "active") {
      return Effect.fail(unauthorised("access_token_not_active", "Access token is not active: its app is disabled"))
    }
    switch (record.status) {
      case "revoked":
        return Effect.fail(unauthorised("access_token_revoked", "Access token has been revoked"))
      case "inactive":
        return Effect.fail(unauthorised("access_token_not_active", "Access token is not active"))
      case "active":
        return Effect.succeed({
          organisation: OrganisationId(record.organisation),
          scope: record.scope,
          tokenId: record.id,
          ...(record.displayPrefix === undefined ? {} : { tokenPrefix: record.displayPrefix }),
          app: record.app ?? null,
          ...(record.appPaymentPagesApproved === true ? { appPaymentPagesApproved: true } : {}),
          ...(record.clockOffsetMillis === undefined ? {} : { clockOffsetMillis: record.clockOffsetMillis })
        })
    }
  })
}

/**
 * A token typed into a form (the consent page's login, the import page): taken exactly as given,
 * so one with surrounding or inner whitespace is refused rather than trimmed into a match.
 */
export const authenticateFormToken = (store: AccessTokens["Service"], token: string | undefined): Effect.Effect<CallerShape, InvalidApiUsage> =>
  token === undefined || !/^\S+$/.test(token)
    ? Effect.fail(unauthorised("access_token_not_found", "Access token not found"))
    : authenticateWith(store, `Bearer ${token}`)

/** `authenticateWith` on the `AccessTokens` of the context. */
export const authenticate = (authorization: string | undefined): Effect.Effect<CallerShape, InvalidApiUsage, AccessTokens> =>
  Effect.flatMap(AccessTokens, (store) => authenticateWith(store, authorization))
