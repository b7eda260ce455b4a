import { Effect } from "effect"
import { type FeatureNotInstalled, invalidField, LOGO_MAX_INPUT_PIXELS, type ValidationFailed } from "@paykit/core"
import { checkLogoImage, type ImageFormat, LOGOS, scaledLogoSize } from "@paykit/validation"
import { optionalPackages } from "./optional-packages.ts"

export interface ScaledLogo {
  readonly format: ImageFormat
  readonly width: number
  readonly height: number
  readonly bytes: Uint8Array
}

/** sharp is an optional peer dependency: only logos need it. */
const loadSharp = optionalPackages("Logos", ["sharp"], async () => (await import("sharp")).default)

/** EXIF orientations 5 to 8 turn the image a quarter: its width and height swap once upright. */
const QUARTER_TURNS = new Set([5, 6, 7, 8])

const refused = (message: string) => invalidField(LOGOS, ["image"], message)
const TOO_MANY_PIXELS = `must have at most ${LOGO_MAX_INPUT_PIXELS} pixels`

/** sharp's refusal of an image past `limitInputPixels`, or of one it cannot decode. */
const decodingRefusal = (e: unknown) => refused(e instanceof Error && /pixel limit/i.test(e.message) ? TOO_MANY_PIXELS : "could not be decoded")

/**
 * An uploaded logo as the pages show it: decoded by sharp (libvips) with a bound on the pixels it
 * declares, so a decompression bomb is refused before its canvas is allocated; turned upright by
 * its EXIF orientation; scaled to `scaledLogoSize` (within 300x40, aspect ratio kept, never
 * enlarged); encoded again in its own format. sharp writes no metadata unless asked, so EXIF
 * (camera, place, time) and every other metadata block are gone.
 */
export const scaleLogo = (image: string): Effect.Effect<ScaledLogo, ValidationFailed | FeatureNotInstalled> =>
  Effect.gen(function*() {
    // The request Schema checked this already; read again here for the bytes and their format.
    const check = checkLogoImage(image)
    if (!check.valid) return yield* refused(check.message)
    const { format } = check.image
    const sharp = yield* loadSharp
    const input = () => sharp(check.bytes, { limitInputPixels: LOGO_MAX_INPUT_PIXELS, failOn: "error" })
    // Reading the header already refuses a canvas past the limit.
    const meta = yield* Effect.tryPromise({ try: () => input().metadata(), catch: decodingRefusal })
    const upright = QUARTER_TURNS.has(meta.orientation ?? 1) ? { width: meta.height, height: meta.width } : meta
    const size = scaledLogoSize(upright.width, upright.height)
    const out = yield* Effect.tryPromise({
      try: () => input().rotate().resize(size.width, size.height, { fit: "fill" }).toFormat(format).toBuffer({ resolveWithObject: true }),
      catch: decodingRefusal
    })
    return { format, width: out.info.width, height: out.info.height, bytes: new Uint8Array(out.data) }
  })
