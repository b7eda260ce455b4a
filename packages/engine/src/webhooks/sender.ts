import { Context, Effect, Layer } from "effect"
import * as http from "node:http"
import * as https from "node:https"
import { isIP } from "node:net"
import { addressRefusal, guardedLookup, resolvedRefusal } from "./address-guard.ts"
import { WEBHOOK_RESPONSE_BODY_MAX_BYTES, WEBHOOK_TIMEOUT_MS } from "./delivery-policy.ts"

/** One request of a delivery. */
export interface OutgoingWebhook {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** What an attempt met: an answer (any status: only 2xx is success), or no answer (refused, timed out, address not allowed). */
export type SendResult =
  | {
    readonly _tag: "Answered"
    readonly status: number
    /** As received, in order, names lower-cased. */
    readonly headers: ReadonlyArray<readonly [string, string]>
    readonly body: string
    readonly bodyTruncated: boolean
  }
  | { readonly _tag: "Failed"; readonly reason: string }

/** Who may receive: the live rules (https, public addresses) or the sandbox's (http and loopback too). */
export interface SenderPolicy {
  readonly allowLoopback: boolean
  readonly requireHttps: boolean
  readonly timeoutMs: number
}

export const LIVE_SENDER_POLICY: SenderPolicy = { allowLoopback: false, requireHttps: true, timeoutMs: WEBHOOK_TIMEOUT_MS }
export const SANDBOX_SENDER_POLICY: SenderPolicy = { allowLoopback: true, requireHttps: false, timeoutMs: WEBHOOK_TIMEOUT_MS }

/**
 * The port deliveries go out through. `refusal` says why a URL can never be delivered to under the
 * policy (checked when an endpoint is created or changed); `send` makes one attempt, checking the
 * address it connects to. Redirects are not followed: a 3xx is an answer, and a failure. Both
 * take whether the URL's chooser may reach private targets (`WebhookTargetTrust`): when not, the
 * live rules apply whatever the policy.
 */
export class WebhookSender extends Context.Service<WebhookSender, {
  readonly refusal: (url: string, privateTargets: boolean) => string | undefined
  /** `refusal`, then, for a name, its addresses as they resolve now (`resolvedRefusal`): what an endpoint's creation checks. */
  readonly check: (url: string, privateTargets: boolean) => Effect.Effect<string | undefined>
  readonly send: (request: OutgoingWebhook, privateTargets: boolean) => Effect.Effect<SendResult>
}>()("@paykit/engine/WebhookSender") {
  /** Node's `http(s).request` under `policy`. */
  static readonly node = (policy: SenderPolicy): Layer.Layer<WebhookSender> => Layer.succeed(WebhookSender, makeNodeSender(policy))
}

/** The host a URL connects to, brackets of an IPv6 literal removed. */
const hostOf = (raw: string): string | undefined => URL.canParse(raw) ? new URL(raw).hostname.replace(/^\[(.*)\]$/, "$1") : undefined

const urlRefusal = (policy: SenderPolicy) => (raw: string): string | undefined => {
  if (!URL.canParse(raw)) return "the URL cannot be parsed"
  const url = new URL(raw)
  if (url.protocol !== "https:" && !(url.protocol === "http:" && !policy.requireHttps)) {
    return policy.requireHttps ? "webhook URLs must use https" : "webhook URLs must use http or https"
  }
  // A literal address is connected to without a lookup, so it is checked here.
  const host = hostOf(raw) ?? ""
  return isIP(host) === 0 ? undefined : addressRefusal(host, policy.allowLoopback)
}

export const makeNodeSender = (policy: SenderPolicy): WebhookSender["Service"] => {
  const live: SenderPolicy = { ...LIVE_SENDER_POLICY, timeoutMs: policy.timeoutMs }
  const policyFor = (privateTargets: boolean): SenderPolicy => privateTargets ? policy : live
  const refusal = (url: string, privateTargets: boolean) => urlRefusal(policyFor(privateTargets))(url)
  return WebhookSender.of({
    refusal,
    check: (url, privateTargets) => {
      const refused = refusal(url, privateTargets)
      const host = refused === undefined ? hostOf(url) : undefined
      return host === undefined || isIP(host) !== 0
        ? Effect.succeed(refused)
        : Effect.promise(() => resolvedRefusal(host, policyFor(privateTargets).allowLoopback))
    },
    send: (request, privateTargets) => {
      const refused = refusal(request.url, privateTargets)
      return refused === undefined ? attempt(policyFor(privateTargets), request) : Effect.succeed({ _tag: "Failed", reason: refused })
    }
  })
}

const attempt = (policy: SenderPolicy, request: OutgoingWebhook) =>
  Effect.callback<SendResult>((resume, signal) => {
    let settled = false
    const finish = (result: SendResult) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resume(Effect.succeed(result))
    }
    const url = new URL(request.url)
    const client = url.protocol === "https:" ? https : http
    const body = Buffer.from(request.body, "utf8")
    const outgoing = client.request(url, {
      method: "POST",
      headers: { ...request.headers, "Content-Length": String(body.length) },
      lookup: guardedLookup(policy.allowLoopback),
      signal
    }, (response) => {
      const chunks: Array<Buffer> = []
      let size = 0
      const answer = (truncated: boolean) => {
        const raw = response.rawHeaders
        const headers = raw.flatMap((name, i): Array<readonly [string, string]> => i % 2 === 0 ? [[name.toLowerCase(), raw[i + 1] ?? ""]] : [])
        finish({
          _tag: "Answered",
          status: response.statusCode ?? 0,
          headers,
          body: Buffer.concat(chunks).subarray(0, WEBHOOK_RESPONSE_BODY_MAX_BYTES).toString("utf8"),
          bodyTruncated: truncated
        })
      }
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk)
        size += chunk.length
        // What is kept is read; the rest is not waited for.
        if (size > WEBHOOK_RESPONSE_BODY_MAX_BYTES) {
          answer(true)
          response.destroy()
        }
      })
      response.on("end", () => answer(false))
      response.on("error", (error) => finish({ _tag: "Failed", reason: `the answer broke off: ${error.message}` }))
    })
    const timer = setTimeout(() => {
      finish({ _tag: "Failed", reason: `no answer within ${policy.timeoutMs} ms` })
      outgoing.destroy()
    }, policy.timeoutMs)
    outgoing.on("error", (error) => finish({ _tag: "Failed", reason: error.message }))
    outgoing.end(body)
  })
