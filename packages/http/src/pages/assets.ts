import { Effect } from "effect"
import { createHash } from "node:crypto"
import QRCode from "qrcode"
import { HOSTED_PAGE_PATHS } from "@paykit/engine"
import type { ApiResponse } from "../api-response.ts"
import type { PageRoute } from "../routes.ts"
import { escapeHtml } from "./html.ts"
import { organisationFreePageAt, pageAt, type PageAnswer, type PageRequestBase } from "./page-kit.ts"
import type { PageServices } from "./page-services.ts"

/**
 * The images the API's URLs name: a bank authorisation's `qr_code_url` (a PNG QR code of its
 * `url`, drawn by `qrcode`), and each institution's `icon_url` and `logo_url`. The institutions'
 * images are generated, not any bank's trademark: a square of a colour derived from the
 * institution's id with its initials (the icon), and the icon beside its name (the logo). The same
 * institution always gets the same image.
 */

const IMAGE_HEADERS = (type: string) => ({
  "content-type": type,
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
  "cache-control": "public, max-age=86400"
})

const image = (type: string, bytes: Uint8Array): ApiResponse => ({ status: 200, body: "", bytes, headers: IMAGE_HEADERS(type) })

const svg = (markup: string): ApiResponse => image("image/svg+xml", Buffer.from(markup, "utf8"))

/** A QR code of `text` as PNG bytes (error correction M: readable from a screen at a phone's distance). */
export const qrCodePng = (text: string): Effect.Effect<Uint8Array> =>
  Effect.orDie(Effect.tryPromise(() => QRCode.toBuffer(text, { type: "png", errorCorrectionLevel: "M", margin: 4, scale: 6 })))

/** Up to two initials of a name's words ("Bank of Scotland" -> "BS"; the small words skipped). */
export const initialsOf = (name: string): string => {
  const words = name.split(/[\s&-]+/).filter((w) => /^[\p{Lu}\p{N}]/u.test(w))
  const picked = words.length === 0 ? [name] : words
  return picked.slice(0, 2).map((w) => [...w][0] ?? "").join("").toUpperCase()
}

/** A dark colour (white text reads on it) fixed by the id: its hue from the id's hash. */
export const colourOf = (id: string): string => {
  const hue = (createHash("sha256").update(id).digest().readUInt16BE(0) % 360)
  return `hsl(${hue} 55% 30%)`
}

const iconMarkup = (id: string, name: string, x = 0): string =>
  `<g transform="translate(${x} 0)"><rect width="64" height="64" rx="12" fill="${colourOf(id)}"/>` +
  `<text x="32" y="41" font-family="system-ui, sans-serif" font-size="24" font-weight="700" fill="#ffffff" text-anchor="middle">${escapeHtml(initialsOf(name))}</text></g>`

export const institutionIcon = (id: string, name: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${escapeHtml(name)}">${iconMarkup(id, name)}</svg>`

export const institutionLogo = (id: string, name: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="64" viewBox="0 0 320 64" role="img" aria-label="${escapeHtml(name)}">${iconMarkup(id, name)}` +
  `<text x="76" y="40" font-family="system-ui, sans-serif" font-size="20" fill="#1a1a1a">${escapeHtml(name)}</text></svg>`

const institutionImage = (services: PageServices, draw: (id: string, name: string) => string) => (p: PageRequestBase) =>
  Effect.map(services.institutions.get(p.id), (institution) => svg(draw(institution.id, institution.name)))

const qrCode = (services: PageServices): PageAnswer => (p) =>
  Effect.gen(function*() {
    const authorisation = yield* services.bankAuthorisations.get(p.organisation, p.id)
    return image("image/png", yield* qrCodePng(authorisation.url))
  })

/** A creditor's logo (`POST /branding/logos`): the scaled image, in the format it was uploaded in. */
const creditorLogo = (services: PageServices): PageAnswer => (p) =>
  Effect.map(services.logos.get(p.organisation, p.id), (logo) => image(`image/${logo.format}`, Buffer.from(logo.image, "base64")))

export const assetPages = (services: PageServices): ReadonlyArray<PageRoute> => [
  pageAt(services, "GET", HOSTED_PAGE_PATHS.creditorLogo, creditorLogo(services)),
  pageAt(services, "GET", HOSTED_PAGE_PATHS.bankAuthorisationQrCode, qrCode(services)),
  organisationFreePageAt("GET", HOSTED_PAGE_PATHS.institutionIcon, institutionImage(services, institutionIcon)),
  organisationFreePageAt("GET", HOSTED_PAGE_PATHS.institutionLogo, institutionImage(services, institutionLogo))
]
