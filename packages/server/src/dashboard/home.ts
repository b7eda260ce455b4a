import { Effect } from "effect"
import type { PaykitError } from "@paykit/core"
import { type ApiResponse, formFields, html, type Html, type PageRoute } from "@paykit/http"
import { PAYOUT_HOLD_REASONS } from "@paykit/engine"
import { csrfField, dashboardPage } from "./frame.ts"
import { moneyText, utcText } from "./format.ts"
import { enabledEndpoints, eventsSince, eventsText, newestEvent } from "./outcomes.ts"
import { asList, asRecord, eventsTable, fieldValueView, underKey, valueView } from "./views.ts"
import { type DashboardServices, doneThen, signedIn, type Visit } from "./visit.ts"

/**
 * Home: the organisation, its creditors and whether their payouts are held, the sandbox's clock
 * with its advance controls, and the latest events. Every figure is an API read.
 */

/**
 * Why a creditor's payouts are held, read from the creditor as the API shows it: not verified,
 * or no default payout account in any currency. The daily assembly's third reason (an account
 * still being verified) needs the account itself. Used only where the API does not serve a
 * creditor's holds (`holdsOf`); once it does, this fallback may go.
 */
export const payoutHoldOf = (creditor: Readonly<Record<string, unknown>>): string | null => {
  if (creditor["verification_status"] !== "successful") return PAYOUT_HOLD_REASONS.creditor_not_verified
  const links = asRecord(creditor["links"])
  const accounts = Object.entries(links).filter(([key, value]) => /^default_[a-z]{3}_payout_account$/.test(key) && typeof value === "string")
  return accounts.length === 0 ? PAYOUT_HOLD_REASONS.no_payout_account : null
}

/** The API's route of a creditor's payout holds (paykit's extension), where the API serves it. */
const HOLDS_PATH = (creditor: string) => `/creditors/${encodeURIComponent(creditor)}/payout_holds`

/**
 * What the payouts column says of a creditor: the API's own holds (per currency, with the reason
 * and the amount waiting) where it serves `GET /creditors/{id}/payout_holds`, else `payoutHoldOf`.
 */
const holdsOf = (services: DashboardServices, visit: Visit, creditor: Readonly<Record<string, unknown>>): Effect.Effect<string, PaykitError> => {
  const id = String(creditor["id"] ?? "")
  if (!services.api.serves("GET", HOLDS_PATH(id))) {
    const hold = payoutHoldOf(creditor)
    return Effect.succeed(hold === null ? "not held" : `held: ${hold}`)
  }
  return Effect.map(services.api.call(visit.token, "GET", HOLDS_PATH(id)), (body) => {
    const holds = asList(underKey(body, "payout_holds")).map(asRecord)
    return holds.length === 0
      ? "not held"
      : holds.map((h) => `held in ${String(h["currency"])} (${moneyText(Number(h["amount"]), String(h["currency"])) ?? String(h["amount"])} waiting): ${String(h["description"])}`).join("; ")
  })
}

const creditorsView = (visit: Visit, creditors: ReadonlyArray<readonly [Readonly<Record<string, unknown>>, string]>): Html =>
  html`<div class="scroll"><table><caption>Creditors</caption><thead><tr><th scope="col">id</th><th scope="col">name</th><th scope="col">verification_status</th><th scope="col">payouts</th></tr></thead><tbody>${
    creditors.map(([creditor, holds]) =>
      html`<tr><td>${valueView(visit.links, creditor["id"])}</td><td>${valueView(visit.links, creditor["name"])}</td><td>${fieldValueView(visit.links, "verification_status", creditor["verification_status"], creditor)}</td><td>${holds}</td></tr>`)
  }</tbody></table></div>`

const ADVANCES: ReadonlyArray<readonly [string, string]> = [["PT1H", "1 hour"], ["P1D", "1 day"], ["P1W", "1 week"]]

