import { DOCUMENTATION_PATH, httpStatusOf, type PaykitError, renderError } from "@paykit/core"
import { type ApiResponse, CSRF_FIELD, DEFAULT_THEME, type Html, html, htmlPage, layout, MESSAGES } from "@paykit/http"
import type { ServerMode } from "../config.ts"
import { FORMAT_STYLES } from "./format.ts"
import { FAVICON_PATH, LOCAL_TIMES_PATH } from "./assets.ts"
import { MENU_COLLECTIONS, titleOf } from "./resources.ts"

/**
 * The dashboard's frame: the pages' one layout (`layout`: its styles, escaping and skip link), in
 * English (the dashboard is for the merchant's developers; the payer pages are the ones
 * translated), with the dashboard's menu, the id search and sign-out, a sandbox's banner, and what
 * the last action ran. Wider than a payer's page, for tables. Its one script (assets.ts) shows
 * times in the reader's zone; without it the pages say UTC.
 */

/** The hidden field of every form: its CSRF token. */
export const csrfField = (token: string): Html => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`

const STYLES = html`<style>main{max-width:76rem}nav.menu ul{flex-wrap:wrap;margin-bottom:1rem}.scroll{overflow-x:auto}
form.inline{display:inline-flex;gap:.5rem;align-items:end;flex-wrap:wrap;margin:.25rem .5rem .25rem 0}form.inline label{margin:0}
form.inline input{width:auto}.once{border:2px solid #0b6e4f;padding:.75rem;border-radius:6px;word-break:break-all}
caption{text-align:left;font-weight:600;padding:.25rem 0}section{margin-top:2rem}dd{overflow-wrap:anywhere;min-width:0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;font-size:.85rem}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin-bottom:1.5rem}form.filters label{margin:0}form.filters input,form.filters select{width:auto}
.outcome{border-left:4px solid #0b6e4f;background:#eef7f2;padding:.5rem .75rem;margin:0 0 1rem}.outcome p{margin:0}
.sandbox-banner{background:#fff4d6;color:#4a3500;border-bottom:2px solid #e0c36a;padding:.5rem 1rem;text-align:center}
${FORMAT_STYLES}</style>`

/** What the frame needs of the visit: where the dashboard is and the session's sign-out token (none on the sign-in page). */
export interface FrameVisit {
  readonly root: string
  readonly href: string
  readonly csrfToken?: string
  /** The server's mode: a sandbox's pages say so on every page. */
  readonly mode?: ServerMode
  /** What the last action ran, shown once, and the `Set-Cookie` that forgets it (outcomes.ts). */
  readonly outcome?: { readonly text: string; readonly clear: string }
}

const menu = (visit: FrameVisit): Html => visit.csrfToken === undefined ? html`` : html`<nav class="menu" aria-label="Dashboard"><ul>
<li><a href="${visit.root}">Home</a></li>${MENU_COLLECTIONS.map((c) => html`<li><a href="${visit.root}/resources/${c}">${titleOf(c)}</a></li>`)}
<li><a href="${visit.root}/webhooks">Webhooks</a></li><li><a href="${visit.root}/logs">Request log</a></li><li><a href="${visit.root}/tokens">Access tokens</a></li>
<li><a href="${visit.root}/test-values">Test values</a></li></ul></nav>
<form class="inline" method="get" action="${visit.root}/search" role="search"><label for="search-id">Find by id</label><input id="search-id" name="id" required pattern="[A-Z0-9]+" size="22"><button class="secondary" type="submit">Find</button></form>
<form class="inline" method="post" action="${visit.root}/sign_out">${csrfField(visit.csrfToken)}<button class="secondary" type="submit">Sign out</button></form>`

/** A sandbox's banner: a landmark of its own, so every page says which server it is before anything else. */
const SANDBOX_BANNER = html`<aside class="sandbox-banner" aria-label="Sandbox"><strong>Sandbox</strong>: test data, the sandbox bank and a clock you can move. Nothing here moves real money.</aside>`

/** The pages' policy, with the dashboard's own script allowed: from its own path only, nothing inline. */
const withScript = (policy: string | undefined): string => `${policy ?? "default-src 'none'"}; script-src 'self'`

export const dashboardPage = (visit: FrameVisit, title: string, content: Html, status = 200): ApiResponse => {
  const page = htmlPage(status, layout({
    language: "en",
    messages: MESSAGES.en,
    title,
    theme: DEFAULT_THEME,
    path: visit.href,
    singleLanguage: true,
    head: html`<link rel="icon" href="${visit.root}${FAVICON_PATH}" type="image/svg+xml"><script src="${visit.root}${LOCAL_TIMES_PATH}" defer></script>`,
    ...(visit.mode === "sandbox" ? { banner: SANDBOX_BANNER } : {}),
    content: html`${STYLES}${menu(visit)}${visit.outcome === undefined || visit.outcome.text === "" ? "" : html`<div class="outcome" role="status"><p>${visit.outcome.text}</p></div>`}${content}`
  }))
  return {
    ...page,
    headers: {
      ...page.headers,
      "content-security-policy": withScript(page.headers["content-security-policy"]),
      ...(visit.outcome === undefined ? {} : { "set-cookie": visit.outcome.clear })
    }
  }
}

/**
 * What the API refused, as a page with the API's status and its own words: the message of its
 * error body and, where that is only "Validation failed", each field's message, as the API's
 * `errors` list them, with the reason's documentation.
 */
export const refusalPage = (visit: FrameVisit, error: PaykitError): ApiResponse => {
  const base = `${visit.root.slice(0, -"/dashboard".length)}${DOCUMENTATION_PATH}`
  const { error: body } = renderError(error, { requestId: "", documentationBase: base })
  const items = body.errors.filter((item) => item.message !== body.message)
  return dashboardPage(visit, "Refused", html`<div role="alert"><p>${body.message}</p>${items.length === 0 ? "" : html`<ul>${
    items.map((item) => html`<li>${"field" in item && typeof item.field === "string" && item.field !== "" && !item.message.startsWith(item.field) ? html`<code>${item.field}</code> ` : ""}${item.message}</li>`)
  }</ul>`}</div><p class="notice">${body.type} (${String(body.code)}): <a href="${body.documentation_url}">what it means</a></p>`, httpStatusOf(error))
}
