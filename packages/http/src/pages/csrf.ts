import { Context, Layer } from "effect"
import { HostedPagesKey } from "@paykit/engine"
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto"

/**
 * CSRF tokens of the pages' forms. A token is `<expiry>.<mac>`: an HMAC-SHA256, under a key of
 * the server's, of the form's purpose (`bank_authorisation`, `outbound_payment_import`), the
 * organisation and resource the page shows and the expiry. The organisation is covered although
 * ids are unique across organisations (defence in depth: a token never crosses organisations). A form posted with a token made for another resource or
 * purpose, a token past its expiry, or none, is refused before any engine action. Tokens travel in
 * a hidden field of the form's body, never in a URL. They carry no session: the pages have none;
 * what a token proves is that the post came from the page of that very resource, served by this
 * server within the hour.
 */

/** How long a page's form may be posted after the page was served. */
export const CSRF_TOKEN_LIFETIME_MS = 60 * 60 * 1000

/** The name of the hidden field carrying the token. */
export const CSRF_FIELD = "csrf_token"

export interface CsrfSigner {
  readonly sign: (purpose: string, organisation: string, resourceId: string, nowMs: number) => string
  readonly verify: (token: string | undefined, purpose: string, organisation: string, resourceId: string, nowMs: number) => boolean
}

// JSON framing: no text moved from one field to the next makes the same message.
const macOf = (key: Uint8Array, purpose: string, organisation: string, resourceId: string, expiresAt: number): Buffer =>
  createHmac("sha256", key).update(JSON.stringify([purpose, organisation, resourceId, expiresAt])).digest()

export const makeCsrfSigner = (key: Uint8Array): CsrfSigner => ({
  sign: (purpose, organisation, resourceId, nowMs) => {
    const expiresAt = nowMs + CSRF_TOKEN_LIFETIME_MS
    return `${expiresAt}.${macOf(key, purpose, organisation, resourceId, expiresAt).toString("base64url")}`
  },
  verify: (token, purpose, organisation, resourceId, nowMs) => {
    const match = token === undefined ? null : /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(token)
    if (match === null) return false
    const expiresAt = Number(match[1])
    if (!(expiresAt > nowMs) || expiresAt > nowMs + CSRF_TOKEN_LIFETIME_MS) return false
    // Compared as text: decoding would ignore the last character's spare bits, so several tokens would pass.
    const given = Buffer.from(match[2] ?? "")
    const expected = Buffer.from(macOf(key, purpose, organisation, resourceId, expiresAt).toString("base64url"))
    return given.length === expected.length && timingSafeEqual(given, expected)
  }
})

/**
 * The secret the pages' CSRF key is derived from (HKDF-SHA256, its own `info`, so the secret's
 * other use never sees the same key). The server provides its secret key, shared by its
 * processes, so a form served by one process may be posted to another. Absent: a random key per
 * process, and a form must come back to the process that served it.
 */
export const PageSigningSecret = Context.Reference<Uint8Array | undefined>("@paykit/http/PageSigningSecret", { defaultValue: () => undefined })

export const csrfSignerFrom = (secret: Uint8Array | undefined): CsrfSigner =>
  makeCsrfSigner(secret === undefined ? randomBytes(32) : new Uint8Array(hkdfSync("sha256", secret, new Uint8Array(0), "paykit pages csrf", 32)))

/**
 * The engine's `HostedPagesKey` (the key of the payer's page URLs) from the server's secret: its
 * own HKDF `info`, so a page key is never a CSRF token's or a PDF link's MAC. Without a secret the
 * engine's default (random per process) stays.
 */
export const hostedPagesKeyLayer = (secret: Uint8Array | undefined): Layer.Layer<never> =>
  secret === undefined ? Layer.empty : Layer.succeed(HostedPagesKey, new Uint8Array(hkdfSync("sha256", secret, new Uint8Array(0), "paykit page urls", 32)))
