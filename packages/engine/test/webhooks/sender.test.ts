import { Effect } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import {
  keptHeaders, makeNodeSender, SANDBOX_SENDER_POLICY, WEBHOOK_RESPONSE_BODY_MAX_BYTES, WEBHOOK_RESPONSE_HEADER_MAX_LENGTH,
  WEBHOOK_RESPONSE_HEADERS_MAX_COUNT
} from "@paykit/engine"

const servers: Array<Server> = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})

const serve = async (handler: Parameters<typeof createServer>[1]) => {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
}

describe("what an attempt keeps of the answer", () => {
  it("the body up to its limit, flagged when cut", async () => {
    const url = await serve((_request, response) => response.end("x".repeat(WEBHOOK_RESPONSE_BODY_MAX_BYTES * 4)))
    const result = await Effect.runPromise(makeNodeSender(SANDBOX_SENDER_POLICY).send({ url, headers: {}, body: "{}" }, true))
    expect(result).toMatchObject({ _tag: "Answered", status: 200, bodyTruncated: true })
    expect(result._tag === "Answered" && result.body.length).toBe(WEBHOOK_RESPONSE_BODY_MAX_BYTES)
    const small = await serve((_request, response) => response.end("fine"))
    expect(await Effect.runPromise(makeNodeSender(SANDBOX_SENDER_POLICY).send({ url: small, headers: {}, body: "{}" }, true)))
      .toMatchObject({ _tag: "Answered", status: 200, body: "fine", bodyTruncated: false })
  })

  it("a redirect is an answer, not followed", async () => {
    let followed = 0
    const target = await serve(() => void followed++)
    const url = await serve((_request, response) => response.writeHead(307, { location: target }).end())
    expect(await Effect.runPromise(makeNodeSender(SANDBOX_SENDER_POLICY).send({ url, headers: {}, body: "{}" }, true))).toMatchObject({ _tag: "Answered", status: 307 })
    expect(followed).toBe(0)
  })

  it("at most so many headers, each cut to its length, flagged", () => {
    const many = Array.from({ length: WEBHOOK_RESPONSE_HEADERS_MAX_COUNT + 5 }, (_, i) => [`x-h${i}`, "v"] as const)
    expect(keptHeaders(many)).toMatchObject({ countTruncated: true, contentTruncated: false })
    expect(Object.keys(keptHeaders(many).headers)).toHaveLength(WEBHOOK_RESPONSE_HEADERS_MAX_COUNT)
    const long = keptHeaders([["x-long", "y".repeat(WEBHOOK_RESPONSE_HEADER_MAX_LENGTH + 1)], ["set-cookie", "a"], ["set-cookie", "b"]])
    expect(long).toMatchObject({ countTruncated: false, contentTruncated: true, headers: { "set-cookie": "a, b" } })
    expect(long.headers["x-long"]).toHaveLength(WEBHOOK_RESPONSE_HEADER_MAX_LENGTH)
  })
})
