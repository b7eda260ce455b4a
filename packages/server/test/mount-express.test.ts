import express from "express"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, it } from "vitest"
import type { PaykitApp } from "../src/index.ts"
import { clientFlows, expect408, MOUNT, prefixedLinks, startPaykit } from "./mount-support.ts"

const listen = (app: express.Express) =>
  new Promise<{ server: Server; origin: string }>((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }))
  })

describe("paykit mounted in Express 5", () => {
  let paykit: PaykitApp
  let behind: { server: Server; origin: string }
  let before: { server: Server; origin: string }
  beforeAll(async () => {
    paykit = await startPaykit()
    // Behind a global body parser: the bodies reach paykit already read, as `req.body`.
    const parsed = express()
    parsed.use(express.json())
    parsed.use(MOUNT, paykit.handleNode)
    behind = await listen(parsed)
    // Ahead of it: paykit reads its own bodies, and the host's parser the rest.
    const ahead = express()
    ahead.use(MOUNT, paykit.handleNode)
    ahead.use(express.json())
    before = await listen(ahead)
  }, 150_000)
  afterAll(async () => {
    behind.server.close()
    before.server.close()
    await paykit.close()
  })

  it("serves the official client's flows behind express.json()", () => clientFlows(behind.origin), 60_000)
  it("serves them mounted ahead of the parser", () => clientFlows(before.origin), 60_000)
  it("answers with links under the prefix", () => prefixedLinks(behind.origin), 60_000)
  it("answers 408 to a body never sent, mounted ahead of the parser", () => expect408(before.origin), 10_000)
  it("answers 408 to a body never sent that the parser in front leaves unread", () => expect408(behind.origin, "text/plain"), 10_000)
})
