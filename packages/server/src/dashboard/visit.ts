import { Effect } from "effect"
import { Forbidden, type PaykitError } from "@paykit/core"
import type { EventLog, WebhookEndpoints, Webhooks } from "@paykit/engine"
import { type AccessTokens, type ApiRequest, type ApiResponse, authenticateWith, type CallerShape, type CsrfSigner, CSRF_FIELD, formFields, headerOf, type PageRoute, seeOther } from "@paykit/http"
import type { ServerMode } from "../config.ts"
import type { Organisations } from "../organisations.ts"
import type { DashboardApi } from "./api-client.ts"
import { refusalPage } from "./frame.ts"
import { outcomeOf, withOutcome } from "./outcomes.ts"
import { cookieOf, SESSION_COOKIE, sessionCookie, type SessionSealer } from "./session.ts"
import type { Links } from "./views.ts"

/**
 * A request to a signed-in page: the session's token opened from its cookie and presented to the
 * token store again (a revoked token, or one of a partner app, is no session), and on a post its
 * CSRF token and the token's scope checked before anything acts.
 */

export interface DashboardServices {
  readonly api: DashboardApi
  readonly tokens: AccessTokens["Service"]
  readonly csrf: CsrfSigner
  readonly sessions: SessionSealer
  readonly history: EventLog["Service"]
  /** The engine's webhook records: a test webhook has no API route. */
  readonly webhooks: Webhooks["Service"]
  /** The engine's webhook endpoints: rotating a secret has no API route. */
  readonly endpoints: WebhookEndpoints["Service"]
  readonly organisations: Organisations["Service"]
  readonly mode: ServerMode
  /** Whether the session cookie is `Secure`: the public URL is https. */
  readonly secureCookie: boolean
}

export interface Visit {
  readonly request: ApiRequest
  readonly root: string
  readonly href: string
  readonly links: Links
  readonly token: string
  readonly caller: CallerShape
  /** The session's CSRF token for its forms (one per session and hour: the forms act on the session's organisation). */
  readonly csrfToken: string
  /** False for a read-only token: its pages show no form that acts. */
  readonly canAct: boolean
  readonly mode: ServerMode
  /** What the last action ran, shown once on this page (outcomes.ts). */
  readonly outcome?: { readonly text: string; readonly clear: string }
}

/** The CSRF purpose of the signed-in forms, bound to the session's organisation and token. */
const CSRF_PURPOSE = "dashboard"

export const rootOf = (request: ApiRequest): string => `${request.basePath ?? ""}/dashboard`

/** The `Set-Cookie` that ends the session (the cookie emptied and expired). */
export const endSession = (services: DashboardServices, request: ApiRequest): string => sessionCookie("", rootOf(request), services.secureCookie, 0)

const toSignIn = (services: DashboardServices, request: ApiRequest): ApiResponse => {
  const answer = seeOther("/dashboard/sign_in")
  return { ...answer, headers: { ...answer.headers, "set-cookie": endSession(services, request) } }
}

const visitOf = (services: DashboardServices, request: ApiRequest, token: string, caller: CallerShape): Visit => {
  const root = rootOf(request)
  const outcome = request.method === "GET" ? outcomeOf(services.sessions, root, services.secureCookie, request) : undefined
  return {
    request,
    root,
    href: `${request.basePath ?? ""}${request.path}`,
    links: { root, readable: (collection) => services.api.serves("GET", `/${collection}/x`) },
    token,
    caller,
    csrfToken: services.csrf.sign(CSRF_PURPOSE, caller.organisation, caller.tokenId, Date.now()),
    canAct: caller.scope === "read_write",
    mode: services.mode,
    ...(outcome === undefined ? {} : { outcome })
  }
}

/**
 * Answers a post with a 303 to `location` under the dashboard's mount, saying on the page it leads
 * to what the action ran (`text`).
 */
export const doneThen = (services: DashboardServices, visit: Visit, location: string, text: string): ApiResponse =>
  withOutcome(services.sessions, visit.root, services.secureCookie, seeOther(location), text)

/** Why a post is refused before it acts, if it is. */
const postRefusal = (services: DashboardServices, visit: Visit, acts: boolean): string | undefined => {
  if (!services.csrf.verify(formFields(visit.request)[CSRF_FIELD], CSRF_PURPOSE, visit.caller.organisation, visit.caller.tokenId, Date.now())) {
    return "This form has expired or did not come from this dashboard. Go back, reload the page and try again."
  }
  return visit.canAct || !acts ? undefined : "This access token is read-only: it may look but not act."
}

/** A signed-in page at `path`: without a good session, the sign-in page. A post `acts` unless told otherwise (sign-out does not). */
export const signedIn = (
  services: DashboardServices,
  method: "GET" | "POST",
  path: string,
  answer: (visit: Visit) => Effect.Effect<ApiResponse, PaykitError>,
  acts: boolean = method === "POST"
): PageRoute => ({
  method,
  path,
  page: (request) => {
    const token = services.sessions.open(cookieOf(headerOf(request, "cookie"), SESSION_COOKIE), Date.now())
    if (token === undefined) return Effect.succeed(toSignIn(services, request))
    return Effect.matchEffect(authenticateWith(services.tokens, `Bearer ${token}`), {
      onFailure: () => Effect.succeed(toSignIn(services, request)),
      onSuccess: (caller) => {
        if (caller.app !== null) return Effect.succeed(toSignIn(services, request))
        const visit = visitOf(services, request, token, caller)
        const refused = method === "POST" ? postRefusal(services, visit, acts) : undefined
        if (refused !== undefined) return Effect.succeed(refusalPage(visit, new Forbidden({ reason: "dashboard_refused", message: refused })))
        return Effect.catch(answer(visit), (error) => Effect.succeed(refusalPage(visit, error)))
      }
    })
  }
})

