import { formatMinorUnits, isCurrency } from "@paykit/core"
import { type Html, html } from "@paykit/http"

/**
 * How the dashboard shows the values people read: amounts in their currency (`£15.00`, by the
 * currency's minor units), instants as `<time>` elements (UTC in the HTML, the reader's own zone
 * once the page's script has run, UTC on hover either way), statuses as badges. Pure: the pages
 * decide which fields are which.
 */

/** Fields holding an amount in minor units of the record's `currency`. */
const AMOUNT_FIELD = /^(amount|.+_amount|amount_.+|app_fee|deducted_fees|balance_limit|fees|tax|total)$/

export const isAmountField = (key: string): boolean => AMOUNT_FIELD.test(key)

/** An amount in minor units as people read it: `£15.00`, `-€3.20`, `SEK 1,000.00`. */
export const moneyText = (amount: number, currency: string): string | undefined => {
  if (!Number.isSafeInteger(amount) || !isCurrency(currency)) return undefined
  // The decimal string is exact at any size; Intl formats it as written (no float on the way).
  return new Intl.NumberFormat("en-GB", { style: "currency", currency }).format(formatMinorUnits(amount, currency) as `${number}`)
}

/** An amount as a `<data>` element: its text for people, its minor units for machines and on hover. */
export const moneyView = (amount: number, currency: string): Html | undefined => {
  const text = moneyText(amount, currency)
  return text === undefined ? undefined : html`<data value="${String(amount)}" title="${String(amount)} in ${currency}'s minor units">${text}</data>`
}

/** An instant as the API writes it (`2026-11-29T06:00:00.164Z`). */
const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?Z$/

export const isInstant = (value: string): boolean => INSTANT.test(value) && Number.isFinite(Date.parse(value))

/** The UTC text a page without script shows, to the minute: `2026-11-29 06:00 UTC`. */
export const utcText = (value: string): string => {
  const match = INSTANT.exec(value)
  return match === null ? value : `${match[1] ?? ""} ${match[2] ?? ""} UTC`
}

/**
 * An instant as `<time>`: the UTC minute as text, the exact UTC value on hover. The dashboard's
 * script (`local-times.js`) rewrites the text in the reader's own zone and keeps the title.
 */
export const timeView = (value: string): Html =>
  html`<time datetime="${value}" title="${value.replace("T", " ").replace("Z", " UTC")}">${utcText(value)}</time>`

/** What a status says, for its badge's colour: done well, on its way, needs a look, or ended badly. */
export type Tone = "good" | "pending" | "attention" | "bad" | "neutral"

/** The machines' statuses by tone; one the table does not name takes its tone from its words (`*_failed`, `pending_*`), else none. */
const TONES: Readonly<Record<Exclude<Tone, "neutral">, ReadonlyArray<string>>> = {
  good: ["active", "confirmed", "paid", "paid_out", "fulfilled", "successful", "completed", "executed", "processed", "finished", "ready_to_fulfil", "enabled", "delivered", "valid", "succeeded"],
  pending: ["pending", "created", "submitted", "processing", "scheduled", "executing", "fulfilling", "validating", "verifying"],
  attention: ["action_required", "in_review", "pending_customer_approval", "paused"],
  bad: [
    "failed", "cancelled", "charged_back", "bounced", "expired", "blocked", "revoked", "consumed", "disabled", "funds_returned", "suspended_by_payer",
    "customer_approval_denied", "could_not_verify", "errored", "given_up", "invalid"
  ]
}

export const toneOf = (status: string): Tone => {
  const named = (Object.keys(TONES) as Array<keyof typeof TONES>).find((tone) => TONES[tone].includes(status))
  if (named !== undefined) return named
  if (/(^|_)(failed|cancelled|denied)$/.test(status)) return "bad"
  return status.startsWith("pending_") ? "pending" : "neutral"
}

/** A status as a badge: the API's own value, coloured by its tone (the words carry the meaning; the colour only helps). */
export const badgeView = (status: string): Html => html`<span class="badge badge-${toneOf(status)}">${status}</span>`

/** Fields holding a status. */
export const isStatusField = (key: string): boolean => key === "status" || key.endsWith("_status")

/** A customer's name as people say it: the person, else the company, else the email, else its id. */
export const customerName = (customer: Readonly<Record<string, unknown>>): string => {
  const text = (key: string) => typeof customer[key] === "string" ? String(customer[key]).trim() : ""
  const person = `${text("given_name")} ${text("family_name")}`.trim()
  return person || text("company_name") || text("email") || text("id")
}

/** The badges' and banner's styles, added to the frame's (colours at 4.5:1 or more against their backgrounds). */
export const FORMAT_STYLES = `.badge{display:inline-block;padding:0 .5rem;border-radius:999px;font-size:.85rem;font-weight:600;white-space:nowrap;border:1px solid}
.badge-good{background:#e3f4ea;color:#0b5a30;border-color:#8fc9a6}.badge-pending{background:#e8f0fb;color:#17407a;border-color:#9db8e0}
.badge-attention{background:#fff4d6;color:#6b4a00;border-color:#e0c36a}.badge-bad{background:#fde7e9;color:#8a1020;border-color:#e8a0a8}
.badge-neutral{background:#eef0f2;color:#3a4450;border-color:#c0c8d0}time,data{white-space:nowrap}`
