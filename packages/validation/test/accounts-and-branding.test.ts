import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { LOGO_MAX_HEIGHT_PX, LOGO_MAX_WIDTH_PX, unsafeLocalDate } from "@paykit/core"
import {
  checkLogoImage,
  imageInfo,
  scaledLogoSize,
  validateCreditorCreate,
  validateCreditorUpdate,
  validateLogoCreate,
  validatePayerThemeCreate,
  validateVerificationDetailCreate
} from "../src/index.ts"
import { errorsOf, expectSuccess, pointersOf } from "./helpers.ts"

const base64 = (bytes: ReadonlyArray<number>): string => btoa(String.fromCharCode(...bytes))
const be16 = (n: number) => [(n >> 8) & 0xff, n & 0xff]
const be32 = (n: number) => [...be16(Math.floor(n / 0x10000)), ...be16(n & 0xffff)]
const png = (w: number, h: number) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...be32(w), ...be32(h), 8, 6, 0, 0, 0, 0, 0, 0, 0]
const jpeg = (w: number, h: number) => [
  0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
  0xff, 0xc0, 0, 17, 8, ...be16(h), ...be16(w), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xd9
]

describe("creditors", () => {
  it("create: name, country_code and creditor_type are required", () => {
    expectSuccess(validateCreditorCreate({ name: "Acme", country_code: "GB", creditor_type: "company", links: {} }))
    expect(pointersOf(validateCreditorCreate({ name: " ", country_code: "UK", creditor_type: "club" }))).toEqual([
      "/creditors/name", "/creditors/country_code", "/creditors/creditor_type"
    ])
    expect(pointersOf(validateCreditorCreate({}))).toEqual(["/creditors/name", "/creditors/country_code", "/creditors/creditor_type"])
  })

  it("update: every field optional, payout account links nullable", () => {
    expectSuccess(validateCreditorUpdate({ city: "London", links: { default_gbp_payout_account: "BA000000000001", default_eur_payout_account: null } }))
    expect(pointersOf(validateCreditorUpdate({ country_code: "XX", links: { default_usd_payout_account: 5 } }))).toEqual([
      "/creditors/country_code", "/creditors/links/default_usd_payout_account"
    ])
  })
})

describe("verification details", () => {
  const today = unsafeLocalDate("2026-11-21")
  const director = { given_name: "Ada", family_name: "Lovelace", date_of_birth: "1990-12-10", street: "1 Lane", city: "London", postal_code: "N1 1AA", country_code: "GB" }
  const detail = {
    name: "Acme Ltd", company_number: "01234567", description: "Widgets", address_line1: "1 Lane", city: "London",
    postal_code: "N1 1AA", directors: [director], links: { creditor: "CR000000000001" }
  }

  it("known answers", () => {
    expectSuccess(validateVerificationDetailCreate(detail, today))
    expect(pointersOf(validateVerificationDetailCreate({ ...detail, directors: [] }, today))).toEqual(["/verification_details/directors"])
    expect(pointersOf(validateVerificationDetailCreate({ ...detail, directors: [director, { ...director, date_of_birth: "2026-11-21" }] }, today))).toEqual([
      "/verification_details/directors/1/date_of_birth"
    ])
  })

  it("every missing required director field is reported at its own pointer", () => {
    const keys = Object.keys(director) as ReadonlyArray<keyof typeof director>
    fc.assert(
      fc.property(fc.subarray([...keys], { minLength: 1 }), (missing) => {
        const partial = Object.fromEntries(Object.entries(director).filter(([k]) => !(missing as ReadonlyArray<string>).includes(k)))
        const pointers = pointersOf(validateVerificationDetailCreate({ ...detail, directors: [partial] }, today))
        expect([...pointers].sort()).toEqual(missing.map((k) => `/verification_details/directors/0/${k}`).sort())
      })
    )
  })
})

