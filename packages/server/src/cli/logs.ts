import { setTimeout as sleep } from "node:timers/promises"
import { type Api, API_OPTIONS, API_OPTIONS_HELP, apiOf, field, itemsOf } from "./api.ts"
import { defineCommand, flagOf, type Io, type Parsed, stopRequested, stringOf, UsageError } from "./args.ts"

/**
 * `paykit logs`: the organisation's events (`GET /events`) and webhook attempts (`GET /webhooks`)
 * as they happen, one readable line each (one JSON object each with `--json`), oldest first. The
 * server keeps no request log a client can read: requests are its JSON log lines on its own
 * stdout (docs/server.md); what a request changed shows here as its events, what was sent as its
 * webhooks. It polls each list for the page newer than the newest item it printed (`before`).
 */

const PAGE = 100
const SOURCES = [
  { key: "events", kind: "event" },
  { key: "webhooks", kind: "webhook" }
] as const
type Source = (typeof SOURCES)[number]

const lineOf = (kind: Source["kind"], item: Record<string, unknown>): string => {
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
  return [...items].sort((a, b) => field(a, "id") < field(b, "id") ? -1 : field(a, "id") > field(b, "id") ? 1 : 0)
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

export const logsCommand = defineCommand({
  name: "logs",
  summary: "follow the organisation's events and webhook attempts",
  usage: ["logs [--tail <n>] [--interval <ms>] [--once]"],
  options: { ...API_OPTIONS, tail: { type: "string" }, interval: { type: "string" }, once: { type: "boolean" } },
  optionsHelp: [
    "  --tail <n>        print the newest n of each first (default 10)",
    "  --interval <ms>   how often to look for new ones (default 1000)",
    "  --once            print the tail and stop",
    ...API_OPTIONS_HELP
  ],
  maxPositionals: 0,
  action: async (parsed, io) => {
    const api = apiOf(parsed, io)
    const tail = positiveInteger(parsed, "tail", 10)
    const interval = Math.max(100, positiveInteger(parsed, "interval", 1000))
    const cursors = new Map<Source["key"], string | undefined>()
    for (const source of SOURCES) {
      const first = await newer(api, source, undefined, Math.max(tail, 1))
      print(io, parsed, source, first.slice(first.length - tail))
      cursors.set(source.key, first.at(-1) === undefined ? undefined : field(first.at(-1), "id"))
    }
    if (flagOf(parsed, "once")) return
    let stop = false
    void stopRequested().then(() => void (stop = true))
    while (!stop) {
      await sleep(interval)
      for (const source of SOURCES) {
        const cursor = cursors.get(source.key)
        const items = await newer(api, source, cursor, PAGE)
        print(io, parsed, source, items)
        if (items.length > 0) cursors.set(source.key, field(items.at(-1), "id"))
      }
    }
  }
})
