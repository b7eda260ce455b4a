import { Effect } from "effect"
import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DueWorkStore } from "@paykit/engine"
import { csrfSignerFrom, issueAccessToken } from "@paykit/http"
import { localClient, run, SERVER_DATABASES, startServer, type TestServer } from "./harness.ts"
import { bankAuthorisation, hiddenToken, PAGES_TOKEN, postForm, validatedImport } from "./pages-support.ts"

/**
 * The pages for people over HTTP, as a browser without JavaScript meets them (plain GETs and form
 * posts): the URLs the API hands out are absolute and lead to them, forms need their CSRF token,
 * everything shown is escaped. pages.browser.test.ts drives the same pages in Chromium.
 */

let server: TestServer
let client: GoCardlessClient
beforeAll(async () => {
  server = await startServer({ sandboxToken: PAGES_TOKEN })
  client = localClient(PAGES_TOKEN, server.url)
})
afterAll(() => server.close())

const post = postForm

describe("URLs handed to people", () => {
  it("are absolute under the listening address, and each is served", async () => {
    const { authorisation } = await bankAuthorisation(client)
    const organisation = server.boot.organisation.id
    expect(authorisation.url).toMatch(new RegExp(`^${server.url}/pages/${organisation}/bank_authorisations/${authorisation.id ?? ""}/[\\w-]{22}$`))
    expect(authorisation.redirect_uri).toBe(`${authorisation.url}/complete`)
    const qr = await fetch(authorisation.qr_code_url ?? "")
    expect(qr.headers.get("content-type")).toBe("image/png")
    expect([...new Uint8Array(await qr.arrayBuffer()).slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const institution = (await client.institutions.list({ country_code: "GB" } as never)).institutions[0]
    for (const url of [institution?.icon_url ?? "", institution?.logo_url ?? ""]) {
      expect(url.startsWith(`${server.url}/institutions/`)).toBe(true)
      const image = await fetch(url)
      expect(image.headers.get("content-type")).toBe("image/svg+xml")
      expect(await image.text()).toContain(`aria-label="${institution?.name ?? ""}"`)
    }
  })

  it("an import's authorisation_url is its page on this server", async () => {
    const created = await validatedImport(server, client)
    expect(created.authorisation_url).toBe(`${server.url}/pages/${server.boot.organisation.id}/outbound_payment_imports/${created.id}`)
    const page = await fetch(created.authorisation_url ?? "")
    expect(page.status).toBe(200)
    const html = await page.text()
    // The entries, their references as text (the & escaped), and the total.
    expect(html).toContain("JAN PAY &amp; CO")
    expect(html).toContain("15.00 GBP")
    expect(html).toContain("25.00 GBP")
    expect(html).toContain("40.00 GBP")
  })
})

describe("PAYKIT_PUBLIC_URL", () => {
  it("is the base of every URL handed to a person when set (a proxy in front of the server)", async () => {
    const proxied = await startServer({ sandboxToken: PAGES_TOKEN, publicUrl: "https://pay.example.com/" })
    try {
      const proxiedClient = localClient(PAGES_TOKEN, proxied.url)
      const { authorisation } = await bankAuthorisation(proxiedClient)
      const organisation = proxied.boot.organisation.id
      expect(authorisation.url).toMatch(new RegExp(`^https://pay\\.example\\.com/pages/${organisation}/bank_authorisations/${authorisation.id ?? ""}/[\\w-]{22}$`))
      expect(authorisation.qr_code_url).toBe(`${authorisation.url}/qr.png`)
      const institution = (await proxiedClient.institutions.list({ country_code: "GB" } as never)).institutions[0]
      expect(institution?.icon_url).toBe(`https://pay.example.com/institutions/${institution?.id}/icon.svg`)
      // The page itself is served at the same path on the server behind the proxy.
      expect((await fetch(`${proxied.url}${new URL(authorisation.url ?? "").pathname}`)).status).toBe(200)
    } finally {
      await proxied.close()
    }
  })
})

describe("the bank authorisation page", () => {
  it("opening it is the payer's visit; the page shows the institution, amount and payee", async () => {
    const { authorisation, institution } = await bankAuthorisation(client, "Tea & <biscuits>")
    expect(authorisation.last_visited_at).toBeNull()
    const page = await fetch(authorisation.url ?? "")
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    const html = await page.text()
    expect(html).toContain(institution)
    expect(html).toContain("12.50 GBP")
    expect(html).toContain("Sandbox Creditor Ltd")
    expect(html).toContain("Tea &amp; &lt;biscuits&gt;")
    expect((await client.bankAuthorisations.find(authorisation.id ?? "")).last_visited_at).not.toBeNull()
  })

  it("a post without its page's token, or with another authorisation's, changes nothing", async () => {
    const first = await bankAuthorisation(client)
    const second = await bankAuthorisation(client)
    const othersToken = hiddenToken(await (await fetch(second.authorisation.url ?? "")).text())
    await fetch(first.authorisation.url ?? "")
    for (const fields of [{ choice: "authorise" }, { choice: "authorise", csrf_token: othersToken }, { choice: "authorise", csrf_token: "1.x" }]) {
      const refused = await post(first.authorisation.url ?? "", fields)
      expect(refused.status).toBe(403)
    }
    expect((await client.bankAuthorisations.find(first.authorisation.id ?? "")).authorised_at).toBeNull()
  })

  it("Authorise redirects to redirect_uri with outcome=success and the id; the billing request can then be fulfilled", async () => {
    const { authorisation, billingRequest } = await bankAuthorisation(client)
    const token = hiddenToken(await (await fetch(authorisation.url ?? "")).text())
    const chosen = await post(authorisation.url ?? "", { choice: "authorise", csrf_token: token })
    expect(chosen.status).toBe(303)
    expect(chosen.headers.get("location")).toBe(`${authorisation.redirect_uri}?outcome=success&id=${authorisation.id}`)
    expect((await client.bankAuthorisations.find(authorisation.id ?? "")).authorised_at).not.toBeNull()
    expect((await client.billingRequests.find(billingRequest)).status).toBe("ready_to_fulfil")
  })

  it("for a mandate without an account, the bank reports the one the payer types; a bad one is refused as the API refuses it", async () => {
    const { authorisation, billingRequest } = await bankAuthorisation(client, "First payment", true)
    const page = await (await fetch(authorisation.url ?? "")).text()
    expect(page).toContain(`<label for="branch_code">Sort code</label>`)
    const token = hiddenToken(page)
    const account = { account_holder_name: "Ada Lovelace", branch_code: "200000", account_number: "55779911" }
    const bad = await post(authorisation.url ?? "", { choice: "authorise", csrf_token: token, ...account, account_number: "12" })
    expect(bad.status).toBe(422)
    expect((await client.bankAuthorisations.find(authorisation.id ?? "")).authorised_at).toBeNull()
    const chosen = await post(authorisation.url ?? "", { choice: "authorise", csrf_token: token, ...account })
    expect(chosen.headers.get("location")).toBe(`${authorisation.redirect_uri}?outcome=success&id=${authorisation.id}`)
    const request = await client.billingRequests.find(billingRequest)
    expect(request.links?.customer_bank_account).toBeDefined()
    expect(request.actions?.find((a) => a.type === "bank_authorisation")?.status).toBe("completed")
  })

  it("the page is in the language asked, and in the browser's when none is", async () => {
    const { authorisation } = await bankAuthorisation(client)
    expect(await (await fetch(`${authorisation.url}?lang=de`)).text()).toContain("Bei Ihrer Bank autorisieren")
    const danish = await (await fetch(authorisation.url ?? "", { headers: { "accept-language": "da-DK,da;q=0.9" } })).text()
    expect(danish).toContain(`<html lang="da">`)
    expect(danish).toContain("Godkend i din bank")
  })

  it("an unknown authorisation, a malformed id or organisation, is a page saying so, 404", async () => {
    const organisation = server.boot.organisation.id
    for (const path of [
      `/pages/${organisation}/bank_authorisations/BAU000000000000/AAAAAAAAAAAAAAAAAAAAAA`,
      `/pages/${organisation}/bank_authorisations/BAU%00/AAAAAAAAAAAAAAAAAAAAAA`,
      `/pages/${organisation}/bank_authorisations/PM000000000000/AAAAAAAAAAAAAAAAAAAAAA`,
      `/pages/OR%00/bank_authorisations/BAU000000000000/AAAAAAAAAAAAAAAAAAAAAA`,
      `/pages/${organisation}/outbound_payment_imports/IM%00`,
      `/pages/${organisation}/bank_authorisations/BAU%00/AAAAAAAAAAAAAAAAAAAAAA/qr.png`,
      "/institutions/NO_SUCH_BANK/icon.svg"
    ]) {
      const missing = await fetch(`${server.url}${path}`)
      expect(missing.status, path).toBe(404)
      expect(await missing.text(), path).toContain("There is nothing at this address.")
    }
  })
})

describe("CSRF keys across processes", () => {
  it("servers given one secret key take each other's URLs and forms; a server with another key refuses them", async () => {
    const key = "11".repeat(32)
    const [a, b, other] = await Promise.all([
      startServer({ sandboxToken: PAGES_TOKEN, secretKey: key }),
      startServer({ sandboxToken: PAGES_TOKEN, secretKey: key }),
      startServer({ sandboxToken: PAGES_TOKEN, secretKey: "22".repeat(32) })
    ])
    try {
      const { authorisation } = await bankAuthorisation(localClient(PAGES_TOKEN, a.url))
      const path = new URL(authorisation.url ?? "").pathname
      const token = hiddenToken(await (await fetch(authorisation.url ?? "")).text())
      // Past the URL's page key and the token, the other store has no such authorisation: 404.
      expect((await post(`${b.url}${path}`, { choice: "deny", csrf_token: token })).status).toBe(404)
      expect((await post(`${b.url}${path}`, { choice: "deny", csrf_token: "1.x" })).status).toBe(403)
      // Another key: the URL's page key is not its own, so the page is not there (404) whatever the token.
      expect((await post(`${other.url}${path}`, { choice: "deny", csrf_token: token })).status).toBe(404)
      expect((await post(`${a.url}${path}`, { choice: "deny", csrf_token: token })).status).toBe(303)
    } finally {
      await Promise.all([a.close(), b.close(), other.close()])
    }
  })
})

describe("the organisation's clock", () => {
  const MINUTE = 60_000
  const raiseClock = (own: TestServer, byMs: number) =>
    run(own, Effect.flatMap(DueWorkStore, (store) => store.raiseOffset(own.boot.organisation.id, byMs)))

  it("a page acts and judges expiry on the organisation's clock, not the wall clock (no due work run)", async () => {
    const own = await startServer({ sandboxToken: PAGES_TOKEN })
    try {
      const ownClient = localClient(PAGES_TOKEN, own.url)
      // A day ahead: the visit the page records is no earlier than the authorisation's creation.
      await raiseClock(own, 24 * 60 * MINUTE)
      const fresh = (await bankAuthorisation(ownClient)).authorisation
      expect((await fetch(fresh.url ?? "")).status).toBe(200)
      const visited = await ownClient.bankAuthorisations.find(fresh.id ?? "")
      expect(Date.parse(visited.last_visited_at ?? "")).toBeGreaterThanOrEqual(Date.parse(fresh.created_at ?? ""))
      // Past expires_at on the organisation's clock, before the expiry's due work ran: the link is expired.
      const { authorisation } = await bankAuthorisation(ownClient)
      await raiseClock(own, 24 * 60 * MINUTE + 20 * MINUTE)
      const html = await (await fetch(authorisation.url ?? "")).text()
      expect(html).toContain("This authorisation link has expired.")
      expect(html).not.toContain("<form")
    } finally {
      await own.close()
    }
  })
})

describe("a live server", () => {
  const SECRET = "33".repeat(32)
  it("serves no sandbox bank: its page, its post and its completion answer 403 and change nothing", async () => {
    const live = await startServer({ mode: "live", secretKey: SECRET })
    try {
      const liveClient = localClient(live.boot.accessToken ?? "", live.url)
      const { authorisation } = await bankAuthorisation(liveClient)
      const page = await fetch(authorisation.url ?? "")
      expect(page.status).toBe(403)
      expect(await page.text()).not.toContain("<form")
      // A token the server would take, had it served the form.
      const csrf = csrfSignerFrom(Buffer.from(SECRET, "hex")).sign("bank_authorisation", live.boot.organisation.id, authorisation.id ?? "", Date.now())
      expect((await post(authorisation.url ?? "", { choice: "authorise", csrf_token: csrf })).status).toBe(403)
      expect((await fetch(`${authorisation.url}/complete`)).status).toBe(403)
      const stored = await liveClient.bankAuthorisations.find(authorisation.id ?? "")
      expect(stored.last_visited_at).toBeNull()
      expect(stored.authorised_at).toBeNull()
    } finally {
      await live.close()
    }
  })
})

describe.each(SERVER_DATABASES)("on %s", (_name, start) => {
  it("a NUL in the organisation of a page's path is a 404 page, never a lookup", async () => {
    const own = await start()
    try {
      for (const path of ["/pages/OR%00/bank_authorisations/BAU000000000000/AAAAAAAAAAAAAAAAAAAAAA", "/pages/OR%00/outbound_payment_imports/IM000000000000"]) {
        const missing = await fetch(`${own.url}${path}`)
        expect(missing.status, path).toBe(404)
        expect(await missing.text(), path).toContain("There is nothing at this address.")
      }
    } finally {
      await own.close()
    }
  })

  it("the bank page's visit and choice are stored", async () => {
    const own = await start()
    try {
      const token = own.boot.accessToken ?? ""
      const ownClient = localClient(token, own.url)
      const { authorisation } = await bankAuthorisation(ownClient)
      const csrf = hiddenToken(await (await fetch(authorisation.url ?? "")).text())
      expect((await post(authorisation.url ?? "", { choice: "authorise", csrf_token: csrf })).status).toBe(303)
      const stored = await ownClient.bankAuthorisations.find(authorisation.id ?? "")
      expect(stored.last_visited_at).not.toBeNull()
      expect(stored.authorised_at).not.toBeNull()
    } finally {
      await own.close()
    }
  })
})

describe("the import authorisation page", () => {
  it("refuses a decision without an access token of the organisation, then authorises with one", async () => {
    const created = await validatedImport(server, client)
    const url = created.authorisation_url ?? ""
    const token = hiddenToken(await (await fetch(url)).text())
    const refused = await post(url, { choice: "authorise", csrf_token: token, access_token: "not-a-token-of-anyone" })
    expect(refused.status).toBe(401)
    expect((await client.outboundPaymentImports.find(created.id ?? "")).status).toBe("valid")
    const authorised = await post(url, { choice: "authorise", csrf_token: token, access_token: PAGES_TOKEN })
    expect(authorised.status).toBe(303)
    expect((await client.outboundPaymentImports.find(created.id ?? "")).status).toBe("processed")
  })

  it("a read-only token may not decide; Cancel with a read-write one cancels the import", async () => {
    const created = await validatedImport(server, client)
    const url = created.authorisation_url ?? ""
    const token = hiddenToken(await (await fetch(url)).text())
    const readOnly = await server.runtime.runPromise(issueAccessToken({ id: "AT_pages_read_only", organisation: server.boot.organisation.id, scope: "read_only" }))
    const refused = await post(url, { choice: "cancel", csrf_token: token, access_token: readOnly })
    expect(refused.status).toBe(403)
    expect((await client.outboundPaymentImports.find(created.id ?? "")).status).toBe("valid")
    const cancelled = await post(url, { choice: "cancel", csrf_token: token, access_token: PAGES_TOKEN })
    expect(cancelled.status).toBe(303)
    expect((await client.outboundPaymentImports.find(created.id ?? "")).status).toBe("cancelled")
    // The page then offers no decision.
    expect(await (await fetch(url)).text()).not.toContain("<form")
  })
})
