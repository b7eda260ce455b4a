import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto"
import { hostedPageUrl } from "@paykit/engine"

/**
 * The signed URL of a mandate PDF (`POST /mandate_pdfs`'s `url`): the PDF's page with `expires`
 * (epoch milliseconds) and `signature`, an HMAC-SHA256 under a key of the server's of the
 * organisation, the PDF's id and that expiry. The page serves the PDF only for a good signature
 * whose expiry is still ahead on the organisation's clock, so the URL needs no token and cannot
 * be stretched or pointed at another PDF. The key comes from the server's secret as the pages' CSRF
 * key does (its own HKDF `info`), so every process on one store serves the links of the others.
 */

export interface MandatePdfLinks {
  /** The absolute URL of the PDF under the public `base`, valid until `expiresAt`. */
  readonly url: (base: string, organisation: string, id: string, expiresAt: string) => string
  /** Whether a request's `expires` and `signature` are good for this PDF at `nowMs`. */
  readonly verify: (organisation: string, id: string, expires: unknown, signature: unknown, nowMs: number) => boolean
}

// JSON framing: no text moved from one field to the next makes the same message.
const macOf = (key: Uint8Array, organisation: string, id: string, expiresAt: number): string =>
  createHmac("sha256", key).update(JSON.stringify(["mandate_pdf", organisation, id, expiresAt])).digest("base64url")

/** `expires` as the URL writes it (`String` of the number): one spelling per instant, no leading zero. */
const CANONICAL_MILLIS = /^[1-9]\d{0,15}$/

export const makeMandatePdfLinks = (key: Uint8Array): MandatePdfLinks => ({
  url: (base, organisation, id, expiresAt) => {
    const expires = Date.parse(expiresAt)
    const query = new URLSearchParams({ expires: String(expires), signature: macOf(key, organisation, id, expires) })
    return `${hostedPageUrl(base, "mandatePdf", { organisation, id })}?${query.toString()}`
  },
  verify: (organisation, id, expires, signature, nowMs) => {
    if (typeof expires !== "string" || typeof signature !== "string" || !CANONICAL_MILLIS.test(expires)) return false
    const expiresAt = Number(expires)
    if (!(expiresAt > nowMs)) return false
    // Compared as text: decoding would ignore the last character's spare bits, so several signatures would pass.
    const given = Buffer.from(signature)
    const expected = Buffer.from(macOf(key, organisation, id, expiresAt))
    return given.length === expected.length && timingSafeEqual(given, expected)
  }
})

/** Without a server secret: one random key for this process, shared by the API that signs and the page that checks. */
const processKey = randomBytes(32)

export const mandatePdfLinksFrom = (secret: Uint8Array | undefined): MandatePdfLinks =>
  makeMandatePdfLinks(secret === undefined ? processKey : new Uint8Array(hkdfSync("sha256", secret, new Uint8Array(0), "paykit mandate pdf links", 32)))
