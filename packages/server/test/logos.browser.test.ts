import sharp from "sharp"
import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { accessibilityViolations, type Browser, launchBrowser } from "./browser.ts"
import { localClient, startServer, type TestServer } from "./harness.ts"
import { bankAuthorisation, PAGES_TOKEN } from "./pages-support.ts"

/**
 * The creditor's logo in a real headless Chromium: the header shows the uploaded image (loaded
 * under the pages' content security policy, at its scaled size), named by the creditor's name.
 */

let server: TestServer
let client: GoCardlessClient
let browser: Browser
beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ sandboxToken: PAGES_TOKEN }), launchBrowser()])
  client = localClient(PAGES_TOKEN, server.url)
}, 120_000)
afterAll(async () => {
  await browser.close()
  await server.close()
})

describe("the creditor's logo in Chromium", () => {
  it("replaces paykit's name in the header, loaded and scaled, with the creditor's name as its text", async () => {
    const wide = await sharp({ create: { width: 900, height: 60, channels: 3, background: "#0b3d2e" } }).png().toBuffer()
    await client.logos.createForCreditor({ image: wide.toString("base64"), links: { creditor: server.boot.creditor ?? "" } })
    const { authorisation } = await bankAuthorisation(client, "Order 7")
    const page = await browser.context.newPage()
    await page.goto(authorisation.url ?? "")
    const logo = page.locator("header img")
    await expect(logo.getAttribute("alt")).resolves.toBe("Sandbox Creditor Ltd")
    // Decoded by the browser: the request was allowed and the bytes are an image of the scaled size.
    expect(await logo.evaluate((img: { decode: () => Promise<void>; naturalWidth: number; naturalHeight: number }) => img.decode().then(() => [img.naturalWidth, img.naturalHeight]))).toEqual([300, 20])
    expect(await page.locator("header").innerText()).not.toContain("paykit")
    expect(await accessibilityViolations(page)).toEqual([])
  })
})
