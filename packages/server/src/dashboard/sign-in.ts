import { Effect } from "effect"
import { type ApiRequest, type ApiResponse, authenticateFormToken, CSRF_FIELD, formFields, html, type PageRoute, seeOther } from "@paykit/http"
import { csrfField, dashboardPage } from "./frame.ts"
import { SESSION_LIFETIME_MS, sessionCookie } from "./session.ts"
import { type DashboardServices, endSession, rootOf, signedIn } from "./visit.ts"

/**
 * Sign-in with an access token, and sign-out. The sign-in form's CSRF token is bound to no
 * session (there is none yet): it proves the post came from this server's form within the hour.
 * A partner app's token is refused: the dashboard is the organisation's own, and an app acts
 * through the API within its restrictions.
 */

const SIGN_IN_PURPOSE = "dashboard_sign_in"

const signInPage = (services: DashboardServices, request: ApiRequest, problem?: string): ApiResponse => {
  const root = rootOf(request)
  const token = services.csrf.sign(SIGN_IN_PURPOSE, "", "", Date.now())
  return dashboardPage({ root, href: `${root}/sign_in`, mode: services.mode }, "Sign in to the dashboard", html`
${problem === undefined ? "" : html`<p role="alert" class="problems">${problem}</p>`}
<p>Sign in with one of your organisation's access tokens (the sandbox token, or one from <code>npm run token</code>). A read-only token can look but not act.</p>
<form method="post" action="${root}/sign_in">${csrfField(token)}
<label for="token">Access token</label><input id="token" name="token" type="password" autocomplete="off" required>
<div class="actions"><button class="primary" type="submit">Sign in</button></div></form>`, problem === undefined ? 200 : 401)
}

const signIn = (services: DashboardServices) => (request: ApiRequest): Effect.Effect<ApiResponse> => {
  const fields = formFields(request)
  if (!services.csrf.verify(fields[CSRF_FIELD], SIGN_IN_PURPOSE, "", "", Date.now())) {
    return Effect.succeed(signInPage(services, request, "The form expired; please sign in again."))
  }
  return Effect.match(authenticateFormToken(services.tokens, fields["token"]), {
    onFailure: () => signInPage(services, request, "That access token is not an active token of this server."),
    onSuccess: (caller) => {
      if (caller.app !== null) return signInPage(services, request, "A partner app's token cannot sign in to the dashboard: sign in with one of the organisation's own tokens.")
      const token = fields["token"] ?? ""
      const answer = seeOther("/dashboard")
      const cookie = sessionCookie(services.sessions.seal(token, Date.now()), rootOf(request), services.secureCookie, SESSION_LIFETIME_MS / 1000)
      return { ...answer, headers: { ...answer.headers, "set-cookie": cookie } }
    }
  })
}

export const signInPages = (services: DashboardServices): ReadonlyArray<PageRoute> => [
  { method: "GET", path: "/dashboard/sign_in", page: (request) => Effect.succeed(signInPage(services, request)) },
  { method: "POST", path: "/dashboard/sign_in", page: signIn(services) },
  // Sign-out is a post of the session's own form; a read-only session may sign out too.
  signedIn(services, "POST", "/dashboard/sign_out", (visit) => {
    const answer = seeOther("/dashboard/sign_in")
    return Effect.succeed({ ...answer, headers: { ...answer.headers, "set-cookie": endSession(services, visit.request) } })
  }, false)
]
