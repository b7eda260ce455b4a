import { Context, Layer } from "effect"
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"

/**
 * The server key that seals webhook signing secrets at rest. A signing secret must be read back to
 * sign, so it cannot be hashed as access tokens are: it is encrypted with AES-256-GCM under this
 * key, with the organisation and endpoint id as associated data (a sealed secret copied onto
 * another endpoint or organisation does not open). docs/webhooks.md says where the key comes from.
 */

/** The key's length in bytes (AES-256). */
export const WEBHOOK_SECRET_KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16
const FORMAT = "v1"

export class WebhookSecretKey extends Context.Service<WebhookSecretKey, {
  readonly seal: (plain: string, context: string) => string
  /** The secret, or undefined when the box was sealed under another key or context, or was altered. */
  readonly open: (sealed: string, context: string) => string | undefined
  /** `plain` sealed as bytes (IV, tag, ciphertext): for records too large to carry as text twice over (bank files). */
  readonly sealBytes: (plain: Uint8Array, context: string) => Uint8Array
  /** The bytes, or undefined when sealed under another key or context, or altered. */
  readonly openBytes: (sealed: Uint8Array, context: string) => Uint8Array | undefined
}>()("@paykit/engine/WebhookSecretKey") {
  /** The box on `key` (32 bytes). */
  static readonly fromKey = (key: Uint8Array): Layer.Layer<WebhookSecretKey> => Layer.sync(WebhookSecretKey, () => makeSecretBox(key))
  /**
   * A key made at start and never written down: for storage that lives no longer than the process
   * (the in-memory adapter), whose sealed secrets die with it.
   */
  static readonly ephemeral: Layer.Layer<WebhookSecretKey> = Layer.sync(WebhookSecretKey, () => makeSecretBox(randomBytes(WEBHOOK_SECRET_KEY_BYTES)))
}

export const makeSecretBox = (key: Uint8Array): WebhookSecretKey["Service"] => {
  if (key.length !== WEBHOOK_SECRET_KEY_BYTES) throw new Error(`the webhook secret key must be ${WEBHOOK_SECRET_KEY_BYTES} bytes`)
  const keyBytes = Buffer.from(key)
  const sealBytes = (plain: Uint8Array, context: string): Uint8Array => {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv("aes-256-gcm", keyBytes, iv).setAAD(Buffer.from(context, "utf8"))
    const body = Buffer.concat([cipher.update(plain), cipher.final()])
    return Buffer.concat([iv, cipher.getAuthTag(), body])
  }
  const openBytes = (sealed: Uint8Array, context: string): Uint8Array | undefined => {
    if (sealed.length < IV_BYTES + TAG_BYTES) return undefined
    try {
      const decipher = createDecipheriv("aes-256-gcm", keyBytes, sealed.subarray(0, IV_BYTES))
        .setAAD(Buffer.from(context, "utf8"))
        .setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()])
    } catch {
      // GCM's authentication failed: another key, another context, or altered bytes.
      return undefined
    }
  }
  return WebhookSecretKey.of({
    seal: (plain, context) => `${FORMAT}.${Buffer.from(sealBytes(Buffer.from(plain, "utf8"), context)).toString("base64")}`,
    open: (sealed, context) => {
      const [format, data] = sealed.split(".")
      if (format !== FORMAT || data === undefined) return undefined
      const plain = openBytes(Buffer.from(data, "base64"), context)
      return plain === undefined ? undefined : Buffer.from(plain).toString("utf8")
    },
    sealBytes,
    openBytes
  })
}
