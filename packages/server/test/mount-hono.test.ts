import { serve, type ServerType } from "@hono/node-server"
import { Hono } from "hono"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, it } from "vitest"
import type { PaykitApp } from "../src/index.ts"
import { clientFlows, expect408, MOUNT, prefixedLinks, startPaykit } from "./mount-support.ts"

describe("paykit mounted in Hono (node server)", () => {
  let paykit: PaykitApp
  let server: ServerType
  let origin: string
  beforeAll(async () => {
    paykit = await startPaykit()
    const app = new Hono()
    app.all(`${MOUNT}/*`, (c) => paykit.fetch(c.req.raw))
    origin = await new Promise<string>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}`))
    })
  }, 150_000)
  afterAll(async () => {
    server.close()
    await paykit.close()
  })

  it("serves the official client's flows", () => clientFlows(origin), 60_000)
  it("answers with links under the prefix", () => prefixedLinks(origin), 60_000)
  it("answers 408 to a body never sent", () => expect408(origin), 10_000)
})
