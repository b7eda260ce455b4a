import Fastify, { type FastifyInstance } from "fastify"
import { afterAll, beforeAll, describe, it } from "vitest"
import type { PaykitApp } from "../src/index.ts"
import { clientFlows, expect408, MOUNT, prefixedLinks, startPaykit } from "./mount-support.ts"

describe("paykit mounted in Fastify 5", () => {
  let paykit: PaykitApp
  let app: FastifyInstance
  let origin: string
  beforeAll(async () => {
    paykit = await startPaykit()
    app = Fastify()
    await app.register(async (scope) => {
      // In paykit's scope the body is left on the stream for paykit to read (and time).
      scope.removeAllContentTypeParsers()
      scope.addContentTypeParser("*", (_request, _payload, done) => done(null))
      scope.all("/*", (request, reply) => {
        reply.hijack()
        paykit.handleNode(request.raw, reply.raw)
      })
    }, { prefix: MOUNT })
    origin = await app.listen({ port: 0, host: "127.0.0.1" })
  }, 150_000)
  afterAll(async () => {
    await app.close()
    await paykit.close()
  })

  it("serves the official client's flows", () => clientFlows(origin), 60_000)
  it("answers with links under the prefix", () => prefixedLinks(origin), 60_000)
  it("answers 408 to a body never sent", () => expect408(origin), 10_000)
})
