import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Readable } from "node:stream"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { PaykitApp } from "../src/index.ts"
import { clientFlows, expect408, MOUNT, prefixedLinks, startPaykit, TOKEN } from "./mount-support.ts"

/** A node:http server that hands each request to a fetch handler, as Bun's or Deno's `serve` does. */
const fetchServer = (handler: (request: Request) => Promise<Response>): Server =>
  createServer((req: IncomingMessage, res: ServerResponse) => {
    const hasBody = req.method !== "GET" && req.method !== "HEAD"
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value)
    const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
      method: req.method ?? "GET",
      headers,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {})
    })
    void handler(request).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers))
      res.end(Buffer.from(await response.arrayBuffer()))
    })
  })

describe("paykit as a fetch handler", () => {
  let paykit: PaykitApp
  let server: Server
  let origin: string
  beforeAll(async () => {
    paykit = await startPaykit()
    server = fetchServer((request) => paykit.fetch(request))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }, 150_000)
  afterAll(async () => {
    server.close()
    await paykit.close()
  })

  it("answers a Request handed to it directly", async () => {
    const response = await paykit.fetch(new Request(`http://localhost${MOUNT}/customers?limit=1`, {
      headers: { authorization: `Bearer ${TOKEN}`, "gocardless-version": "2015-07-06" }
    }))
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ meta: { limit: 1 } })
  })
  it("serves the connect server (OAuth) under the prefix, through the app's handler and its own", async () => {
    const token = () => new Request(`http://localhost${MOUNT}/connect/oauth/access_token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=authorization_code&code=nothing&client_id=nobody&client_secret=none&redirect_uri=https%3A%2F%2Fexample.com"
    })
    for (const handler of [paykit.fetch, paykit.connect.fetch]) {
      const answer = await handler(token())
      expect(answer.status).not.toBe(404)
      expect(answer.status).toBeGreaterThanOrEqual(400)
      expect(answer.status).toBeLessThan(500)
      expect(await answer.json()).toHaveProperty("error")
    }
    // The API's paths are not the connect server's.
    expect((await paykit.connect.fetch(new Request(`http://localhost${MOUNT}/connect/customers`))).status).toBe(404)
  })
  it("serves the official client's flows through a fetch-style server", () => clientFlows(origin), 60_000)
  it("answers with links under the prefix", () => prefixedLinks(origin), 60_000)
  it("answers 408 to a body never sent", () => expect408(origin), 10_000)
})
