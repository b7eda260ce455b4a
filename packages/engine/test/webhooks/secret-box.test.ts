import fc from "fast-check"
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { makeSecretBox } from "@paykit/engine"

describe("the webhook secret box (AES-256-GCM)", () => {
  const box = makeSecretBox(randomBytes(32))
  const other = makeSecretBox(randomBytes(32))

  it("opens what it sealed, only with its key and the same organisation and endpoint", () => {
    fc.assert(fc.property(fc.string({ minLength: 1 }), fc.string(), fc.string(), (secret, context, elsewhere) => {
      const sealed = box.seal(secret, context)
      expect(box.open(sealed, context)).toBe(secret)
      expect(other.open(sealed, context)).toBeUndefined()
      if (elsewhere !== context) expect(box.open(sealed, elsewhere)).toBeUndefined()
    }))
  })

  it("refuses a sealed secret with any byte altered", () => {
    fc.assert(fc.property(fc.string({ minLength: 1 }), fc.nat(), (secret, at) => {
      const sealed = box.seal(secret, "OR000000000003/WE1")
      const bytes = Buffer.from(sealed.slice(3), "base64")
      const i = at % bytes.length
      bytes[i] = (bytes[i] ?? 0) ^ 1
      expect(box.open(`v1.${bytes.toString("base64")}`, "OR000000000003/WE1")).toBeUndefined()
    }))
  })

  it("seals one secret differently each time (a fresh IV)", () => {
    expect(box.seal("same secret", "c")).not.toBe(box.seal("same secret", "c"))
  })

  it("takes a 32-byte key only", () => {
    expect(() => makeSecretBox(randomBytes(16))).toThrow()
  })
})
