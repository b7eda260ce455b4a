import { Effect } from "effect"
import { type PaykitError, pathIdOf } from "@paykit/core"
import { withClockOffset } from "@paykit/engine"
import { type ApiResponse, formFields, html, type PageRoute } from "@paykit/http"
import { csrfField, dashboardPage } from "./frame.ts"
import { asList, asRecord, tableView, underKey, valueView } from "./views.ts"
import { type DashboardServices, doneThen, signedIn, type Visit } from "./visit.ts"

/**
 * Webhooks: the organisation's endpoints (create, with the secret shown once; disable) and its
 * deliveries (each delivery's page is the generic detail page, with its request, response,
 * timing and attempt, and a retry button). All through the API's webhook routes.
 */

const endpointsPage = (services: DashboardServices) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> =>
  Effect.gen(function*() {
    const endpoints = asList(underKey(yield* services.api.call(visit.token, "GET", "/webhook_endpoints", { limit: "50" }), "webhook_endpoints"))
    const deliveries = asList(underKey(yield* services.api.call(visit.token, "GET", "/webhooks", { limit: "25" }), "webhooks"))
    return dashboardPage(visit, "Webhooks", html`
<section aria-labelledby="endpoints"><h2 id="endpoints">Endpoints</h2>${tableView(visit.links, "Webhook endpoints", endpoints)}
${visit.canAct ? html`<form method="post" action="${visit.root}/webhook_endpoints">${csrfField(visit.csrfToken)}<label for="endpoint-url">New endpoint's URL</label><input id="endpoint-url" name="url" type="url" required><div class="actions"><button class="primary" type="submit">Create endpoint</button></div></form>` : ""}</section>
<section aria-labelledby="deliveries"><h2 id="deliveries">Deliveries</h2>${tableView(visit.links, "The latest deliveries; open one to see its request and response, or retry it", deliveries)}
<p><a href="${visit.root}/resources/webhooks">All deliveries</a> · <a href="${visit.root}/resources/webhooks?successful=false">Failed deliveries</a></p></section>`)
  })

/** An endpoint's page with its signing secret, the one time the dashboard shows it (made, or rotated). */
const secretPage = (visit: Visit, title: string, endpoint: Readonly<Record<string, unknown>>, status: number): ApiResponse =>
  dashboardPage(visit, title, html`
<p>Endpoint ${valueView(visit.links, endpoint["id"])} sends to <code>${String(endpoint["url"] ?? "")}</code>.</p>
<p>Its signing secret, shown this once (keep it where your receiver checks <code>Webhook-Signature</code>):</p>
<p class="once"><code id="secret">${String(endpoint["secret"] ?? "")}</code></p><p><a href="${visit.root}/webhooks">Back to webhooks</a></p>`, status)

const createEndpoint = (services: DashboardServices) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> =>
  Effect.map(services.api.call(visit.token, "POST", "/webhook_endpoints", {}, { webhook_endpoints: { url: formFields(visit.request)["url"] ?? "" } }), (body) =>
    secretPage(visit, "Webhook endpoint created", asRecord(underKey(body, "webhook_endpoints")), 201))

/** Straight to the engine (the API has no route for it), the id checked as the API checks a path's: a malformed one reaches no store. */
const endpointAction = <A>(visit: Visit, act: (id: string) => Effect.Effect<A, PaykitError>): Effect.Effect<A, PaykitError> =>
  Effect.flatMap(pathIdOf("webhook_endpoints", visit.request.params["id"] ?? ""), (id) => withClockOffset(visit.caller.clockOffsetMillis ?? 0, act(id)))

/** What an attempt's record says of its answer: the receiver's status, or that none came. */
const answerOf = (record: Readonly<Record<string, unknown>>): string =>
  typeof record["response_code"] === "number" ? `answered ${record["response_code"]}${record["successful"] === true ? "" : " (a failure)"}` : "no answer came"

export const webhookPages = (services: DashboardServices): ReadonlyArray<PageRoute> => [
  signedIn(services, "GET", "/dashboard/webhooks", endpointsPage(services)),
  signedIn(services, "POST", "/dashboard/webhook_endpoints", createEndpoint(services)),
  signedIn(services, "POST", "/dashboard/webhook_endpoints/:id/disable", (visit) => {
    const id = visit.request.params["id"] ?? ""
    return Effect.as(services.api.call(visit.token, "POST", `/webhook_endpoints/${encodeURIComponent(id)}/actions/disable`, {}, {}),
      doneThen(services, visit, `/dashboard/resources/webhook_endpoints/${encodeURIComponent(id)}`, `Disabled ${id}: paykit sends it no more webhooks.`))
  }),
  // On the organisation's clock, as the API's calls run.
  signedIn(services, "POST", "/dashboard/webhook_endpoints/:id/test", (visit) =>
    endpointAction(visit, (id) =>
      Effect.map(services.webhooks.sendTest(visit.caller.organisation, id), (record) =>
        doneThen(services, visit, `/dashboard/resources/webhooks/${encodeURIComponent(record.id)}`, `Sent a test webhook (no events) to ${id}: ${answerOf(record)}. Its record is below.`)))),
  signedIn(services, "POST", "/dashboard/webhook_endpoints/:id/rotate_secret", (visit) =>
    endpointAction(visit, (id) =>
      Effect.map(services.endpoints.rotateSecret(visit.caller.organisation, id), (endpoint) => secretPage(visit, "Signing secret rotated", endpoint, 200)))),
  // A retry is a new attempt, recorded as a delivery of its own: its page is where the answer shows.
  signedIn(services, "POST", "/dashboard/webhooks/:id/retry", (visit) => {
    const id = visit.request.params["id"] ?? ""
    return Effect.map(services.api.call(visit.token, "POST", `/webhooks/${encodeURIComponent(id)}/actions/retry`, {}, {}), (body) => {
      const record = asRecord(underKey(body, "webhooks"))
      const made = String(record["id"] ?? id)
      return doneThen(services, visit, `/dashboard/resources/webhooks/${encodeURIComponent(made)}`, `Retried ${id}: a new attempt, ${made}, ${answerOf(record)}.`)
    })
  })
]
