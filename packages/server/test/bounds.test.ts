import { connect } from "node:net"
import { request } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Layer, ManagedRuntime } from "effect"
import { REQUEST_BODY_MAX_BYTES, RequestLog, type RequestLogEntry, serverUrl } from "@paykit/http"
import { makeServer, ServerLog } from "../src/index.ts"
import { startServer, testConfig, type TestServer } from "./harness.ts"

/**
 * Bounded requests, as slow or greedy clients meet them: raw sockets on 127.0.0.1 that declare
 * bodies they never send, stop halfway through their headers, or send more than the limit.
 */

interface RawAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly ms: number
}

/** Sends `head` (and then nothing, unless `body`), reads whatever answer comes until the server closes. */
const raw = (url: string, head: string, options: { readonly body?: string; readonly hangUpAfterMs?: number } = {}) =>
  new Promise<RawAnswer | "closed without an answer">((resolve, reject) => {
    const started = performance.now()
    const socket = connect(Number(new URL(url).port), "127.0.0.1")
    const chunks: Array<Buffer> = []
    socket.on("connect", () => {
      socket.write(head)
      if (options.body !== undefined) socket.write(options.body)
      if (options.hangUpAfterMs !== undefined) setTimeout(() => socket.destroy(), options.hangUpAfterMs)
    })
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.on("error", reject)
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8")
      const split = text.indexOf("\r\n\r\n")
      if (split === -1) return resolve("closed without an answer")
      const [statusLine = "", ...lines] = text.slice(0, split).split("\r\n")
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]))
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: text.slice(split + 4), ms: performance.now() - started })
    })
  })

/** The spec's error body, with the status and the request id of the answer. */
const expectErrorBody = (answer: RawAnswer | string, status: number, reason: string) => {
  if (typeof answer === "string") throw new Error(answer)
  expect(answer.status).toBe(status)
  const parsed = JSON.parse(answer.body) as { error: { code: number; request_id: string; errors: Array<{ reason: string }> } }
  expect(parsed.error.code).toBe(status)
  expect(parsed.error.request_id).toBe(answer.headers["x-request-id"])
  expect(parsed.error.errors[0]?.reason).toBe(reason)
}

