import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import sharp from "sharp"
import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { localClient, SERVER_DATABASES, type TestServer } from "./harness.ts"
import { bankAuthorisation } from "./pages-support.ts"

/**
 * `POST /branding/logos` through the official client over HTTP: the image's format is told by its
 * bytes, it is scaled to fit 300x40 keeping its aspect ratio, its metadata is dropped, a
 * decompression bomb and anything but PNG or JPEG are refused, and the hosted pages show it.
 */

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

interface ApiFailure {
  readonly statusCode: number
  readonly text: string
}

const refusal = async (call: Promise<unknown>): Promise<ApiFailure> => {
  const outcome = await call.then(() => undefined, (error: unknown) => error)
  if (outcome === undefined) throw new Error("expected the call to fail")
  const e = outcome as { readonly response?: { readonly statusCode?: number }; readonly errors?: unknown }
  return { statusCode: e.response?.statusCode ?? 0, text: JSON.stringify(e.errors) }
}

describe.each(SERVER_DATABASES)("logos on %s", (_database, start) => {
  let server: TestServer
  let client: GoCardlessClient
  let organisation: string
  let creditor: string
  const dir = mkdtempSync(join(tmpdir(), "paykit-logos-"))

  const upload = (image: string) => client.logos.createForCreditor({ image, links: { creditor } })
  /** The stored image, as the hosted pages serve it. */
  const served = async (id: string) => {
    const response = await fetch(`${server.url}/pages/${organisation}/logos/${id}`)
    return { type: response.headers.get("content-type"), bytes: Buffer.from(await response.arrayBuffer()) }
  }

  beforeAll(async () => {
    server = await start()
    client = localClient(server.boot.accessToken ?? "", server.url)
    organisation = server.boot.organisation.id
    creditor = server.boot.creditor ?? ""
  }, 120_000)
  afterAll(async () => {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("scales a wide and a tall image to fit 300x40, keeping the aspect ratio, and replaces the creditor's logo", async () => {
    const wide = await upload(b64(await solid(1200, 100).png().toBuffer()))
    expect(wide.id).toMatch(/^LO[0-9A-Z]{12}$/)
    const first = await served(wide.id ?? "")
    expect(first.type).toBe("image/png")
    expect(await sharp(first.bytes).metadata()).toMatchObject({ format: "png", width: 300, height: 25 })

    const tall = await upload(b64(await solid(100, 400).jpeg().toBuffer()))
    // One logo per creditor: the upload replaced the image under the same id.
    expect(tall.id).toBe(wide.id)
    const second = await served(tall.id ?? "")
    expect(second.type).toBe("image/jpeg")
    expect(await sharp(second.bytes).metadata()).toMatchObject({ format: "jpeg", width: 10, height: 40 })

    // A small one is not enlarged.
    await upload(b64(await solid(120, 30).png().toBuffer()))
    expect(await sharp((await served(wide.id ?? "")).bytes).metadata()).toMatchObject({ width: 120, height: 30 })
  })

  it("tells the format by the bytes, not the file's name: a PNG saved as .jpg is a PNG", async () => {
    const file = join(dir, "logo.jpg")
    writeFileSync(file, await solid(600, 80).png().toBuffer())
    const logo = await upload(b64(readFileSync(file)))
    const image = await served(logo.id ?? "")
    expect(image.type).toBe("image/png")
    expect(await sharp(image.bytes).metadata()).toMatchObject({ format: "png", width: 300, height: 40 })
  })

  it("refuses a GIF, a text file and a decompression bomb with 422 on image", async () => {
    const gif = await refusal(upload(b64(await solid(10, 10).gif().toBuffer())))
    expect(gif.statusCode).toBe(422)
    expect(gif.text).toContain("must be a JPG or PNG image")
    expect((await refusal(upload(b64(Buffer.from("just some text, not an image"))))).statusCode).toBe(422)
    // 100 megapixels of one colour: a small file that would take 300 MB to decode.
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: "#ffffff" } }).png({ compressionLevel: 9 }).toBuffer()
    expect(bomb.length).toBeLessThan(1024 * 1024)
    const refused = await refusal(upload(b64(bomb)))
    expect(refused.statusCode).toBe(422)
    expect(refused.text).toContain("pixels")
  }, 60_000)

  it("drops EXIF and every other metadata, after turning the image upright", async () => {
    // 80x300 stored on its side (EXIF orientation 6: turn a quarter clockwise to view): upright it is 300x80, so 150x40 (on its side it would be 10x40).
    const withExif = await solid(80, 300).jpeg().withExif({ IFD0: { Copyright: "Secret Camera Co", Artist: "someone@example.com" } }).withMetadata({ orientation: 6 }).toBuffer()
    expect((await sharp(withExif).metadata()).exif).toBeDefined()
    const logo = await upload(b64(withExif))
    const image = await served(logo.id ?? "")
    const meta = await sharp(image.bytes).metadata()
    expect(meta.exif).toBeUndefined()
    expect(meta.orientation).toBeUndefined()
    expect(meta).toMatchObject({ width: 150, height: 40 })
    expect(image.bytes.includes(Buffer.from("Secret Camera Co"))).toBe(false)
  })

  it("is shown in the hosted pages' header", async () => {
    const logo = await upload(b64(await solid(300, 40).png().toBuffer()))
    const { authorisation } = await bankAuthorisation(client)
    const html = await (await fetch(authorisation.url ?? "")).text()
    const src = /<header><img src="([^"]+)"/.exec(html)?.[1] ?? ""
    expect(src.startsWith(`/pages/${organisation}/logos/${logo.id ?? ""}?v=`)).toBe(true)
    const image = await fetch(`${server.url}${src.replaceAll("&amp;", "&")}`)
    expect(image.headers.get("content-type")).toBe("image/png")
  })
})
