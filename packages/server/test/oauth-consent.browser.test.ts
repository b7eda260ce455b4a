import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { accessibilityViolations, type Browser, launchBrowser, screenshot } from "./browser.ts"
import { api, localClient, startServer, type TestServer } from "./harness.ts"
import { authorizeUrl, connectUrlOf, exchange, type RegisteredApp, type TokenAnswer } from "./oauth-support.ts"

/**
 * Issue 20's consent page in a real headless Chromium: a merchant's user follows the app's link,
 * logs in or signs up, and Allow or Decline sends the browser back to the app's redirect URI.
 */

let server: TestServer
let browser: Browser
let app: RegisteredApp
let connect: string
let callbackServer: Server
let callback: string

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
  // The app's own page the browser lands on.
  callbackServer = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>App</title><p>Connected</p>"))
  await new Promise<void>((resolve) => callbackServer.listen(0, "127.0.0.1", resolve))
  callback = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`
  const registered = await api(server.url, server.boot.accessToken, "/oauth_apps", { method: "POST", body: { oauth_apps: { name: "Ledgerly", redirect_uris: [callback] } } })
  app = (await registered.json() as { oauth_apps: RegisteredApp }).oauth_apps
  connect = await connectUrlOf(server)
}, 60_000)
afterAll(async () => {
  await browser.close()
  await new Promise((resolve) => callbackServer.close(resolve))
  await server.close()
})

const open = async (scope: string, extra: Record<string, string> = {}) => {
  await browser.context.clearCookies()
  const page = await browser.context.newPage()
  await page.goto(authorizeUrl(connect, { response_type: "code", client_id: app.client_id, redirect_uri: callback, scope, state: "st-9", ...extra }))
  return page
}

describe("the consent page in Chromium", () => {
  it("logging in with the organisation's token and Allow lands on the app with a code the app exchanges", async () => {
    const page = await open("read_only", { "prefill[email]": "owner@merchant.example" })
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Connect Ledgerly to your paykit account")
    expect(await page.getByLabel("Your email").inputValue()).toBe("owner@merchant.example")
    expect(await accessibilityViolations(page)).toEqual([])
    await screenshot(page, "oauth-consent")
    await page.getByLabel("Access token", { exact: true }).fill(server.boot.accessToken ?? "")
    await page.getByRole("button", { name: "Allow" }).click()
    await page.waitForURL((url) => url.pathname === "/callback")
    const landed = new URL(page.url())
    expect(landed.searchParams.get("state")).toBe("st-9")
    const token = await (await exchange(connect, app, landed.searchParams.get("code") ?? "", callback)).json() as TokenAnswer
    expect(token).toMatchObject({ scope: "read_only", email: "owner@merchant.example", organisation_id: server.boot.organisation.id })
    expect((await localClient(token.access_token, server.url).creditors.list()).creditors).toHaveLength(1)
    await page.close()
  })

  it("a wrong token shows the page again with what went wrong; signing up works", async () => {
    const page = await open("read_write")
    await page.getByLabel("Your email").fill("new@shop.example")
    await page.getByRole("radio", { name: /Log in/ }).check()
    await page.getByLabel("Access token", { exact: true }).fill("not-a-token")
    await page.getByRole("button", { name: "Allow" }).click()
    expect(await page.getByRole("alert").innerText()).toContain("not an active token")
    await page.getByRole("radio", { name: /Sign up/ }).check()
    await page.getByLabel("Organisation name").fill("Shop & Co <b>")
    await page.getByRole("button", { name: "Allow" }).click()
    await page.waitForURL((url) => url.pathname === "/callback")
    const token = await (await exchange(connect, app, new URL(page.url()).searchParams.get("code") ?? "", callback)).json() as TokenAnswer
    expect(token.organisation_id).not.toBe(server.boot.organisation.id)
    expect((await localClient(token.access_token, server.url).creditors.list()).creditors.map((c) => c.name)).toEqual(["Shop & Co <b>"])
    await page.close()
  })

  it("Decline lands on the app with access_denied and the state", async () => {
    const page = await open("read_write")
    await page.getByRole("button", { name: "Decline" }).click()
    await page.waitForURL((url) => url.pathname === "/callback")
    const landed = new URL(page.url())
    expect([landed.searchParams.get("error"), landed.searchParams.get("state"), landed.searchParams.get("code")]).toEqual(["access_denied", "st-9", null])
    await page.close()
  })
})