const postHead = (path: string, token: string, extra: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nGoCardless-Version: 2015-07-06\r\n` +
  `Content-Type: application/json\r\nIdempotency-Key: ${crypto.randomUUID()}\r\n${extra}\r\n`

const BODY_TIMEOUT_MS = 600
const HEADERS_TIMEOUT_MS = 600

describe("bounded requests", () => {
  let server: TestServer
  let token: string
  beforeAll(async () => {
    server = await startServer({ serve: { headersTimeout: HEADERS_TIMEOUT_MS, bodyTimeout: BODY_TIMEOUT_MS } })
    token = server.boot.accessToken ?? ""
  })
  afterAll(() => server.close())

  it.each(["/creditors", "/sandbox/simulator/advance"])("%s: a body declared over the limit is 413 before any of it is sent", async (path) => {
    const answer = await raw(server.url, postHead(path, token, `Content-Length: ${400 * 1024 * 1024}\r\n`))
    expectErrorBody(answer, 413, "request_entity_too_large")
  })

  it.each(["/creditors", "/sandbox/simulator/advance"])("%s: a chunked body over the limit is 413, and what follows is not kept", async (path) => {
    const sent = 8 * REQUEST_BODY_MAX_BYTES
    const before = process.memoryUsage().arrayBuffers
    let peak = before
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${server.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06", "content-type": "application/json", "idempotency-key": crypto.randomUUID() }
      }, (res) => {
        let body = ""
        res.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
      })
      // The server may close the connection once it has answered; that is not a failure here.
      req.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" || error.code === "EPIPE" ? undefined : reject(error)))
      const chunk = Buffer.alloc(1024 * 1024, 0x20)
      let written = 0
      const pump = () => {
        while (written < sent) {
          written += chunk.length
          peak = Math.max(peak, process.memoryUsage().arrayBuffers)
          if (!req.write(chunk)) return void req.once("drain", pump)
        }
        req.end()
      }
      pump()
    })
    expect(status.status).toBe(413)
    expect((JSON.parse(status.body) as { error: { errors: Array<{ reason: string }> } }).error.errors[0]?.reason).toBe("request_entity_too_large")
    // Client and server share this process: the server kept at most the limit (plus socket buffers), not the 40 MiB sent.
    expect(peak - before).toBeLessThan(3 * REQUEST_BODY_MAX_BYTES)
  })

  it.each(["/creditors", "/sandbox/simulator/advance"])("%s: a declared body that never comes is 408 with the error body after the body timeout", async (path) => {
    const answer = await raw(server.url, postHead(path, token, "Content-Length: 100\r\n"), { body: "{\"cust" })
    expectErrorBody(answer, 408, "request_timeout")
    if (typeof answer === "string") return
    expect(answer.ms).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50)
    expect(answer.ms).toBeLessThan(BODY_TIMEOUT_MS + 2_000)
  })

  it("headers that stop halfway are 408 with the error body after the headers timeout", async () => {
    const answer = await raw(server.url, "POST /creditors HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthoriz")
    expectErrorBody(answer, 408, "request_timeout")
    if (typeof answer === "string") return
    // Node checks the headers timeout once a second.
    expect(answer.ms).toBeLessThan(HEADERS_TIMEOUT_MS + 2_500)
  })

  it("bytes that are not HTTP are 400 with the error body", async () => {
    const answer = await raw(server.url, "HELLO\0 /\r\n\r\n")
    expectErrorBody(answer, 400, "malformed_request")
  })

  it("headers over Node's limit are 431 with the error body", async () => {
    const answer = await raw(server.url, `GET /creditors HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`)
    expectErrorBody(answer, 431, "request_headers_too_large")
  })

  it("a request that arrives whole in time is served", async () => {
    const body = JSON.stringify({ by: "PT1H" })
    const answer = await raw(server.url, postHead("/sandbox/simulator/advance", token, `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n`), { body })
    if (typeof answer === "string") throw new Error(answer)
    expect(answer.status).toBe(200)
  })
})

describe("shutdown and slow uploads", () => {
  it.each(["/creditors", "/sandbox/simulator/advance"])("%s: an upload abandoned by its client does not hold the shutdown", async (path) => {
    // The default wait for requests in flight (20 s) and body timeout (30 s): neither may be waited for.
    const server = await startServer()
    const token = server.boot.accessToken ?? ""
    const answer = await raw(server.url, postHead(path, token, "Content-Length: 100\r\n"), { body: "{\"a", hangUpAfterMs: 200 })
    expect(answer).toBe("closed without an answer")
    const started = performance.now()
    await server.close()
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  it("an upload still connected but stalled is answered 408 at its body timeout, and the shutdown ends then", async () => {
    const server = await startServer({ serve: { bodyTimeout: 1_000 } })
    const token = server.boot.accessToken ?? ""
    const answered = raw(server.url, postHead("/creditors", token, "Content-Length: 100\r\n"), { body: "{\"a" })
    await new Promise((resolve) => setTimeout(resolve, 200))
    const started = performance.now()
    await server.close()
    expect(performance.now() - started).toBeLessThan(3_000)
    expectErrorBody(await answered, 408, "request_timeout")
  })
})

describe("the request log", () => {
  it("has one line for each refusal, with the request id its client was given", async () => {
    const entries: Array<RequestLogEntry> = []
    const logs = Layer.mergeAll(Layer.succeed(RequestLog, (entry: RequestLogEntry) => void entries.push(entry)), Layer.succeed(ServerLog, () => {}))
    const runtime = ManagedRuntime.make(makeServer(testConfig({}), { serve: { bodyTimeout: 300, headersTimeout: 300 } }).pipe(Layer.provide(logs)))
    try {
      const url = await runtime.runPromise(serverUrl)
      const answers = [
        await raw(url, postHead("/sandbox/simulator/advance", "none", `Content-Length: ${REQUEST_BODY_MAX_BYTES + 1}\r\n`)),
        await raw(url, postHead("/creditors", "none", "Content-Length: 100\r\n")),
        await raw(url, "HELLO\0 /\r\n\r\n")
      ]
      const lines = answers.map((answer) => typeof answer === "string" ? undefined : entries.find((e) => e.request_id === answer.headers["x-request-id"]))
      expect(lines.map((line) => [line?.method, line?.path, line?.status])).toEqual([
        ["POST", "/sandbox/simulator/advance", 413],
        ["POST", "/creditors", 408],
        ["-", "-", 400]
      ])
    } finally {
      await runtime.dispose()
    }
  })
})
