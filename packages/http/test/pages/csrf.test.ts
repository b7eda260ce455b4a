import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CSRF_TOKEN_LIFETIME_MS, makeCsrfSigner } from "../../src/pages/csrf.ts"

const key = new Uint8Array(32).fill(7)
const signer = makeCsrfSigner(key)
const NOW = 1_790_000_000_000

describe("CSRF tokens", () => {
  it("a token is good for its purpose and resource until it expires, and for nothing else (property)", () => {
    fc.assert(fc.property(fc.string(), fc.string(), fc.string(), fc.string(), fc.nat(CSRF_TOKEN_LIFETIME_MS * 2), (purpose, id, otherPurpose, otherId, later) => {
      const token = signer.sign(purpose, "OR000000000003", id, NOW)
      expect(signer.verify(token, purpose, "OR000000000003", id, NOW + later)).toBe(later < CSRF_TOKEN_LIFETIME_MS)
      if (otherId !== id) expect(signer.verify(token, purpose, "OR000000000003", otherId, NOW)).toBe(false)
      if (otherPurpose !== purpose) expect(signer.verify(token, otherPurpose, "OR000000000003", id, NOW)).toBe(false)
    }))
  })

  it("a token is good for its organisation only: the same purpose and resource id elsewhere is refused (property)", () => {
    fc.assert(fc.property(fc.string(), fc.string(), fc.string(), (organisation, otherOrganisation, id) => {
      const token = signer.sign("bank_authorisation", organisation, id, NOW)
      expect(signer.verify(token, "bank_authorisation", organisation, id, NOW)).toBe(true)
      if (otherOrganisation !== organisation) expect(signer.verify(token, "bank_authorisation", otherOrganisation, id, NOW)).toBe(false)
    }))
    // The fields are framed, so moving text from one field to the next makes another message.
    expect(signer.verify(signer.sign("p", "OR000000000003\nBAU", "1", NOW), "p", "OR000000000003", "BAU\n1", NOW)).toBe(false)
  })

  it("refuses a token changed in any character, one under another key, none, and one whose expiry was moved (property)", () => {
    const token = signer.sign("bank_authorisation", "OR000000000003", "BAU1", NOW)
    fc.assert(fc.property(fc.nat(token.length - 1), fc.constantFrom(..."0123456789abcdefABCDEF-_."), (at, c) => {
      const changed = token.slice(0, at) + c + token.slice(at + 1)
      if (changed !== token) expect(signer.verify(changed, "bank_authorisation", "OR000000000003", "BAU1", NOW)).toBe(false)
    }))
    expect(makeCsrfSigner(new Uint8Array(32).fill(8)).verify(token, "bank_authorisation", "OR000000000003", "BAU1", NOW)).toBe(false)
    expect(signer.verify(undefined, "bank_authorisation", "OR000000000003", "BAU1", NOW)).toBe(false)
    const [expiry, mac] = token.split(".")
    expect(signer.verify(`${Number(expiry) + 1}.${mac}`, "bank_authorisation", "OR000000000003", "BAU1", NOW)).toBe(false)
  })
})