const clockView = (visit: Visit, clock: Readonly<Record<string, unknown>>): Html => html`<section aria-labelledby="clock"><h2 id="clock">Sandbox clock</h2>
<dl><dt>Now</dt><dd id="clock-now">${valueView(visit.links, clock["now"])}</dd><dt>Offset</dt><dd>${valueView(visit.links, clock["offset"])}</dd><dt>Next daily run</dt><dd>${valueView(visit.links, clock["next_daily_run_at"])}</dd></dl>
${visit.canAct ? html`${ADVANCES.map(([by, label]) => html`<form class="inline" method="post" action="${visit.root}/clock/advance">${csrfField(visit.csrfToken)}<input type="hidden" name="by" value="${by}"><button class="secondary" type="submit">Advance ${label}</button></form>`)}
<form class="inline" method="post" action="${visit.root}/clock/advance">${csrfField(visit.csrfToken)}<label for="advance-to">Advance to</label><input id="advance-to" name="to" type="date" required><button class="secondary" type="submit">Advance</button></form>` : ""}
</section>`

const home = (services: DashboardServices) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> =>
  Effect.gen(function*() {
    const organisation = (yield* services.organisations.all).find((o) => o.id === visit.caller.organisation)
    const listed = asList(underKey(yield* services.api.call(visit.token, "GET", "/creditors", { limit: "50" }), "creditors")).map(asRecord)
    const creditors = yield* Effect.forEach(listed, (creditor) => Effect.map(holdsOf(services, visit, creditor), (holds) => [creditor, holds] as const))
    const clock = services.mode === "sandbox" ? asRecord(underKey(yield* services.api.call(visit.token, "GET", "/sandbox/simulator/clock"), "simulator_clock")) : undefined
    const events = asList(underKey(yield* services.api.call(visit.token, "GET", "/events", { limit: "10" }), "events"))
    return dashboardPage(visit, organisation?.name ?? "Dashboard", html`
<p>Organisation <code>${visit.caller.organisation}</code>, ${services.mode} mode, signed in with a ${visit.caller.scope === "read_only" ? "read-only" : "read-write"} token.</p>
${creditorsView(visit, creditors)}
${clock === undefined ? "" : clockView(visit, clock)}
<section aria-labelledby="latest"><h2 id="latest">Latest events</h2>${eventsTable(visit.links, "The ten latest events", events)}<p><a href="${visit.root}/resources/events">All events</a></p></section>`)
  })

/** `by` (an ISO duration) or `to` (a date, taken as its midnight UTC) as the advance endpoint reads them. */
const advanceBody = (fields: Readonly<Record<string, string>>): Readonly<Record<string, string>> =>
  fields["to"] !== undefined && fields["to"] !== "" ? { to: fields["to"] } : { by: fields["by"] ?? "" }

/** The words of an advance: how far, to when, then the events the day's runs made and the webhooks they are queued as. */
const advance = (services: DashboardServices) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> =>
  Effect.gen(function*() {
    const body = advanceBody(formFields(visit.request))
    const marker = yield* newestEvent(services.api, visit.token)
    const clock = asRecord(underKey(yield* services.api.call(visit.token, "POST", "/sandbox/simulator/advance", {}, body), "simulator_clock"))
    const made = yield* eventsSince(services.api, visit.token, marker)
    const how = body["to"] === undefined ? `by ${body["by"] ?? ""}` : `to ${body["to"]}`
    const now = typeof clock["now"] === "string" ? ` The organisation's clock is now ${utcText(clock["now"])}.` : ""
    return doneThen(services, visit, "/dashboard", `Advanced the clock ${how}.${now} ${eventsText(made, yield* enabledEndpoints(services.api, visit.token))}`)
  })

export const homePages = (services: DashboardServices): ReadonlyArray<PageRoute> => [
  signedIn(services, "GET", "/dashboard", home(services)),
  signedIn(services, "POST", "/dashboard/clock/advance", advance(services))
]
