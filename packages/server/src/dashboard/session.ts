import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto"

/**
 * The dashboard's session: a cookie holding the access token the user signed in with, sealed
 * with AES-256-GCM under a key derived from the server's secret (its own HKDF `info`, so no other
 * use of the secret shares the key). The token is never in clear outside the server, and nothing
 * is stored: the cookie is the session. Its expiry is sealed with it (GCM's tag covers both), so
 * a cookie edited, forged or past its time opens to nothing. Every request presents the token to
 * the API's gateway again, so a revoked token ends its sessions at once.
 */

/** How long a session lasts after sign-in (the spec is silent; a working day). */
export const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000

export const SESSION_COOKIE = "paykit_dashboard"

export interface SessionSealer {
  readonly seal: (token: string, nowMs: number) => string
  /** The token inside a cookie value, or undefined when it is malformed, forged or expired. */
  readonly open: (value: string | undefined, nowMs: number) => string | undefined
}

const IV_BYTES = 12
const TAG_BYTES = 16

export const makeSessionSealer = (secret: Uint8Array | undefined): SessionSealer => {
  const key = secret === undefined
    ? randomBytes(32)
    : Buffer.from(hkdfSync("sha256", secret, new Uint8Array(0), "paykit dashboard session", 32))
  return {
    seal: (token, nowMs) => {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv("aes-256-gcm", key, iv)
      const plain = Buffer.from(JSON.stringify([nowMs + SESSION_LIFETIME_MS, token]), "utf8")
      const sealed = Buffer.concat([cipher.update(plain), cipher.final()])
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url")
    },
    open: (value, nowMs) => {
      if (value === undefined || !/^[A-Za-z0-9_-]{40,1000}$/.test(value)) return undefined
      const bytes = Buffer.from(value, "base64url")
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES))
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
        const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8")
        const parsed: unknown = JSON.parse(plain)
        if (!Array.isArray(parsed) || typeof parsed[0] !== "number" || typeof parsed[1] !== "string") return undefined
        return parsed[0] > nowMs ? parsed[1] : undefined
      } catch {
        // A tag that does not verify: forged or edited.
        return undefined
      }
    }
  }
}

/** The value of cookie `name` in a `Cookie` header. */
export const cookieOf = (header: string | undefined, name: string): string | undefined => {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=")
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

/** The `Set-Cookie` of a session (or of its end, `value` empty): HttpOnly, SameSite=Strict, on the dashboard's path only. */
export const sessionCookie = (value: string, path: string, secure: boolean, maxAgeSeconds: number): string =>
  `${SESSION_COOKIE}=${value}; Path=${path}; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`
