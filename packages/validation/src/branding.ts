import { Schema } from "effect"
import { decodeInput, IdOf, LOGO_IMAGE_MAX_BASE64_LENGTH, LOGO_MAX_HEIGHT_PX, LOGO_MAX_WIDTH_PX } from "@paykit/core"
import { HexColour, optionalNullable } from "./fields.ts"
import { decodeBase64, type ImageInfo, imageInfo } from "./image.ts"
import { issue, withRules } from "./rules.ts"

/** POST /branding/logos (under `logos`) and POST /branding/payer_themes (under `payer_themes`). */
export const LOGOS = "logos"
export const PAYER_THEMES = "payer_themes"

export const PayerThemeCreate = Schema.Struct({
  header_background_colour: Schema.optionalKey(HexColour),
  link_text_colour: Schema.optionalKey(HexColour),
  button_background_colour: Schema.optionalKey(HexColour),
  content_box_border_colour: Schema.optionalKey(HexColour),
  links: Schema.optionalKey(Schema.Struct({ creditor: optionalNullable(IdOf("creditor")) }))
}).annotate({ identifier: "PayerThemeCreate" })
export type PayerThemeCreate = typeof PayerThemeCreate.Type

export const validatePayerThemeCreate = decodeInput(PayerThemeCreate, PAYER_THEMES)

export const LogoCreateFields = Schema.Struct({
  image: Schema.String,
  links: Schema.optionalKey(Schema.Struct({ creditor: Schema.optionalKey(IdOf("creditor")) }))
}).annotate({ identifier: "LogoCreate" })
export type LogoCreate = typeof LogoCreateFields.Type

export type LogoImageCheck =
  | { readonly valid: true; readonly image: ImageInfo; readonly bytes: Uint8Array }
  | { readonly valid: false; readonly message: string }

/**
 * A data URI's prefix, as GoCardless's examples send the image. Its declared type decides nothing:
 * the bytes' magic numbers do, so a PNG declared as JPEG is read as the PNG it is.
 */
const IMAGE_DATA_URI_PREFIX = /^data:image\/(?:png|jpe?g);base64,/i

/** Whether `image` is base64 (bare or as a PNG/JPEG data URI) of a JPG or PNG whose size can be read (and is not zero). */
export const checkLogoImage = (image: string): LogoImageCheck => {
  const bytes = decodeBase64(image.replace(IMAGE_DATA_URI_PREFIX, ""))
  if (bytes === null) return { valid: false, message: "must be base64 encoded data" }
  if (bytes.length === 0) return { valid: false, message: "must not be empty" }
  const info = imageInfo(bytes)
  if (info === null) return { valid: false, message: "must be a JPG or PNG image" }
  if (info.width === 0 || info.height === 0) return { valid: false, message: "must have a width and height of at least 1 pixel" }
  return { valid: true, image: info, bytes }
}

export const LogoCreate = withRules(LogoCreateFields, [
  (logo) => {
    const check = checkLogoImage(logo.image)
    return check.valid ? [] : [issue(["image"], check.message)]
  }
])

export const validateLogoCreate = decodeInput(LogoCreate, LOGOS, { image: LOGO_IMAGE_MAX_BASE64_LENGTH })

/**
 * The size a logo is shown at: scaled down, keeping its aspect ratio, to fit within
 * `LOGO_MAX_WIDTH_PX` by `LOGO_MAX_HEIGHT_PX` (300 by 40); never scaled up. The side that is not
 * at its bound is rounded down, and kept at least 1 pixel.
 */
export const scaledLogoSize = (width: number, height: number): { readonly width: number; readonly height: number } => {
  if (width <= LOGO_MAX_WIDTH_PX && height <= LOGO_MAX_HEIGHT_PX) return { width, height }
  // Compare width/height with 300/40 by cross-multiplying: exact, no float.
  return width * LOGO_MAX_HEIGHT_PX >= height * LOGO_MAX_WIDTH_PX
    ? { width: LOGO_MAX_WIDTH_PX, height: Math.max(1, Math.floor((height * LOGO_MAX_WIDTH_PX) / width)) }
    : { width: Math.max(1, Math.floor((width * LOGO_MAX_HEIGHT_PX) / height)), height: LOGO_MAX_HEIGHT_PX }
}
