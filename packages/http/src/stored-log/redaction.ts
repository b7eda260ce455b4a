import { accountNumberEnding } from "@paykit/validation"

/**
 * What the stored request log keeps of a body: the body as the API would show it. A bank
 * account's number or IBAN becomes its `account_number_ending` (the API shows no more of a
 * stored account); a secret (a webhook endpoint's, an app's client and webhook secrets), an
 * access token and an OAuth code become `REDACTED`, under whatever key they sit, and so does any
 * string that is one of paykit's tokens wherever it appears (a metadata value, a free-text field).
 */

export const REDACTED = "[redacted]"

/** Keys whose string value is a secret: never stored, whatever object holds them. */
const SECRET_KEYS: ReadonlySet<string> = new Set([
  "secret", "client_secret", "webhook_secret", "access_token", "refresh_token", "token", "code", "password", "authorization", "private_key"
])

/** Keys holding a full account identifier: stored as the ending the API shows. */
const ACCOUNT_KEYS: ReadonlySet<string> = new Set(["account_number", "iban"])

/** One of paykit's own tokens (`issueAccessToken`'s shape), anywhere in a string. */
const PAYKIT_TOKEN = /paykit_r[ow]_[A-Za-z0-9_-]{8,}/g

/** How deep a body is walked: the API's bodies nest a few levels; deeper is kept as a note. */
const MAX_DEPTH = 16

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === "object" && value !== null && !Array.isArray(value)

/** NUL, and a lone half of a surrogate pair (a JSON string may carry either), have no place in the database's JSON: each becomes U+FFFD. */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
/** Whether a string may hold one (a surrogate paired or not): most hold none, and are kept without the replacement's scan. */
const MAYBE_UNSTORABLE = /[\u0000\ud800-\udfff]/
const storable = (value: string): string => MAYBE_UNSTORABLE.test(value) ? value.replace(UNSTORABLE, "\ufffd") : value

const redactString = (value: string): string => storable(value.includes("paykit_r") ? value.replace(PAYKIT_TOKEN, REDACTED) : value)

/** The ending of an account number or IBAN as the API shows it (the last two characters; four for NZD). */
const endingOf = (value: string, currency: unknown): string =>
  accountNumberEnding(value.replace(/\s+/g, ""), currency === "NZD" ? "NZD" : null)

/**
 * The redacted record, or `record` itself when nothing in it changes: most bodies hold no secret,
 * and the log redacts every request's, so a copy is made only from the first key that changes.
 */
const redactRecord = (record: Readonly<Record<string, unknown>>, depth: number): Readonly<Record<string, unknown>> => {
  const keys = Object.keys(record)
  let out: Record<string, unknown> | undefined
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string
    const value = record[key]
    const account = ACCOUNT_KEYS.has(key) && typeof value === "string"
    const secret = !account && SECRET_KEYS.has(key) && typeof value === "string"
    const storedKey = account || secret ? key : storable(key)
    const redacted = account || secret ? value : redactValue(value, depth + 1)
    if (out === undefined) {
      if (!account && !(secret && value !== REDACTED) && storedKey === key && redacted === value) continue
      out = {}
      for (let j = 0; j < i; j++) {
        const kept = keys[j] as string
        out[kept] = record[kept]
      }
    }
    if (account) {
      if (record["account_number_ending"] === undefined) out["account_number_ending"] = endingOf(value, record["currency"])
    } else if (secret) out[key] = REDACTED
    else out[storedKey] = redacted
  }
  return out ?? record
}

const redactArray = (values: ReadonlyArray<unknown>, depth: number): ReadonlyArray<unknown> => {
  let out: Array<unknown> | undefined
  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    const redacted = redactValue(value, depth + 1)
    if (out === undefined) {
      if (redacted === value) continue
      out = values.slice(0, i)
    }
    out.push(redacted)
  }
  return out ?? values
}

const redactValue = (value: unknown, depth: number): unknown => {
  if (typeof value === "string") return redactString(value)
  if (typeof value !== "object" || value === null) return value
  if (depth > MAX_DEPTH) return REDACTED
  if (Array.isArray(value)) return redactArray(value, depth)
  return isRecord(value) ? redactRecord(value, depth) : REDACTED
}

/** A JSON body as the log keeps it: its secrets and account numbers out (above); `body` itself when it holds none. */
export const redactBody = (body: unknown): unknown => redactValue(body, 0)

/** A resource id as the API writes one: a prefix of 2 to 4 capitals, then 12 Crockford base32 characters. */
const RESOURCE_ID = /^[A-Z]{2,4}[0-9A-HJKMNP-TV-Z]{12}$/

/** The most resource ids one request keeps: a page of 500 names only its first ones. */
export const MAX_RESOURCE_IDS = 100

/**
 * The resources a response touched: every `id` and every id under `links`, at any depth (a
 * resource, a page of them, an error naming the conflicting resource), each once, in order.
 */
export const resourceIdsOf = (body: unknown): ReadonlyArray<string> => {
  const found = new Set<string>()
  const add = (value: unknown) => {
    if (found.size < MAX_RESOURCE_IDS && typeof value === "string" && RESOURCE_ID.test(value)) found.add(value)
  }
  const walk = (value: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || typeof value !== "object" || value === null || found.size >= MAX_RESOURCE_IDS) return
    if (Array.isArray(value)) return value.forEach((item) => walk(item, depth + 1))
    for (const [key, item] of Object.entries(value)) {
      if (key === "id") add(item)
      else if (key === "links" && isRecord(item)) {
        for (const link of Object.values(item)) Array.isArray(link) ? link.forEach(add) : add(link)
      } else walk(item, depth + 1)
    }
  }
  walk(body, 0)
  return [...found]
}
