import { randomUUID } from "node:crypto"
import { connect } from "node:net"
import { expect } from "vitest"
import { createPaykitApp, type PaykitApp } from "../src/index.ts"
import { localClient } from "./harness.ts"

/**
 * What every adapter test drives: paykit mounted at `/paykit` in a host, the official client
 * through a create, an action, a list with cursors and an idempotency conflict; the prefix on
 * the links it answers with; a body never sent answered 408.
 */

export const MOUNT = "/paykit"
export const TOKEN = "sandbox_mount_test_token_0123456789"
/** Short, so the 408 test waits little; the client's requests send their bodies at once. */
export const BODY_TIMEOUT_MS = 800

export const startPaykit = (publicUrl?: string): Promise<PaykitApp> =>
  createPaykitApp({
    basePath: MOUNT,
    sandboxToken: TOKEN,
    bodyTimeoutMs: BODY_TIMEOUT_MS,
    log: () => {},
    requestLog: () => {},
    ...(publicUrl === undefined ? {} : { publicUrl })
  })

/** The official client's flows against paykit at `${origin}/paykit`. */
export const clientFlows = async (origin: string): Promise<void> => {
  const client = localClient(TOKEN, `${origin}${MOUNT}`)
  // A create, and the same key again with another body: the 409 conflict, which the client
  // answers by fetching the resource the key made.
  const key = randomUUID()
  const made = await client.customers.create({ email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" }, key)
  const again = await client.customers.create({ email: "other@example.com", given_name: "Other", family_name: "Person" }, key)
  expect(again.id).toBe(made.id)
  expect(again.email).toBe("ada@example.com")
  // An action.
  const request = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } })
  const cancelled = await client.billingRequests.cancel(request.id ?? "", {})
  expect(cancelled.status).toBe("cancelled")
  // A list with cursors: every customer made here, once, through pages of two.
  const names = ["Grace", "Alan"]
  const ids = [made.id]
  for (const name of names) ids.push((await client.customers.create({ email: `${name.toLowerCase()}@example.com`, given_name: name, family_name: "Test" })).id)
  const seen: Array<string | undefined> = []
  let after: string | undefined = undefined
  do {
    const page: Awaited<ReturnType<typeof client.customers.list>> = await client.customers.list(after === undefined ? { limit: 2 } : { limit: 2, after })
    expect(page.customers.length).toBeLessThanOrEqual(2)
    seen.push(...page.customers.map((c) => c.id))
    after = page.meta.cursors?.after ?? undefined
  } while (after !== undefined && after !== null)
  expect(seen.length).toBeGreaterThan(2)
  expect(new Set(seen).size).toBe(seen.length)
  for (const id of ids) expect(seen).toContain(id)
}

/** An error's `documentation_url`, a creation's `Location` and a hosted page's URL carry the prefix; the page answers there. */
export const prefixedLinks = async (origin: string): Promise<void> => {
  const headers = { authorization: `Bearer ${TOKEN}`, "gocardless-version": "2015-07-06", "content-type": "application/json" }
  const missing = await fetch(`${origin}${MOUNT}/customers/CU0000000000`, { headers })
  expect(missing.status).toBe(404)
  const error = (await missing.json()) as { error: { documentation_url: string } }
  // Absolute under the public URL where the host names one (the reference's rule), under the prefix either way.
  expect(error.error.documentation_url).toMatch(/^(https?:\/\/[^/]+)?\/paykit\/docs#/)
  const created = await fetch(`${origin}${MOUNT}/billing_requests`, {
    method: "POST",
    headers,
    body: JSON.stringify({ billing_requests: { mandate_request: { currency: "GBP", scheme: "bacs" } } })
  })
  expect(created.status).toBe(201)
  expect(created.headers.get("location")).toMatch(/^\/paykit\/billing_requests\//)
  const request = (await created.json()) as { billing_requests: { id: string } }
  const flow = await fetch(`${origin}${MOUNT}/billing_request_flows`, {
    method: "POST",
    headers,
    body: JSON.stringify({ billing_request_flows: { links: { billing_request: request.billing_requests.id } } })
  })
  const body = (await flow.json()) as { billing_request_flows: { authorisation_url: string } }
  // The page's URL is the public origin (the default, `http://localhost`) and the prefix; it answers at the host.
  const pageUrl = new URL(body.billing_request_flows.authorisation_url)
  expect(`${pageUrl.origin}${pageUrl.pathname}`.startsWith(`http://localhost${MOUNT}/`)).toBe(true)
  const page = await fetch(`${origin}${pageUrl.pathname}${pageUrl.search}`)
  expect(page.status).toBe(200)
  const text = await page.text()
  expect(text).toContain("<form")
  // Its forms and its own links are under the prefix too.
  expect(text).not.toMatch(/(action|href)="\/(?!paykit\/)/)
  expect(text).toMatch(/action="\/paykit\//)
}

/**
 * Sends a request's headers declaring a body, and never the body: the answer's status line and
 * how long it took. The socket is closed after `limitMs` if nothing came, so a hang fails the test
 * rather than stalling it.
 */
export const bodyNeverSent = (origin: string, path: string, contentType: string | undefined, limitMs = BODY_TIMEOUT_MS * 5) =>
  new Promise<{ readonly status: string; readonly ms: number }>((resolve, reject) => {
    const { hostname, port } = new URL(origin)
    const started = performance.now()
    const socket = connect(Number(port), hostname)
    let answer = ""
    const timer = setTimeout(() => {
      socket.destroy()
      resolve({ status: "none", ms: performance.now() - started })
    }, limitMs)
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString("utf8")
      const line = answer.split("\r\n")[0] ?? ""
      if (answer.includes("\r\n")) {
        clearTimeout(timer)
        socket.destroy()
        resolve({ status: line, ms: performance.now() - started })
      }
    })
    socket.on("error", reject)
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${TOKEN}\r\nGoCardless-Version: 2015-07-06\r\n` +
        `${contentType === undefined ? "" : `Content-Type: ${contentType}\r\n`}Content-Length: 40\r\n\r\n`
    )
  })

export const expect408 = async (origin: string, contentType: string | undefined = "application/json"): Promise<void> => {
  const answer = await bodyNeverSent(origin, `${MOUNT}/customers`, contentType)
  expect(answer.status).toMatch(/^HTTP\/1\.1 408/)
  expect(answer.ms).toBeLessThan(BODY_TIMEOUT_MS * 3)
}
