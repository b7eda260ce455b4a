import { Schema } from "effect"
import { ID_PREFIXES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id } from "../../kernel/fields.ts"
import { listFields } from "../../kernel/list-params.ts"

/** The API key of public keys (paykit's own extension): the root of their requests and answers. */
export const PUBLIC_KEYS = "public_keys"

/** The smallest RSA modulus accepted, in bits (the spec's `kid` names an RSA-2048 key). */
export const PUBLIC_KEY_MIN_BITS = 2048
/** A PEM or JWK of an RSA key up to 16384 bits is well under this; longer is not a public key. */
export const PUBLIC_KEY_MAX_CHARACTERS = 16_384

/**
 * A caller's RSA public key, which `GET /bank_account_details/:id` (header `Svc-Key-Id`) and
 * `GET /transferred_mandates/:id` encrypt to. Stored as given, normalised to SPKI PEM; a key is
 * never deleted, only disabled, so an id once answered keeps naming the same key.
 */
export const PublicKey = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  enabled: Schema.Boolean,
  /** The key as SPKI PEM, whatever form it was given in. */
  public_key: Schema.String,
  /** The modulus length in bits. */
  key_size: Schema.Int
})
export type PublicKey = typeof PublicKey.Type

export const publicKeys = defineResource({
  name: PUBLIC_KEYS,
  idPrefix: ID_PREFIXES.public_key,
  schema: PublicKey,
  filters: {
    created_at: (r: PublicKey) => r.created_at,
    enabled: (r: PublicKey) => String(r.enabled)
  }
})

/** `POST /public_keys`'s body (under `public_keys`): a PEM (SPKI or PKCS#1) or a JWK as a JSON string. */
export const PublicKeyCreateRequest = Schema.Struct({
  public_key: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(PUBLIC_KEY_MAX_CHARACTERS))
})
export type PublicKeyCreateRequest = typeof PublicKeyCreateRequest.Type

export const PublicKeyListParams = Schema.Struct({
  ...listFields("public_key"),
  enabled: Schema.optionalKey(Schema.Literals(["true", "false"]))
})
export type PublicKeyListParams = typeof PublicKeyListParams.Type
