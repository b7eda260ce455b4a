import { expect } from "vitest"

/** The dashboard as a browser without scripts meets it over HTTP: forms posted, the session cookie kept. */

export const DASHBOARD_TOKEN = "dashboard-sandbox-token-000001"

/** The CSRF token of the first form on a page. */
export const csrfOf = (page: string): string => /name="csrf_token" value="([^"]+)"/.exec(page)?.[1] ?? ""

/** Signs in with `token`; the session cookie (name=value), or undefined when refused. */
export const signIn = async (url: string, token: string): Promise<{ readonly cookie: string | undefined; readonly page: string; readonly status: number }> => {
  const form = await (await fetch(`${url}/dashboard/sign_in`)).text()
  const response = await fetch(`${url}/dashboard/sign_in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf_token: csrfOf(form), token }).toString()
  })
  const set = response.headers.get("set-cookie")
  return { cookie: response.status === 303 && set !== null ? set.split(";")[0] : undefined, page: await response.text(), status: response.status }
}

export const signedIn = async (url: string, token: string): Promise<string> => {
  const { cookie } = await signIn(url, token)
  expect(cookie).toBeDefined()
  return cookie ?? ""
}

export const get = (url: string, cookie: string, path: string) => fetch(`${url}${path}`, { redirect: "manual", headers: { cookie } })

export const post = (url: string, cookie: string, path: string, fields: Readonly<Record<string, string>>) =>
  fetch(`${url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString()
  })

/** Waits until `done` holds (the worker's deliveries run on their own time). */
export const eventually = async (done: () => boolean, what: string, limitMs = 15_000): Promise<void> => {
  const until = Date.now() + limitMs
  while (!done()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
