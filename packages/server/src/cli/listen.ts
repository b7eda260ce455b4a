import { randomBytes, timingSafeEqual } from "node:crypto"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { GOCARDLESS_SIGNATURE_HEADER, gocardlessSignature, STANDARD_ID_HEADER, STANDARD_TIMESTAMP_HEADER } from "@paykit/engine/webhook-signing"
import { API_OPTIONS, API_OPTIONS_HELP, apiOf, field } from "./api.ts"
import { CommandFailure, type CommandBody, flagOf, type Io, stopRequested, stringOf, UsageError } from "./args.ts"
import { organisationClock } from "./clock.ts"
import { exchange, nodeHttp } from "./http.ts"

/**
 * `paykit listen --forward-to <url>`: the organisation's webhooks, forwarded to a receiver on the
 * developer's machine, as the Stripe CLI's `listen` does. It listens on a loopback port of its own
 * and makes a webhook endpoint there (`POST /webhook_endpoints`, with a secret only it knows),
 * which a sandbox server may call because the operator's organisations may reach loopback
 * receivers (docs/webhooks.md, Safety). Each delivery is checked against that secret, then sent on
 * to `--forward-to` with the same body and ids, signed with the receiver's own `--secret` (the
 * `Webhook-Signature` scheme), and printed as one line; the receiver's status is paykit's answer,
 * so a failing receiver gets paykit's retries. `--events` keeps the events named: a delivery
 * holding none of them is acknowledged and not sent on, one holding some is sent on with those
 * only. On SIGINT or SIGTERM the endpoint is disabled, and the last line says so.
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

interface EventSummary { readonly id: string; readonly resource_type: string; readonly action: string; readonly resource: string }

/** A delivery's body, parsed: its events, and the whole to send on. */
interface Parsed { readonly whole: Readonly<Record<string, unknown>>; readonly events: ReadonlyArray<unknown> }

const parseBody = (body: string): Parsed | undefined => {
  try {
    const whole: unknown = JSON.parse(body)
    if (typeof whole !== "object" || whole === null || Array.isArray(whole)) return undefined
    const events: unknown = Reflect.get(whole, "events")
    return { whole: whole as Record<string, unknown>, events: Array.isArray(events) ? events : [] }
  } catch {
    return undefined
  }
}

/** An event as `resource_type.action resource`, for the printed line. */
const summaryOf = (event: unknown): EventSummary => {
  const type = field(event, "resource_type")
  const links: unknown = typeof event === "object" && event !== null ? Reflect.get(event, "links") : undefined
  return { id: field(event, "id"), resource_type: type, action: field(event, "action"), resource: field(links, type.replace(/s$/, "")) || field(links, type) }
}

/** An entry of `--events`: a resource type (`payments`), optionally with an action (`payments.confirmed`, `payments.*`). */
const EVENT_PATTERN = /^([a-z_]+)(?:\.([a-z_]+|\*))?$/

/** Which events `--events` keeps (all when it is not given); its entries are comma-separated. */
export const eventFilterOf = (text: string | undefined): ((event: unknown) => boolean) | undefined => {
  if (text === undefined) return undefined
  const entries = text.split(",").map((e) => e.trim()).filter((e) => e !== "")
  if (entries.length === 0) throw new UsageError("--events needs at least one resource_type or resource_type.action")
  const wanted = entries.map((entry) => {
    const match = EVENT_PATTERN.exec(entry)
    if (match === null) throw new UsageError(`--events: "${entry}" is not a resource_type or resource_type.action (payments, payments.confirmed)`)
    return { type: match[1] ?? "", action: match[2] === undefined || match[2] === "*" ? undefined : match[2] }
  })
  return (event) => {
    const { resource_type, action } = summaryOf(event)
    return wanted.some((w) => w.type === resource_type && (w.action === undefined || w.action === action))
  }
}

interface Forwarded { readonly status: number | null; readonly error?: string }

