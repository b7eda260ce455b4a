import { Effect } from "effect"
import { expect } from "vitest"
import { ConnectServer, OAuthStore } from "../src/index.ts"
import { api, type TestServer } from "./harness.ts"

/** The OAuth connect flow as an app and its user meet it, over HTTP (issue 20). */

export interface RegisteredApp {
  readonly id: string
  readonly client_id: string
  readonly client_secret: string
}

export const CALLBACK = "https://app.example/oauth/callback?from=paykit"

export const connectUrlOf = (server: TestServer): Promise<string> => server.runtime.runPromise(Effect.map(ConnectServer, (c) => c.url))

export const registerApp = async (server: TestServer, token: string, body: Record<string, unknown> = {}): Promise<RegisteredApp> => {
  const response = await api(server.url, token, "/oauth_apps", { method: "POST", body: { oauth_apps: { name: "Ledgerly", redirect_uris: [CALLBACK], ...body } } })
  expect(response.status).toBe(201)
  return (await response.json() as { oauth_apps: RegisteredApp }).oauth_apps
}

export const authorizeUrl = (connect: string, params: Record<string, string>): string => `${connect}/oauth/authorize?${new URLSearchParams(params).toString()}`

/** The consent page's hidden CSRF token. */
export const csrfOf = (page: string): string => /name="csrf_token" value="([^"]+)"/.exec(page)?.[1] ?? ""

export const form = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString()
  })

/** Opens the consent page for `app` and answers it; returns the redirect's location. */
export const consent = async (
  connect: string,
  app: RegisteredApp,
  answer: Record<string, string>,
  options: { readonly scope?: string; readonly state?: string } = {}
): Promise<URL> => {
  const query = { response_type: "code", client_id: app.client_id, redirect_uri: CALLBACK, scope: options.scope ?? "read_write", state: options.state ?? "s-1" }
  const page = await fetch(authorizeUrl(connect, query), { redirect: "manual" })
  expect(page.status).toBe(200)
  const posted = await form(`${connect}/oauth/authorize`, {
    ...query,
    initial_view: query.scope === "read_only" ? "login" : "signup",
    csrf_token: csrfOf(await page.text()),
    ...answer
  })
  expect(posted.status).toBe(303)
  return new URL(posted.headers.get("location") ?? "")
}

export interface TokenAnswer {
  readonly access_token: string
  readonly scope: string
  readonly token_type: string
  readonly email: string
  readonly organisation_id: string
}

export const exchange = (connect: string, app: RegisteredApp, code: string, redirectUri = CALLBACK) =>
  form(`${connect}/oauth/access_token`, { grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: app.client_id, client_secret: app.client_secret })

/** A token for the organisation of `ownToken`, through the whole flow. */
export const connectWith = async (connect: string, app: RegisteredApp, ownToken: string, scope = "read_write"): Promise<TokenAnswer> => {
  const location = await consent(connect, app, { decision: "allow", account: "login", access_token: ownToken, email: "owner@merchant.example" }, { scope })
  const response = await exchange(connect, app, location.searchParams.get("code") ?? "")
  expect(response.status).toBe(200)
  return await response.json() as TokenAnswer
}

/** An API answer's status and, for an error, its first reason. */
export const errorOf = async (response: Response) => ({
  status: response.status,
  reason: response.status < 300 ? undefined : (await response.json() as { error: { errors: ReadonlyArray<{ reason: string }> } }).error.errors[0]?.reason
})

/** The operator's approval of an app's payment pages (no endpoint sets it). */
export const approvePaymentPages = (server: TestServer, app: RegisteredApp, approved: boolean) =>
  server.runtime.runPromise(Effect.flatMap(OAuthStore, (store) => store.setPaymentPagesApproved(app.id, approved)))

