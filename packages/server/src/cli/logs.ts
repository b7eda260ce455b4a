import { setTimeout as sleep } from "node:timers/promises"
import { type Api, API_OPTIONS, API_OPTIONS_HELP, apiOf, field, itemsOf } from "./api.ts"
import { type CommandBody, flagOf, type Io, type Parsed, stopRequested, stringOf, UsageError } from "./args.ts"

/**
 * `paykit logs`: the organisation's events (`GET /events`) and webhook attempts (`GET /webhooks`)
 * as they happen, one readable line each (one JSON object each with `--json`), oldest first; with
 * `--requests`, its stored request log instead (`GET /request_logs`: method, path, status,
 * duration, request id; docs/dashboard.md, "Request log"). It polls each list for the page newer
 * than the newest item it printed (`before`).
 */

const PAGE = 100
/** Where an item sits in its list, as the list's `before` takes it: an event's or webhook's id; a request's time and id. */
const byId = (item: Record<string, unknown>): string => field(item, "id")
const EVENT_SOURCES = [
  { key: "events", kind: "event", place: byId },
  { key: "webhooks", kind: "webhook", place: byId }
] as const
const REQUEST_SOURCES = [
  { key: "request_logs", kind: "request", place: (item: Record<string, unknown>) => `${field(item, "created_at")}_${field(item, "id")}` }
] as const
type Source = (typeof EVENT_SOURCES)[number] | (typeof REQUEST_SOURCES)[number]

const requestLine = (item: Record<string, unknown>): string => {
  const key = field(item, "idempotency_key")
  const prefix = field(item, "token_prefix")
  return `${field(item, "created_at")}  request  ${field(item, "method")} ${field(item, "path")} -> ${field(item, "status")}  ${field(item, "duration_ms")} ms  ${
    field(item, "id")}  ${field(item, "links", "access_token")}${prefix === "" ? "" : ` ${prefix}…`}${key === "" ? "" : `  key ${key}`}`
}

const lineOf = (kind: Source["kind"], item: Record<string, unknown>): string => {
  if (kind === "request") return requestLine(item)
  if (kind === "event") {
    const type = field(item, "resource_type")
    const links = item["links"]
    const resource = field(links, type.replace(/s$/, "")) || field(links, type)
    const cause = field(item, "details", "cause")
    return `${field(item, "created_at")}  event    ${field(item, "id")}  ${type}.${field(item, "action")}  ${resource}${cause === "" ? "" : `  (${cause})`}`
  }
  const code = field(item, "response_code")
  return `${field(item, "created_at")}  webhook  ${field(item, "id")}  POST ${field(item, "url")} -> ${code === "" ? "no answer" : code}${item["successful"] === true ? "" : "  (failed)"}`
}

/** The items newer than `cursor` (all of the newest page when none yet), oldest first. */
const newer = async (api: Api, source: Source, cursor: string | undefined, limit: number): Promise<ReadonlyArray<Record<string, unknown>>> => {
  const query = new URLSearchParams({ limit: String(limit), ...(cursor === undefined ? {} : { before: cursor }) })
  const items = itemsOf(await api.request("GET", `/${source.key}?${query}`), source.key)
  return [...items].sort((a, b) => source.place(a) < source.place(b) ? -1 : source.place(a) > source.place(b) ? 1 : 0)
}

const print = (io: Io, parsed: Parsed, source: Source, items: ReadonlyArray<Record<string, unknown>>): void => {
  for (const item of items) io.out(flagOf(parsed, "json") ? JSON.stringify({ type: source.kind, ...item }) : lineOf(source.kind, item))
}

const positiveInteger = (parsed: Parsed, name: string, fallback: number): number => {
  const text = stringOf(parsed, name)
  if (text === undefined) return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < 0 || value > 100_000) throw new UsageError(`--${name} must be a whole number from 0`)
  return value
}

export const command: CommandBody = {
  usage: ["logs [--requests] [--tail <n>] [--interval <ms>] [--once]"],
  options: { ...API_OPTIONS, requests: { type: "boolean" }, tail: { type: "string" }, interval: { type: "string" }, once: { type: "boolean" } },
  optionsHelp: [
    "  --requests        the stored request log (each API request: method, path, status, duration, request id) instead of events and webhooks",
    "  --tail <n>        print the newest n of each first (default 10)",
    "  --interval <ms>   how often to look for new ones (default 1000)",
    "  --once            print the tail and stop",
    ...API_OPTIONS_HELP
  ],
  notes: ["Times are each event's, webhook's and request's created_at: the organisation's clock (paykit listen shows a delivery at its events' time)."],
  maxPositionals: 0,
  action: async (parsed, io) => {
    const api = apiOf(parsed, io)
    const tail = positiveInteger(parsed, "tail", 10)
    const interval = Math.max(100, positiveInteger(parsed, "interval", 1000))
    const sources: ReadonlyArray<Source> = flagOf(parsed, "requests") ? REQUEST_SOURCES : EVENT_SOURCES
    const cursors = new Map<Source["key"], string | undefined>()
    for (const source of sources) {
      const first = await newer(api, source, undefined, Math.max(tail, 1))
      print(io, parsed, source, first.slice(first.length - tail))
      const last = first.at(-1)
      cursors.set(source.key, last === undefined ? undefined : source.place(last))
    }
    if (flagOf(parsed, "once")) return
    let stop = false
    void stopRequested().then(() => void (stop = true))
    while (!stop) {
      await sleep(interval)
      for (const source of sources) {
        const cursor = cursors.get(source.key)
        const items = await newer(api, source, cursor, PAGE)
        print(io, parsed, source, items)
        const last = items.at(-1)
        if (last !== undefined) cursors.set(source.key, source.place(last))
      }
    }
  }
}
