import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import type { PaykitApp } from "../src/index.ts"

/**
 * docs/embedding-http.md's snippets, each taken from the page as written, compiled and run: the
 * host it builds answers a list through the prefix with the token paykit made.
 */

const page = readFileSync(new URL("../../../docs/embedding-http.md", import.meta.url), "utf8")

const snippet = (name: string): string => {
  const found = new RegExp(`<!-- snippet: ${name} -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(page)?.[1]
  if (found === undefined) throw new Error(`docs/embedding-http.md has no snippet ${name}`)
  return found
}

// Next to the tests, so the snippet's imports resolve as a host's would.
const dir = mkdtempSync(join(import.meta.dirname, ".snippets-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs a snippet with `exports` appended, on a free port. */
const run = async <T>(name: string, exports: string): Promise<T> => {
  const file = join(dir, `${name}.ts`)
  writeFileSync(file, `${snippet(name)}\nexport { ${exports} }\n`)
  process.env["PORT"] = "0"
  try {
    return (await import(file)) as T
  } finally {
    delete process.env["PORT"]
  }
}

const listCustomers = async (send: (request: Request) => Promise<Response>, origin: string, paykit: PaykitApp) => {
  const response = await send(new Request(`${origin}/paykit/customers?limit=1`, {
    headers: { authorization: `Bearer ${paykit.accessToken ?? ""}`, "gocardless-version": "2015-07-06" }
  }))
  expect(response.status).toBe(200)
  expect(await response.json()).toMatchObject({ meta: { limit: 1 } })
}

const originOf = (server: Pick<Server, "address">) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`

/** A snippet that starts a node:http server of its own (Express, Hono): it lists under /paykit once listening. */
const listsOnItsServer = async (snippet: string) => {
  const { paykit, server } = await run<{ paykit: PaykitApp; server: Server }>(snippet, "paykit, server")
  await new Promise((resolve) => server.listening ? resolve(undefined) : server.once("listening", resolve))
  try {
    await listCustomers(fetch, originOf(server), paykit)
  } finally {
    server.close()
    await paykit.close()
  }
}

describe("docs/embedding-http.md", () => {
  it("the Express snippet serves the API under /paykit", { timeout: 150_000 }, () => listsOnItsServer("express"))

  it("the Fastify snippet serves the API under /paykit", { timeout: 150_000 }, async () => {
    const { paykit, app } = await run<{ paykit: PaykitApp; app: { server: Server; close: () => Promise<void> } }>("fastify", "paykit, app")
    try {
      await listCustomers(fetch, originOf(app.server), paykit)
    } finally {
      await app.close()
      await paykit.close()
    }
  })

  it("the Hono snippet serves the API under /paykit", { timeout: 150_000 }, () => listsOnItsServer("hono"))

  it("the fetch snippet answers a Request", { timeout: 150_000 }, async () => {
    const module = await run<{ paykit: PaykitApp; default: { fetch: (request: Request) => Promise<Response> } }>("fetch", "paykit")
    try {
      await listCustomers((request) => module.default.fetch(request), "http://localhost", module.paykit)
    } finally {
      await module.paykit.close()
    }
  })
})
