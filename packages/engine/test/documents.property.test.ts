import { constants, createDecipheriv, generateKeyPairSync, privateDecrypt, randomBytes } from "node:crypto"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { timestampFromMillis } from "@paykit/core"
import { resolveBankDetails } from "@paykit/validation"
import { switchedAccountNumber } from "../src/documents/account-switch.ts"
import { sealTo, transferredDetailsOf } from "../src/documents/encrypted-details.ts"
import { checkPublicKey } from "../src/documents/public-keys.ts"
import type { PublicKey } from "../src/documents/domain/public-keys.ts"

/** The documents room's pure rules, stated as properties. */

const pair = generateKeyPairSync("rsa", { modulusLength: 2048 })
const pem = pair.publicKey.export({ type: "spki", format: "pem" }).toString()
const key: PublicKey = { id: "PK000000000001", created_at: timestampFromMillis(Date.UTC(2026, 0, 1)), enabled: true, public_key: pem, key_size: 2048 }

describe("a switched account's number", () => {
  it("is, for any seed, an 8-digit number that passes the modulus check at the sandbox sort code, and the same for the same seed", () => {
    fc.assert(fc.property(fc.string(), (seed) => {
      const number = switchedAccountNumber(seed)
      expect(number).toMatch(/^\d{8}$/)
      expect(resolveBankDetails({ account_number: number, branch_code: "200000", country_code: "GB" }).valid).toBe(true)
      expect(switchedAccountNumber(seed)).toBe(number)
    }), { numRuns: 200 })
  })
})

describe("sealing to a public key", () => {
  it("opens with the private key to exactly what was sealed, and each sealing uses a fresh key and IV", () => {
    fc.assert(fc.property(fc.string({ maxLength: 500 }), (plain) => {
      const a = sealTo(plain, key)
      const b = sealTo(plain, key)
      expect(a.sealed).not.toBe(b.sealed)
      const aes = privateDecrypt({ key: pair.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, Buffer.from(a.encryptedKey, "base64"))
      expect(aes).toHaveLength(32)
      const bytes = Buffer.from(a.sealed, "base64")
      const decipher = createDecipheriv("aes-256-gcm", aes, bytes.subarray(0, 12)).setAuthTag(bytes.subarray(bytes.length - 16))
      expect(Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString("utf8")).toBe(plain)
    }), { numRuns: 30 })
  })

  it("names the local details in SWIFT's terms and nothing more", () => {
    const details = { account_holder_name: "A", country_code: "GB", currency: "GBP", iban: null, bank_code: null, branch_code: "200000", account_number: "55779911", account_number_suffix: null, account_type: null }
    expect(transferredDetailsOf(details)).toEqual({ iban: null, account_holder_name: "A", swift_bank_code: null, swift_branch_code: "200000", swift_account_number: "55779911" })
  })
})

describe("a public key", () => {
  it("is taken when RSA of 2048 bits or more, in PEM (SPKI or PKCS#1) or JWK, and refused below", () => {
    for (const bits of [1024, 1536, 2048, 3072]) {
      const { publicKey } = generateKeyPairSync("rsa", { modulusLength: bits })
      for (const text of [
        publicKey.export({ type: "spki", format: "pem" }).toString(),
        publicKey.export({ type: "pkcs1", format: "pem" }).toString(),
        JSON.stringify(publicKey.export({ format: "jwk" }))
      ]) {
        const checked = checkPublicKey(text)
        if (bits >= 2048) expect(checked).toEqual({ pem: publicKey.export({ type: "spki", format: "pem" }).toString(), bits })
        else expect("_tag" in checked && checked._tag).toBe("ValidationFailed")
      }
    }
  })

  it("is refused when it is a private key, in PEM or JWK, though its public half could be derived", () => {
    for (const text of [pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString(), pair.privateKey.export({ type: "pkcs1", format: "pem" }).toString(), JSON.stringify(pair.privateKey.export({ format: "jwk" }))]) {
      expect(checkPublicKey(text)).toMatchObject({ _tag: "ValidationFailed" })
    }
  })

  it("is refused when RSA-OAEP cannot encrypt to it (too large a modulus, an even one, an exponent OpenSSL refuses)", () => {
    const base = pair.publicKey.export({ format: "jwk" })
    const b64 = (bytes: Buffer) => bytes.toString("base64url")
    const oddModulus = (bytes: number) => { const n = randomBytes(bytes); n[0] = (n[0] ?? 0) | 0x80; n[bytes - 1] = (n[bytes - 1] ?? 0) | 1; return b64(n) }
    const evenModulus = Buffer.from(base.n ?? "", "base64url"); evenModulus[evenModulus.length - 1] = (evenModulus[evenModulus.length - 1] ?? 0) & 0xfe
    const bigExponent = Buffer.alloc(10, 0xff)
    for (const jwk of [
      { kty: "RSA", n: oddModulus(2125), e: "AQAB" },
      { kty: "RSA", n: b64(evenModulus), e: "AQAB" },
      // OpenSSL bounds the exponent at 64 bits above 3072-bit moduli.
      { kty: "RSA", n: oddModulus(512), e: b64(bigExponent) }
    ]) {
      expect(checkPublicKey(JSON.stringify(jwk))).toMatchObject({ _tag: "ValidationFailed" })
    }
  })

  it("is refused for any text that is not one", () => {
    fc.assert(fc.property(fc.string(), (text) => {
      expect("_tag" in checkPublicKey(text)).toBe(true)
    }))
  })
})
