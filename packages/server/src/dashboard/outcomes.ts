import { Effect } from "effect"
import type { PaykitError } from "@paykit/core"
import { type ApiRequest, type ApiResponse, headerOf } from "@paykit/http"
import { cookieOf, type SessionSealer } from "./session.ts"
import { asList, asRecord, underKey } from "./views.ts"
import type { DashboardApi } from "./api-client.ts"

/**
 * What an action ran, said on the page it leads to: the dashboard's posts answer 303 (so a reload
 * repeats nothing) and the words travel in a cookie of their own, sealed as the session is and
 * read once. For the actions that move resources (an advance, a scenario) the words name the
 * events the action made, read from the API's event list (those newer than the newest before it),
 * and the webhook endpoints those events are queued for.
 */

export const OUTCOME_COOKIE = "paykit_dashboard_outcome"

/** How many new events an outcome counts; past it, it says "more than". */
export const OUTCOME_EVENTS_COUNTED = 500
/** How many events an outcome names one by one (more are summed up by kind). */
const EVENTS_NAMED = 5
/** The longest outcome kept (the sealed cookie stays well under a browser's 4 KB). */
export const OUTCOME_MAX_CHARS = 600
const PAGE = 100

/** The `Set-Cookie` of an outcome (or of its removal, `value` empty): the dashboard's path, a minute, HttpOnly, SameSite=Strict. */
const outcomeCookie = (value: string, path: string, secure: boolean, maxAgeSeconds: number): string =>
  `${OUTCOME_COOKIE}=${value}; Path=${path}; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`

/** `answer` (a 303) carrying `text` to the next page. */
export const withOutcome = (sealer: SessionSealer, root: string, secure: boolean, answer: ApiResponse, text: string): ApiResponse => ({
  ...answer,
  headers: { ...answer.headers, "set-cookie": outcomeCookie(sealer.seal(text.slice(0, OUTCOME_MAX_CHARS), Date.now()), root, secure, 60) }
})

/** The outcome a request carries, and the `Set-Cookie` that removes it once shown. */
export const outcomeOf = (sealer: SessionSealer, root: string, secure: boolean, request: ApiRequest): { readonly text: string; readonly clear: string } | undefined => {
  const value = cookieOf(headerOf(request, "cookie"), OUTCOME_COOKIE)
  if (value === undefined || value === "") return undefined
  const text = sealer.open(value, Date.now())
  return { text: text ?? "", clear: outcomeCookie("", root, secure, 0) }
}

/** The newest event's id now, to count from after an action (none when there is none). */
export const newestEvent = (api: DashboardApi, token: string): Effect.Effect<string | undefined, PaykitError> =>
  Effect.map(api.call(token, "GET", "/events", { limit: "1" }), (body) => {
    const id = asRecord(asList(underKey(body, "events"))[0])["id"]
    return typeof id === "string" ? id : undefined
  })

interface EventLine { readonly kind: string; readonly resource: string }

const lineOf = (event: unknown): EventLine => {
  const record = asRecord(event)
  const type = String(record["resource_type"] ?? "")
  const links = asRecord(record["links"])
  const resource = links[type.replace(/s$/, "")] ?? links[type]
  return { kind: `${type}.${String(record["action"] ?? "")}`, resource: typeof resource === "string" ? resource : "" }
}

/** The events newer than `marker` (all, if none), oldest first, at most `OUTCOME_EVENTS_COUNTED` and whether there were more. */
export const eventsSince = (api: DashboardApi, token: string, marker: string | undefined): Effect.Effect<{ readonly events: ReadonlyArray<EventLine>; readonly more: boolean }, PaykitError> =>
  Effect.gen(function*() {
    const found: Array<unknown> = []
    // Newer pages are asked for with `before`; with no marker, every event is new, newest first with `after`.
    let cursor = marker
    let older: string | undefined
    for (;;) {
      const query = marker === undefined ? { limit: String(PAGE), ...(older === undefined ? {} : { after: older }) } : { limit: String(PAGE), before: cursor ?? "" }
      const body = yield* api.call(token, "GET", "/events", query)
      const items = asList(underKey(body, "events"))
      const cursors = asRecord(asRecord(underKey(body, "meta"))["cursors"])
      if (marker === undefined) found.push(...items)
      else found.unshift(...items)
      const next = marker === undefined ? cursors["after"] : cursors["before"]
      if (items.length === 0 || typeof next !== "string" || found.length > OUTCOME_EVENTS_COUNTED) break
      if (marker === undefined) older = next
      else cursor = next
    }
    // The API lists newest first: the outcome tells them in the order they happened.
    const ordered = [...found].reverse().map(lineOf)
    return { events: ordered.slice(0, OUTCOME_EVENTS_COUNTED), more: ordered.length > OUTCOME_EVENTS_COUNTED }
  })

/** The webhook endpoints that new events are queued for: the enabled ones. */
export const enabledEndpoints = (api: DashboardApi, token: string): Effect.Effect<number, PaykitError> =>
  Effect.map(api.call(token, "GET", "/webhook_endpoints", { limit: "500" }), (body) =>
    asList(underKey(body, "webhook_endpoints")).filter((e) => asRecord(e)["enabled"] === true).length)

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

/** The words for the events an action made and the webhooks they are queued as. */
export const eventsText = (made: { readonly events: ReadonlyArray<EventLine>; readonly more: boolean }, endpoints: number): string => {
  const { events, more } = made
  if (events.length === 0) return "It made no event, so no webhook is queued."
  const listed = events.length <= EVENTS_NAMED
    ? events.map((e) => `${e.kind} ${e.resource}`.trim()).join(", ")
    : [...events.reduce((counts, e) => counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1), new Map<string, number>())]
      .map(([kind, n]) => `${n} ${kind}`).join(", ")
  const count = `${more ? "more than " : ""}${plural(events.length, "event")}`
  const queued = endpoints === 0
    ? "No webhook endpoint is enabled, so no webhook is queued."
    : `They are queued as webhooks to ${plural(endpoints, "enabled endpoint")}.`
  return `It made ${count}: ${listed}. ${queued}`
}
