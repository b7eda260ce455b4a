import { httpStatusOf, type PaykitError } from "@paykit/core"
import { type ApiResponse, CSRF_FIELD, DEFAULT_THEME, type Html, html, htmlPage, layout, MESSAGES } from "@paykit/http"
import { MENU_COLLECTIONS, titleOf } from "./resources.ts"

/**
 * The dashboard's frame: the pages' one layout (`layout`: its styles, escaping and skip link), in
 * English (the dashboard is for the merchant's developers; the payer pages are the ones
 * translated), with the dashboard's menu, the id search and sign-out. Wider than a payer's page,
 * for tables.
 */

/** The hidden field of every form: its CSRF token. */
export const csrfField = (token: string): Html => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`

const STYLES = html`<style>main{max-width:76rem}nav.menu ul{flex-wrap:wrap;margin-bottom:1rem}.scroll{overflow-x:auto}
form.inline{display:inline-flex;gap:.5rem;align-items:end;flex-wrap:wrap;margin:.25rem .5rem .25rem 0}form.inline label{margin:0}
form.inline input{width:auto}.once{border:2px solid #0b6e4f;padding:.75rem;border-radius:6px;word-break:break-all}
caption{text-align:left;font-weight:600;padding:.25rem 0}section{margin-top:2rem}dd{overflow-wrap:anywhere;min-width:0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;font-size:.85rem}</style>`

/** What the frame needs of the visit: where the dashboard is and the session's sign-out token (none on the sign-in page). */
export interface FrameVisit {
  readonly root: string
  readonly href: string
  readonly csrfToken?: string
}

const menu = (visit: FrameVisit): Html => visit.csrfToken === undefined ? html`` : html`<nav class="menu" aria-label="Dashboard"><ul>
<li><a href="${visit.root}">Home</a></li>${MENU_COLLECTIONS.map((c) => html`<li><a href="${visit.root}/resources/${c}">${titleOf(c)}</a></li>`)}
<li><a href="${visit.root}/webhooks">Webhooks</a></li><li><a href="${visit.root}/tokens">Access tokens</a></li>
<li><a href="${visit.root}/test-values">Test values</a></li></ul></nav>
<form class="inline" method="get" action="${visit.root}/search" role="search"><label for="search-id">Find by id</label><input id="search-id" name="id" required pattern="[A-Z0-9]+" size="22"><button class="secondary" type="submit">Find</button></form>
<form class="inline" method="post" action="${visit.root}/sign_out">${csrfField(visit.csrfToken)}<button class="secondary" type="submit">Sign out</button></form>`

export const dashboardPage = (visit: FrameVisit, title: string, content: Html, status = 200): ApiResponse =>
  htmlPage(status, layout({
    language: "en",
    messages: MESSAGES.en,
    title,
    theme: DEFAULT_THEME,
    path: visit.href,
    singleLanguage: true,
    content: html`${STYLES}${menu(visit)}${content}`
  }))

/** What the API refused, as a page with the API's status and message. */
export const refusalPage = (visit: FrameVisit, error: PaykitError): ApiResponse =>
  dashboardPage(visit, "Refused", html`<p role="alert">${error.message}</p>`, httpStatusOf(error))
