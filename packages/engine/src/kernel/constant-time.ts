import { createHash, timingSafeEqual } from "node:crypto"

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest()

/**
 * Whether two secrets (a session token, a signature, a webhook secret) are equal, in time that
 * depends on neither: both are compared as SHA-256 digests, of one length whatever theirs, so a
 * wrong length neither throws nor answers sooner.
 */
export const constantTimeEquals = (a: string, b: string): boolean => timingSafeEqual(digest(a), digest(b))
