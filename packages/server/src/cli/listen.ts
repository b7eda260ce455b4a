import { randomBytes, timingSafeEqual } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { GOCARDLESS_SIGNATURE_HEADER, gocardlessSignature, STANDARD_ID_HEADER, STANDARD_TIMESTAMP_HEADER } from "@paykit/engine"
import { API_OPTIONS, API_OPTIONS_HELP, apiOf, field } from "./api.ts"
import { CommandFailure, defineCommand, flagOf, type Io, stopRequested, stringOf, UsageError } from "./args.ts"

/**
 * `paykit listen --forward-to <url>`: the organisation's webhooks, forwarded to a receiver on the
 * developer's machine, as the Stripe CLI's `listen` does. It listens on a loopback port of its own
 * and makes a webhook endpoint there (`POST /webhook_endpoints`, with a secret only it knows),
 * which a sandbox server may call because the operator's organisations may reach loopback
 * receivers (docs/webhooks.md, Safety). Each delivery is checked against that secret, then sent on
 * to `--forward-to` with the same body and ids, signed with the receiver's own `--secret` (the
 * `Webhook-Signature` scheme), and printed as one line; the receiver's status is paykit's answer,
 * so a failing receiver gets paykit's retries. On SIGINT or SIGTERM the endpoint is disabled.
 */

/** How long the receiver has to answer, as paykit's own sender allows (`WEBHOOK_TIMEOUT_MS`). */
const FORWARD_TIMEOUT_MS = 10_000

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const signedBy = (secret: string, body: string, given: string | undefined): boolean => {
  const expected = Buffer.from(gocardlessSignature(secret, body))
  const actual = Buffer.from((given ?? "").trim().toLowerCase())
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}

/** The events of a body, as `resource_type.action resource`, for the printed line. */
const eventsOf = (body: string): ReadonlyArray<{ readonly id: string; readonly resource_type: string; readonly action: string; readonly resource: string }> => {
  try {
    const parsed: unknown = JSON.parse(body)
    const events: unknown = typeof parsed === "object" && parsed !== null ? Reflect.get(parsed, "events") : undefined
    if (!Array.isArray(events)) return []
    return events.map((event: unknown) => {
      const type = field(event, "resource_type")
      const links: unknown = typeof event === "object" && event !== null ? Reflect.get(event, "links") : undefined
      const singular = type.replace(/s$/, "")
      return { id: field(event, "id"), resource_type: type, action: field(event, "action"), resource: field(links, singular) || field(links, type) }
    })
  } catch {
    return []
  }
}

interface Forwarded { readonly status: number | null; readonly error?: string }

const forward = async (target: string, secret: string, body: string, request: IncomingMessage): Promise<Forwarded> => {
  const header = (name: string) => {
    const value = request.headers[name.toLowerCase()]
    return typeof value === "string" ? { [name]: value } : {}
  }
  try {
    const response = await fetch(target, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...header(STANDARD_ID_HEADER),
        ...header(STANDARD_TIMESTAMP_HEADER),
        [GOCARDLESS_SIGNATURE_HEADER]: gocardlessSignature(secret, body)
      },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS)
    })
    await response.arrayBuffer()
    return { status: response.status }
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error)
    return { status: null, error: cause }
  }
}

const listening = (server: Server): Promise<AddressInfo> =>
  new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      if (typeof address === "object" && address !== null) resolve(address)
      else reject(new Error("the listener has no address"))
    })
  })

const targetOf = (value: string | undefined): string => {
  if (value === undefined) throw new UsageError("--forward-to <url> is required")
  try {
    const url = new URL(value)
    if (url.protocol === "http:" || url.protocol === "https:") return url.href
  } catch {
    // refused below
  }
  throw new UsageError(`--forward-to must be an http or https URL, not "${value}"`)
}

export const listenCommand = defineCommand({
  name: "listen",
  summary: "receive the organisation's webhooks and forward them, signed with your secret, to a local URL",
  usage: ["listen --forward-to <url> [--secret <secret>]"],
  options: { ...API_OPTIONS, "forward-to": { type: "string" }, secret: { type: "string" } },
  optionsHelp: [
    "  --forward-to <url>   where each webhook is sent on (required)",
    "  --secret <secret>    the receiver's signing secret (default: PAYKIT_FORWARD_SECRET, else one made and printed)",
    ...API_OPTIONS_HELP
  ],
  maxPositionals: 0,
  action: async (parsed, io) => {
    const target = targetOf(stringOf(parsed, "forward-to"))
    const secret = stringOf(parsed, "secret") ?? io.env["PAYKIT_FORWARD_SECRET"] ?? randomBytes(24).toString("base64url")
    const api = apiOf(parsed, io)
    const inner = randomBytes(32).toString("base64url")
    const stopped = stopRequested()
    const json = flagOf(parsed, "json")
    const receive = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
      const body = await readBody(request)
      const signature = request.headers[GOCARDLESS_SIGNATURE_HEADER.toLowerCase()]
      if (!signedBy(inner, body, typeof signature === "string" ? signature : undefined)) {
        report(io, json, { ok: false, error: "a request without this listener's signature was refused", webhook_id: null, events: [], status: 401 })
        response.writeHead(401).end()
        return
      }
      const forwarded = await forward(target, secret, body, request)
      const webhookId = request.headers[STANDARD_ID_HEADER]
      report(io, json, {
        ok: forwarded.status !== null && forwarded.status >= 200 && forwarded.status < 300,
        webhook_id: typeof webhookId === "string" ? webhookId : null,
        events: eventsOf(body),
        status: forwarded.status,
        ...(forwarded.error === undefined ? {} : { error: forwarded.error })
      })
      response.writeHead(forwarded.status ?? 502).end()
    }
    // A request that breaks off mid-body is answered 400; paykit retries it.
    const server = createServer((request, response) => void receive(request, response).catch(() => response.writeHead(400).end()))
    const address = await listening(server)
    let endpoint: string
    try {
      const made = await api.request("POST", "/webhook_endpoints", { webhook_endpoints: { url: `http://127.0.0.1:${address.port}/`, secret: inner } })
      endpoint = field(made, "webhook_endpoints", "id")
    } catch (error) {
      server.close()
      throw error
    }
    if (json) io.out(JSON.stringify({ ready: true, webhook_endpoint: endpoint, forward_to: target, secret }))
    else io.out(`Ready: forwarding webhooks to ${target} (endpoint ${endpoint}); signing secret ${secret}. Ctrl-C stops.`)
    await stopped
    try {
      await api.request("POST", `/webhook_endpoints/${endpoint}/actions/disable`, {})
    } catch (error) {
      throw new CommandFailure(`the webhook endpoint ${endpoint} could not be disabled: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      server.close()
      server.closeAllConnections()
    }
  }
})

interface Delivery {
  readonly ok: boolean
  readonly webhook_id: string | null
  readonly events: ReturnType<typeof eventsOf>
  readonly status: number | null
  readonly error?: string
}

/** One line per delivery: when, its id, its events, the receiver's answer. */
const report = (io: Io, json: boolean, delivery: Delivery): void => {
  if (json) {
    io.out(JSON.stringify({ time: new Date().toISOString(), ...delivery }))
    return
  }
  const events = delivery.events.map((e) => `${e.resource_type}.${e.action} ${e.resource}`.trim()).join(", ")
  const answer = delivery.status === null ? `failed: ${delivery.error ?? "no answer"}` : `${delivery.status}`
  io.out(`${new Date().toISOString()}  ${delivery.webhook_id ?? "-"}  ${events || delivery.error || ""}  -> ${answer}`)
}
