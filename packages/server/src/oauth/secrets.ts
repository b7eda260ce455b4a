import { createHash, timingSafeEqual } from "node:crypto"

/** Client secrets and authorisation codes are kept as their SHA-256 only, compared in constant time. */
export const hashSecret = (secret: string): string => createHash("sha256").update(secret, "utf8").digest("hex")

/** Whether `given` hashes to `storedHash`; the comparison takes the same time wherever they differ. */
export const secretMatches = (given: string, storedHash: string): boolean => {
  const left = Buffer.from(hashSecret(given), "hex")
  const right = Buffer.from(storedHash, "hex")
  return left.length === right.length && timingSafeEqual(left, right)
}
