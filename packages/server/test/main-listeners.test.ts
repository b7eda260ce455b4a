import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ChildServer, freePort, startChild, stopChild } from "./child-server.ts"
import { tempDataDir } from "./harness.ts"

/**
 * `npm start`'s two listeners, as `main.ts` opens them around `createPaykitApp`: the API's answers
 * what Node cannot read as a request with the API's error body (`attach`), and serves the API
 * alone (no connect paths); the connect server answers on its own port at the root, the one the
 * `listening` line names; SIGTERM stops the process cleanly.
 */

/** The first bytes a server answers to `bytes` sent on a raw connection. */
const rawAnswer = (url: string, bytes: string) =>
  new Promise<string>((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname)
    let answer = ""
    socket.on("data", (chunk: Buffer) => void (answer += chunk.toString("utf8")))
    socket.on("end", () => resolve(answer))
    socket.on("close", () => resolve(answer))
    socket.on("error", reject)
    socket.write(bytes)
  })

describe("npm start's listeners", () => {
  const data = tempDataDir()
  let server: ChildServer
  let url: string
  let connectUrl: string
  beforeAll(async () => {
    server = startChild({ dataDir: data.dir }, await freePort())
    url = await server.listening
    connectUrl = /"connect_url":"([^"]+)"/.exec(server.output())?.[1] ?? ""
  }, 120_000)
  afterAll(async () => {
    await stopChild(server)
    data.remove()
  })

  it("answers bytes that are not HTTP with the API's error body", { timeout: 30_000 }, async () => {
    const answer = await rawAnswer(url, "HELLO\0 /\r\n\r\n")
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(answer).toContain("malformed_request")
  })

  it("serves the connect server at the root of its own port, and not on the API's", { timeout: 30_000 }, async () => {
    expect(connectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(new URL(connectUrl).port).not.toBe(new URL(url).port)
    const introspect = (base: string) =>
      fetch(`${base}/oauth/introspect`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "token=unknown" })
    expect((await introspect(connectUrl)).status).not.toBe(404)
    expect((await introspect(url)).status).toBe(404)
    expect((await fetch(`${url}/connect/oauth/introspect`, { method: "POST" })).status).toBe(404)
  })

  it("stops on SIGTERM after saying so, with no signal left to kill it", { timeout: 60_000 }, async () => {
    const ended = await stopChild(server, "SIGTERM")
    expect(ended.signal).toBe(null)
    expect(server.output()).toContain("shutting down; finishing requests in flight")
  })
})
