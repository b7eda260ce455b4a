import { Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { PayerUri } from "../src/billing-requests/domain/payer-fields.ts"

/**
 * Where a payer is sent (a link's href, a 303's Location): an absolute http or https URL, and
 * nothing with a control character, which would split the header it is written into.
 */

const accepts = (s: string): boolean => Schema.is(PayerUri)(s)

const host = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}\.example$/)
const pathText = fc.stringMatching(/^[A-Za-z0-9/._~?=&%-]{0,40}$/)
const control = fc.integer({ min: 0, max: 0x1f }).chain((c) => fc.constantFrom(String.fromCharCode(c), "\u007f"))

describe("PayerUri", () => {
  it("takes every http and https URL of plain characters (property)", () => {
    fc.assert(fc.property(fc.constantFrom("http", "https"), host, pathText, (scheme, h, path) => {
      expect(accepts(`${scheme}://${h}/${path}`)).toBe(true)
    }))
  })

  it("refuses any URL with a control character anywhere, though the URL parser would drop it (property)", () => {
    fc.assert(fc.property(host, pathText, control, fc.nat(60), (h, path, c, at) => {
      const url = `https://${h}/${path}`
      const where = at % (url.length + 1)
      expect(accepts(url.slice(0, where) + c + url.slice(where))).toBe(false)
    }))
  })

  it("refuses every other scheme and any relative reference (property)", () => {
    const scheme = fc.stringMatching(/^[a-z][a-z0-9+.-]{0,10}$/).filter((s) => s !== "http" && s !== "https")
    fc.assert(fc.property(scheme, host, pathText, (s, h, path) => {
      expect(accepts(`${s}://${h}/${path}`)).toBe(false)
      expect(accepts(`${s}:${path}`)).toBe(false)
      expect(accepts(`/${path}`)).toBe(false)
    }))
    expect(accepts("javascript:alert(1)")).toBe(false)
    expect(accepts("data:text/html,<b>x</b>")).toBe(false)
  })
})
