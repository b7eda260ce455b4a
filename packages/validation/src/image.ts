/**
 * Just enough of PNG and JPEG to accept a logo: recognise the format by its magic bytes and read
 * the pixel size from the header (PNG's IHDR chunk, JPEG's start-of-frame segment). No pixel data
 * is decoded.
 */

export type ImageFormat = "png" | "jpeg"

export interface ImageInfo {
  readonly format: ImageFormat
  readonly width: number
  readonly height: number
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff] as const

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>): boolean =>
  bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b)

export const imageFormatOf = (bytes: Uint8Array): ImageFormat | null =>
  startsWith(bytes, PNG_SIGNATURE) ? "png" : startsWith(bytes, JPEG_SIGNATURE) ? "jpeg" : null

const u16 = (bytes: Uint8Array, at: number): number | undefined => {
  const hi = bytes[at]
  const lo = bytes[at + 1]
  return hi === undefined || lo === undefined ? undefined : (hi << 8) | lo
}

const u32 = (bytes: Uint8Array, at: number): number | undefined => {
  const hi = u16(bytes, at)
  const lo = u16(bytes, at + 2)
  return hi === undefined || lo === undefined ? undefined : hi * 0x10000 + lo
}

const IHDR = [0x49, 0x48, 0x44, 0x52] as const

const pngSize = (bytes: Uint8Array): readonly [number, number] | null => {
  // Signature (8), then the first chunk must be IHDR: length (4), type (4), width (4), height (4).
  if (!IHDR.every((b, i) => bytes[12 + i] === b)) return null
  const width = u32(bytes, 16)
  const height = u32(bytes, 20)
  return width === undefined || height === undefined ? null : [width, height]
}

/** Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not. */
const isStartOfFrame = (marker: number): boolean => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc

const jpegSize = (bytes: Uint8Array): readonly [number, number] | null => {
  let at = 2
  while (at + 3 < bytes.length) {
    if (bytes[at] !== 0xff) return null
    const marker = bytes[at + 1]
    if (marker === undefined) return null
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      at += 1
      continue
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2
      continue
    }
    const length = u16(bytes, at + 2)
    if (length === undefined || length < 2) return null
    if (isStartOfFrame(marker)) {
      const height = u16(bytes, at + 5)
      const width = u16(bytes, at + 7)
      return width === undefined || height === undefined ? null : [width, height]
    }
    if (marker === 0xda || marker === 0xd9) return null
    at += 2 + length
  }
  return null
}

/** Format and size of a PNG or JPEG; null when the bytes are neither or the header is cut short. */
export const imageInfo = (bytes: Uint8Array): ImageInfo | null => {
  const format = imageFormatOf(bytes)
  if (format === null) return null
  const size = format === "png" ? pngSize(bytes) : jpegSize(bytes)
  return size === null ? null : { format, width: size[0], height: size[1] }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** Strict base64 (RFC 4648, padded; line breaks and spaces ignored); null when it is not. */
export const decodeBase64 = (text: string): Uint8Array | null => {
  const compact = text.replace(/\s/g, "")
  if (!BASE64.test(compact)) return null
  const binary = atob(compact)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}
