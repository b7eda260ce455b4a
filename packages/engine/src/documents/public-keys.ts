import { constants, createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject, publicEncrypt, randomBytes } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, type IdGenerator, InvalidApiUsage, invalidField, InvalidState, newId, type NotFound, now, type OrganisationId, type StorageError, type ValidationFailed } from "@paykit/core"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { captureIdGenerator, insertNew, save } from "../kernel/support.ts"
import { PUBLIC_KEY_MAX_CHARACTERS, PUBLIC_KEY_MIN_BITS, PUBLIC_KEYS, type PublicKey, PublicKeyCreateRequest, PublicKeyListParams } from "./domain/public-keys.ts"
import { PublicKeyRepository } from "./repositories.ts"

const decodeCreate = decodeAtBoundary(PublicKeyCreateRequest, PUBLIC_KEYS, { public_key: PUBLIC_KEY_MAX_CHARACTERS })
const decodeList = decodeAtBoundary(PublicKeyListParams, PUBLIC_KEYS)

/** The header naming the caller's public key (spec: `GET /bank_account_details/:id`). */
export const SVC_KEY_ID_HEADER = "svc-key-id"

type KeyInput = string | { readonly key: JsonWebKey; readonly format: "jwk" }

/** A PEM (`-----BEGIN`) or, failing that, a JWK given as JSON text, as node:crypto reads it. */
const keyInputOf = (text: string): KeyInput | undefined => {
  if (text.trimStart().startsWith("-----BEGIN")) return text
  try {
    const jwk: unknown = JSON.parse(text)
    return typeof jwk === "object" && jwk !== null ? { key: jwk as JsonWebKey, format: "jwk" } : undefined
  } catch {
    // Not JSON: neither form; the caller is told, below.
    return undefined
  }
}

/** Whether node reads the input as a private key (`createPublicKey` would quietly derive the public half of one). */
const isPrivate = (input: KeyInput): boolean => {
  try {
    createPrivateKey(input)
    return true
  } catch {
    return false
  }
}

const publicKeyOf = (input: KeyInput): KeyObject | undefined => {
  try {
    return createPublicKey(input)
  } catch {
    // Not a key node can read: the caller is told, below.
    return undefined
  }
}

/**
 * OpenSSL reads keys it later refuses to encrypt with (a modulus over 16384 bits or an even one, too
 * large an exponent); trying once here turns that into a 422 now rather than a 500 on every read
 * that would use the key.
 */
const canEncryptTo = (key: KeyObject): boolean => {
  try {
    publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, randomBytes(32))
    return true
  } catch {
    return false
  }
}

/** The key as stored (SPKI PEM and its size), or the field error of a key that is not an RSA key of 2048 bits or more. */
export const checkPublicKey = (text: string): { readonly pem: string; readonly bits: number } | ValidationFailed => {
  const input = keyInputOf(text)
  // A private key given here is refused rather than reduced to its public half: it should never have been sent.
  if (input !== undefined && isPrivate(input)) return invalidField(PUBLIC_KEYS, ["public_key"], "must be a public key, not a private one")
  const key = input === undefined ? undefined : publicKeyOf(input)
  if (key === undefined) return invalidField(PUBLIC_KEYS, ["public_key"], "must be a public key in PEM or JWK form")
  const bits = key.asymmetricKeyDetails?.modulusLength
  if (key.asymmetricKeyType !== "rsa" || bits === undefined) return invalidField(PUBLIC_KEYS, ["public_key"], "must be an RSA key")
  if (bits < PUBLIC_KEY_MIN_BITS) return invalidField(PUBLIC_KEYS, ["public_key"], `must be at least ${PUBLIC_KEY_MIN_BITS} bits long`)
  if (!canEncryptTo(key)) return invalidField(PUBLIC_KEYS, ["public_key"], "must be an RSA key that RSA-OAEP can encrypt to (an odd modulus of at most 16384 bits, an exponent of at most 64 bits)")
  return { pem: key.export({ type: "spki", format: "pem" }).toString(), bits }
}


/** Whether a read without `Svc-Key-Id` uses the organisation's newest enabled key, or is refused. */
export type KeyFallback = "required" | "newest"