describe("payer themes", () => {
  it("a colour is accepted iff it is #RGB or #RRGGBB", () => {
    expectSuccess(validatePayerThemeCreate({ header_background_colour: "#fff", link_text_colour: "#1A2b3C", links: { creditor: null } }))
    expect(errorsOf(validatePayerThemeCreate({ button_background_colour: "red" }))[0]?.request_pointer).toBe("/payer_themes/button_background_colour")
    fc.assert(
      fc.property(fc.string({ maxLength: 8, unit: fc.constantFrom(..."#0123456789abcdefABCDEFgxz ") }), (colour) => {
        const accepted = pointersOf(validatePayerThemeCreate({ content_box_border_colour: colour })).length === 0
        expect(accepted).toBe(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(colour))
      })
    )
  })
})

describe("logos", () => {
  it("known answers: PNG and JPEG by their magic bytes, anything else refused", () => {
    expect(imageInfo(new Uint8Array(png(600, 40)))).toEqual({ format: "png", width: 600, height: 40 })
    expect(imageInfo(new Uint8Array(jpeg(120, 80)))).toEqual({ format: "jpeg", width: 120, height: 80 })
    expectSuccess(validateLogoCreate({ image: base64(png(300, 40)), links: { creditor: "CR000000000001" } }))
    expectSuccess(validateLogoCreate({ image: base64(jpeg(1200, 160)) }))
    const gif = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0]
    expect(errorsOf(validateLogoCreate({ image: base64(gif) }))).toEqual([
      { field: "image", message: "must be a JPG or PNG image", request_pointer: "/logos/image", reason: "validation_failed" }
    ])
    // A data URI is read as its base64; the type it declares is not trusted (the bytes decide).
    expectSuccess(validateLogoCreate({ image: `data:image/png;base64,${base64(png(300, 40))}` }))
    expectSuccess(validateLogoCreate({ image: `data:image/jpeg;base64,${base64(png(300, 40))}` }))
    expect(errorsOf(validateLogoCreate({ image: `data:image/gif;base64,${base64(gif)}` }))[0]?.message).toBe("must be base64 encoded data")
    expect(errorsOf(validateLogoCreate({ image: "not base64!" }))[0]?.message).toBe("must be base64 encoded data")
    expect(pointersOf(validateLogoCreate({}))).toEqual(["/logos/image"])
  })

  it("every PNG and JPEG header is read back exactly; every cut-short header is refused", () => {
    fc.assert(
      fc.property(fc.constantFrom(png, jpeg), fc.integer({ min: 1, max: 65535 }), fc.integer({ min: 1, max: 65535 }), fc.nat(), (make, w, h, cut) => {
        const bytes = make(w, h)
        expect(checkLogoImage(base64(bytes))).toMatchObject({ valid: true, image: { width: w, height: h } })
        const headerLength = make === png ? 24 : 29
        const short = bytes.slice(0, cut % headerLength)
        expect(checkLogoImage(base64(short)).valid).toBe(false)
      })
    )
  })

  it("every logo is scaled to fit 300 x 40, never up, keeping its aspect ratio", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20000 }), fc.integer({ min: 1, max: 20000 }), (w, h) => {
        const s = scaledLogoSize(w, h)
        expect(s.width).toBeLessThanOrEqual(Math.min(w, LOGO_MAX_WIDTH_PX))
        expect(s.height).toBeLessThanOrEqual(Math.min(h, LOGO_MAX_HEIGHT_PX))
        expect(s.width === LOGO_MAX_WIDTH_PX || s.height === LOGO_MAX_HEIGHT_PX || (s.width === w && s.height === h)).toBe(true)
        // Rounding down one side by less than a pixel keeps the ratio within one pixel.
        if (s.width === LOGO_MAX_WIDTH_PX && s.height > 1) expect(Math.abs(s.height * w - h * s.width)).toBeLessThan(w)
        if (s.height === LOGO_MAX_HEIGHT_PX && s.width > 1) expect(Math.abs(s.width * h - w * s.height)).toBeLessThan(h)
      })
    )
  })
})