const forward = async (target: string, secret: string, body: string, request: IncomingMessage): Promise<Forwarded> => {
  const header = (name: string) => {
    const value = request.headers[name.toLowerCase()]
    return typeof value === "string" ? { [name]: value } : {}
  }
  try {
    // Redirects are not followed: the receiver's answer is the status paykit gets.
    const answer = await exchange(target, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...header(STANDARD_ID_HEADER),
        ...header(STANDARD_TIMESTAMP_HEADER),
        [GOCARDLESS_SIGNATURE_HEADER]: gocardlessSignature(secret, body)
      },
      body,
      timeoutMs: FORWARD_TIMEOUT_MS
    })
    return { status: answer.status }
  } catch (error) {
    return { status: null, error: error instanceof Error ? error.message : String(error) }
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

interface Sent {
  readonly body: string
  readonly events: ReadonlyArray<EventSummary>
  /** When its newest event happened, on the organisation's clock (its `created_at`, as `paykit logs` shows it); none without events. */
  readonly time: string | undefined
}

const newestTime = (events: ReadonlyArray<unknown>): string | undefined =>
  events.map((event) => field(event, "created_at")).filter((t) => t !== "").sort().at(-1)

/** What is sent on for a delivery: its body with only the events kept, or nothing when none is. */
export const keptBody = (body: string, keep: ((event: unknown) => boolean) | undefined): Sent | undefined => {
  const parsed = parseBody(body)
  if (parsed === undefined) return { body, events: [], time: undefined }
  const kept = keep === undefined ? parsed.events : parsed.events.filter(keep)
  if (kept.length === 0 && keep !== undefined) return undefined
  return {
    body: kept.length === parsed.events.length ? body : JSON.stringify({ ...parsed.whole, events: kept }),
    events: kept.map(summaryOf),
    time: newestTime(kept)
  }
}

export const command: CommandBody = {
  usage: ["listen --forward-to <url> [--events <types>] [--secret <secret>]"],
  options: { ...API_OPTIONS, "forward-to": { type: "string" }, events: { type: "string" }, secret: { type: "string" } },
  optionsHelp: [
    "  --forward-to <url>   where each webhook is sent on (required)",
    "  --events <types>     only these events, comma-separated: a resource type (payments) or type.action (payments.confirmed)",
    "  --secret <secret>    the receiver's signing secret (default: PAYKIT_FORWARD_SECRET, else one made and printed)",
    ...API_OPTIONS_HELP
  ],
  notes: ["A delivery's time is its newest event's created_at: the organisation's clock, as paykit logs shows events."],
  maxPositionals: 0,
  action: async (parsed, io) => {
    const target = targetOf(stringOf(parsed, "forward-to"))
    const keep = eventFilterOf(stringOf(parsed, "events"))
    const secret = stringOf(parsed, "secret") ?? io.env["PAYKIT_FORWARD_SECRET"] ?? randomBytes(24).toString("base64url")
    const api = apiOf(parsed, io)
    const inner = randomBytes(32).toString("base64url")
    const stopped = stopRequested()
    const json = flagOf(parsed, "json")
    const clock = await organisationClock(api)
    const receive = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
      const body = await readBody(request)
      const signature = request.headers[GOCARDLESS_SIGNATURE_HEADER.toLowerCase()]
      if (!signedBy(inner, body, typeof signature === "string" ? signature : undefined)) {
        report(io, json, clock.now(), { ok: false, error: "a request without this listener's signature was refused", webhook_id: null, events: [], status: 401 })
        response.writeHead(401).end()
        return
      }
      const sent = keptBody(body, keep)
      // None of its events is wanted: the delivery is done, for this receiver.
      if (sent === undefined) return void response.writeHead(204).end()
      const [forwarded] = await Promise.all([forward(target, secret, sent.body, request), sent.time === undefined ? clock.refresh() : undefined])
      const webhookId = request.headers[STANDARD_ID_HEADER]
      report(io, json, sent.time ?? clock.now(), {
        ok: forwarded.status !== null && forwarded.status >= 200 && forwarded.status < 300,
        webhook_id: typeof webhookId === "string" ? webhookId : null,
        events: sent.events,
        status: forwarded.status,
        ...(forwarded.error === undefined ? {} : { error: forwarded.error })
      })
      response.writeHead(forwarded.status ?? 502).end()
    }
    // A request that breaks off mid-body is answered 400; paykit retries it.
    const server = nodeHttp.createServer((request, response) => void receive(request, response).catch(() => response.writeHead(400).end()))
    const address = await listening(server)
    const listener = `http://127.0.0.1:${address.port}/`
    let endpoint: string
    try {
      const made = await api.request("POST", "/webhook_endpoints", { webhook_endpoints: { url: listener, secret: inner } })
      endpoint = field(made, "webhook_endpoints", "id")
    } catch (error) {
      server.close()
      throw error
    }
    const events = stringOf(parsed, "events") ?? null
    if (json) io.out(JSON.stringify({ ready: true, webhook_endpoint: endpoint, listener, forward_to: target, events, secret }))
    else {
      io.out(`Ready: forwarding the webhooks of ${api.base} to ${target} (${events === null ? "every event" : `events ${events}`})`)
      io.out(`  through webhook endpoint ${endpoint} (this listener, ${listener}); the receiver's signing secret: ${secret}`)
      io.out("  Each line's time is its events' own (created_at, the organisation's clock). Ctrl-C stops and disables the endpoint.")
    }
    await stopped
    try {
      await api.request("POST", `/webhook_endpoints/${endpoint}/actions/disable`, {})
    } catch (error) {
      throw new CommandFailure(`the webhook endpoint ${endpoint} could not be disabled: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      server.close()
      server.closeAllConnections()
    }
    if (json) io.out(JSON.stringify({ stopped: true, webhook_endpoint: endpoint, disabled: true }))
    else io.out(`Stopped: webhook endpoint ${endpoint} disabled; paykit sends it nothing more.`)
  }
}

interface Delivery {
  readonly ok: boolean
  readonly webhook_id: string | null
  readonly events: ReadonlyArray<EventSummary>
  readonly status: number | null
  readonly error?: string
}

/** One line per delivery: when (its events' time, on the organisation's clock), its id, its events, the receiver's answer. */
const report = (io: Io, json: boolean, time: string, delivery: Delivery): void => {
  if (json) {
    io.out(JSON.stringify({ time, ...delivery }))
    return
  }
  const events = delivery.events.map((e) => `${e.resource_type}.${e.action} ${e.resource}`.trim()).join(", ")
  const answer = delivery.status === null ? `failed: ${delivery.error ?? "no answer"}` : `${delivery.status}`
  io.out(`${time}  ${delivery.webhook_id ?? "-"}  ${events || delivery.error || ""}  -> ${answer}`)
}