const missing = (fallback: KeyFallback) =>
  new InvalidApiUsage({
    status: 400,
    reason: "missing_svc_key_id",
    message: fallback === "required"
      ? "The Svc-Key-Id header naming one of your public keys is required"
      : "No enabled public key: register one with POST /public_keys or name one in the Svc-Key-Id header"
  })

/**
 * The organisation's RSA public keys (paykit's own extension; the spec does not show how the key
 * `Svc-Key-Id` names is set up). `usable` is what the encrypting reads call: the key named, if it
 * is the organisation's and enabled; with no id, a refusal or (where the spec names no header)
 * the organisation's newest enabled key.
 */
export class PublicKeys extends Context.Service<PublicKeys, {
  readonly create: (organisation: OrganisationId, command: typeof PublicKeyCreateRequest.Encoded) => Effect.Effect<PublicKey, ValidationFailed | StorageError>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<PublicKey, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof PublicKeyListParams.Encoded) => Effect.Effect<Page<PublicKey>, ValidationFailed | StorageError>
  /** Disables the key for good; a disabled key answers `disable_failed`. */
  readonly disable: (organisation: OrganisationId, id: string) => Effect.Effect<PublicKey, NotFound | InvalidState | StorageError>
  readonly usable: (organisation: OrganisationId, id: string | undefined, fallback: KeyFallback) => Effect.Effect<PublicKey, InvalidApiUsage | StorageError>
}>()("@paykit/engine/PublicKeys") {
  static readonly layer: Layer.Layer<PublicKeys, never, PublicKeyRepository | Transactor | IdGenerator> = Layer.effect(
    PublicKeys,
    Effect.gen(function*() {
      const keys = yield* PublicKeyRepository
      const transactor = yield* Transactor
      const provideIds = yield* captureIdGenerator

      const create = (organisation: string, command: PublicKeyCreateRequest) =>
        Effect.gen(function*() {
          const checked = checkPublicKey(command.public_key)
          if ("_tag" in checked) return yield* checked
          const key: PublicKey = { id: yield* newId("public_key"), created_at: yield* now, enabled: true, public_key: checked.pem, key_size: checked.bits }
          return (yield* insertNew(keys, organisation, key)).resource
        })

      const disable = (organisation: string, id: string) =>
        Effect.gen(function*() {
          const current = yield* keys.get(organisation, id)
          if (!current.resource.enabled) {
            return yield* new InvalidState({ reason: "disable_failed", message: "The public key is already disabled", links: { public_key: id } })
          }
          return (yield* save(keys, organisation, current, { ...current.resource, enabled: false })).resource
        })

      const newest = (organisation: string) =>
        // An organisation holds a handful of keys: the newest is the largest id (ids grow with time).
        Effect.map(keys.scan(organisation, { enabled: eq("true") }), (rows) =>
          rows.map((row) => row.resource).reduce<PublicKey | undefined>((best, key) => best === undefined || key.id > best.id ? key : best, undefined))

      const named = (organisation: string, id: string) =>
        Effect.flatMap(Effect.option(keys.get(organisation, id)), (found) =>
          found._tag === "Some" && found.value.resource.enabled
            ? Effect.succeed(found.value.resource)
            : Effect.fail(new InvalidApiUsage({ status: 400, reason: "invalid_svc_key_id", message: `Svc-Key-Id ${id} names no enabled public key of this organisation` })))

      const usable = (organisation: string, id: string | undefined, fallback: KeyFallback) =>
        id !== undefined
          ? named(organisation, id)
          : fallback === "newest"
          ? Effect.flatMap(newest(organisation), (found) => found === undefined ? Effect.fail(missing(fallback)) : Effect.succeed(found))
          : Effect.fail(missing(fallback))

      return PublicKeys.of({
        create: (o, command) => Effect.flatMap(decodeCreate(command), (c) => transactor.transaction(provideIds(create(o, c)))),
        get: (o, id) => Effect.map(keys.get(o, id), (v) => v.resource),
        list: (o, plain) => Effect.flatMap(decodeList(plain), (params) => keys.list(o, toListQuery(params, { enabled: params.enabled === undefined ? undefined : eq(params.enabled) }))),
        disable: (o, id) => transactor.transaction(disable(o, id)),
        usable
      })
    })
  )
}
