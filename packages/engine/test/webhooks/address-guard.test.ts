import { Effect } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { addressCategory, guardedLookup, LIVE_SENDER_POLICY, makeNodeSender, SANDBOX_SENDER_POLICY } from "@paykit/engine"

describe("which addresses a webhook may reach", () => {
  it.each([
    ["127.0.0.1", "loopback"], ["127.8.9.10", "loopback"], ["::1", "loopback"], ["::ffff:127.0.0.1", "loopback"],
    ["10.1.2.3", "private"], ["172.16.0.1", "private"], ["172.31.255.255", "private"], ["192.168.1.1", "private"], ["100.64.0.1", "private"],
    ["::ffff:10.0.0.1", "private"],
    // The same IPv4-mapped addresses as a URL writes them (hexadecimal), and IPv4-compatible ones.
    ["::ffff:7f00:1", "loopback"], ["::ffff:a00:1", "private"], ["::ffff:a9fe:a9fe", "metadata"], ["::7f00:1", "reserved"], ["::127.0.0.1", "reserved"],
    ["169.254.169.254", "metadata"], ["100.100.100.200", "metadata"], ["fd00:ec2::254", "metadata"],
    ["169.254.1.1", "link-local"], ["fe80::1", "link-local"],
    ["fc00::1", "unique-local"], ["fd12:3456::1", "unique-local"],
    ["0.0.0.0", "reserved"], ["::", "reserved"], ["224.0.0.1", "reserved"], ["255.255.255.255", "reserved"], ["64:ff9b::7f00:1", "reserved"]
  ])("%s is %s", (address, category) => {
    expect(addressCategory(address)).toBe(category)
  })

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("%s is public", (address) => {
    expect(addressCategory(address)).toBeUndefined()
  })
})

describe("the sender's refusals", () => {
  const live = makeNodeSender(LIVE_SENDER_POLICY)
  const sandbox = makeNodeSender(SANDBOX_SENDER_POLICY)

  it("live: plain http is refused, https to a public name is allowed", () => {
    expect(live.refusal("http://example.com/hooks", true)).toMatch(/https/)
    expect(live.refusal("https://example.com/hooks", true)).toBeUndefined()
  })

  it.each(["https://127.0.0.1/h", "https://[::1]/h", "https://10.0.0.8/h", "https://169.254.169.254/latest/meta-data", "https://[fd00::1]/h", "https://[fe80::1]/h", "https://192.168.0.10:8443/h", "https://[::ffff:127.0.0.1]/h", "https://[::ffff:169.254.169.254]/h", "https://[::127.0.0.1]/h"])(
    "live: a literal non-public address is refused before connecting (%s)",
    (url) => {
      expect(live.refusal(url, true)).toMatch(/public addresses only/)
    }
  )

  it("sandbox: loopback over http is allowed; private and metadata addresses are not", () => {
    expect(sandbox.refusal("http://127.0.0.1:8080/h", true)).toBeUndefined()
    expect(sandbox.refusal("http://[::1]:8080/h", true)).toBeUndefined()
    expect(sandbox.refusal("http://10.0.0.8/h", true)).toMatch(/private/)
    expect(sandbox.refusal("http://169.254.169.254/h", true)).toMatch(/metadata/)
  })

  it("sandbox, for a chooser not trusted with private targets: the live rules", () => {
    expect(sandbox.refusal("http://127.0.0.1:8080/h", false)).toMatch(/https/)
    expect(sandbox.refusal("https://127.0.0.1:8080/h", false)).toMatch(/loopback/)
    expect(sandbox.refusal("https://example.com/h", false)).toBeUndefined()
  })

  it("a name resolving only to refused addresses is reported by the creation's check; an unresolvable one is left to the connect-time lookup", async () => {
    expect(await Effect.runPromise(live.check("https://localhost/h", true))).toMatch(/localhost resolves to refused addresses: .*loopback/)
    expect(await Effect.runPromise(sandbox.check("https://localhost/h", false))).toMatch(/loopback/)
    expect(await Effect.runPromise(sandbox.check("http://localhost:8080/h", true))).toBeUndefined()
    expect(await Effect.runPromise(live.check("https://no-such-host.invalid/h", true))).toBeUndefined()
  })

  it("live: a name that resolves to loopback passes the URL check and is refused when the request connects; nothing arrives", async () => {
    let arrived = 0
    const server = createServer((_request, response) => {
      arrived++
      response.end("ok")
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const port = (server.address() as AddressInfo).port
    try {
      const url = `https://localhost:${port}/hooks`
      expect(live.refusal(url, true)).toBeUndefined()
      const result = await Effect.runPromise(live.send({ url, headers: {}, body: "{}" }, true))
      expect(result).toEqual({ _tag: "Failed", reason: expect.stringMatching(/loopback/) })
      expect(arrived).toBe(0)
      // The sandbox's sender reaches the same receiver by name.
      const sandboxResult = await Effect.runPromise(sandbox.send({ url: `http://localhost:${port}/hooks`, headers: {}, body: "{}" }, true))
      expect(sandboxResult).toMatchObject({ _tag: "Answered", status: 200, body: "ok" })
      expect(arrived).toBe(1)
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  it("a refused URL is a failed attempt, and nothing is sent", async () => {
    const result = await Effect.runPromise(live.send({ url: "https://127.0.0.1:1/h", headers: {}, body: "{}" }, true))
    expect(result).toEqual({ _tag: "Failed", reason: expect.stringMatching(/loopback/) })
  })
})

describe("the connect-time lookup", () => {
  const resolve = (allowLoopback: boolean, host: string, all: boolean) =>
    new Promise<{ error: Error | null; address: unknown }>((done) =>
      guardedLookup(allowLoopback)(host, { all }, (error, address) => done({ error, address })))

  it("live: a name resolving to loopback is refused at connect time (what DNS rebinding would return)", async () => {
    const single = await resolve(false, "localhost", false)
    expect(single.error?.message).toMatch(/loopback/)
    const all = await resolve(false, "localhost", true)
    expect(all.error?.message).toMatch(/loopback/)
  })

  it("sandbox: the same name is allowed", async () => {
    const single = await resolve(true, "localhost", false)
    expect(single.error).toBeNull()
    expect(String(single.address)).toMatch(/^(127\.|::1)/)
  })
})
