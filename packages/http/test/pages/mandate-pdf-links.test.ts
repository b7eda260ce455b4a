import { describe, expect, it } from "vitest"
import { mandatePdfLinksFrom } from "../../src/pages/index.ts"

/** A mandate PDF's signed link is served in the one form it was made in. */
describe("mandate PDF links", () => {
  const links = mandatePdfLinksFrom(new Uint8Array(32).fill(7))
  const expiresAt = "2030-01-01T00:00:00.000Z"
  const made = new URL(links.url("https://pay.example", "OR0000000000AB", "MPD000000000AB", expiresAt))
  const expires = made.searchParams.get("expires") ?? ""
  const signature = made.searchParams.get("signature") ?? ""
  const now = Date.parse("2029-12-31T23:00:00.000Z")

  it("verifies the link as made", () => {
    expect(links.verify("OR0000000000AB", "MPD000000000AB", expires, signature, now)).toBe(true)
  })

  it("refuses the same instant written with a leading zero", () => {
    expect(links.verify("OR0000000000AB", "MPD000000000AB", `0${expires}`, signature, now)).toBe(false)
    expect(links.verify("OR0000000000AB", "MPD000000000AB", `00${expires}`, signature, now)).toBe(false)
  })
})
