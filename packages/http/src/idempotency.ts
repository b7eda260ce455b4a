import { Context, Effect, Layer } from "effect"
import { createHash } from "node:crypto"

/**
 * Idempotent creation. A creating POST carries an `Idempotency-Key`; the first request with a key
 * runs and its successful response is kept; a later request with the same key and the same
 * fingerprint gets that response again, and one with a different fingerprint is a conflict naming
 * the resource the key created.
 */

/** What is kept of a successful creation: enough to replay it byte for byte. */
export interface StoredResponse {
  readonly status: number
  readonly body: string
  readonly location: string | null
  /** The id of the resource the request created (`links.conflicting_resource_id` on conflict). */
  readonly resourceId: string | null
}

export type IdempotencyOutcome =
  | { readonly _tag: "Fresh" }
  | { readonly _tag: "Replay"; readonly response: StoredResponse }
  | { readonly _tag: "Conflict"; readonly resourceId: string | null }
  | { readonly _tag: "InProgress" }

/** The longest key accepted (the real API's limit). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 128

/**
 * The port. `begin` is atomic: of two concurrent requests with one key exactly one is `Fresh`.
 * `complete` keeps the response; `abandon` forgets a key whose request failed, so the client can
 * retry with it (the real API keeps only successful creations).
 */
export class IdempotencyStore extends Context.Service<IdempotencyStore, {
  readonly begin: (organisation: string, key: string, fingerprint: string) => Effect.Effect<IdempotencyOutcome>
  readonly complete: (organisation: string, key: string, response: StoredResponse) => Effect.Effect<void>
  readonly abandon: (organisation: string, key: string) => Effect.Effect<void>
}>()("@paykit/http/IdempotencyStore") {
  static readonly layerMemory: Layer.Layer<IdempotencyStore> = Layer.sync(IdempotencyStore, () => {
    type Entry = { readonly fingerprint: string; readonly response: StoredResponse | null }
    const entries = new Map<string, Entry>()
    const slot = (organisation: string, key: string) => `${organisation}\u0000${key}`
    return IdempotencyStore.of({
      begin: (organisation, key, fingerprint) =>
        Effect.sync((): IdempotencyOutcome => {
          const k = slot(organisation, key)
          const existing = entries.get(k)
          if (existing === undefined) {
            entries.set(k, { fingerprint, response: null })
            return { _tag: "Fresh" }
          }
          if (existing.response === null) return { _tag: "InProgress" }
          if (existing.fingerprint !== fingerprint) return { _tag: "Conflict", resourceId: existing.response.resourceId }
          return { _tag: "Replay", response: existing.response }
        }),
      complete: (organisation, key, response) =>
        Effect.sync(() => {
          const k = slot(organisation, key)
          const existing = entries.get(k)
          if (existing !== undefined) entries.set(k, { fingerprint: existing.fingerprint, response })
        }),
      abandon: (organisation, key) => Effect.sync(() => void entries.delete(slot(organisation, key)))
    })
  })
}

/** The fingerprint of a request: method, path and the exact body. */
export const requestFingerprint = (method: string, path: string, body: string): string =>
  createHash("sha256").update(`${method}\n${path}\n${body}`, "utf8").digest("hex")
