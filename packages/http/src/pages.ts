import { Effect } from "effect"
import { OpenApi } from "effect/http-api"
import { PaykitApi } from "./api.ts"
import { type ApiResponse, jsonResponse } from "./api-response.ts"
import { renderDocsPage } from "./docs-page.ts"
import { pageRoute, type PageRoute } from "./routes.ts"

/**
 * The API's pages: its OpenAPI document and its docs page, routes of the dispatcher answered
 * without the gateway (anyone may read how to call the API). Both are derived from `PaykitApi`,
 * which does not change while a process runs, so each is rendered once, on its first request.
 */

/** An HTML answer: the dispatcher writes the content type a response names over its JSON default. */
export const htmlResponse = (html: string): ApiResponse => ({ status: 200, body: html, headers: { "content-type": "text/html; charset=utf-8" } })

/** A page whose answer is computed on its first request and kept. */
const renderedOnce = (path: string, render: () => ApiResponse): PageRoute => {
  let rendered: ApiResponse | undefined
  return pageRoute(path, () => Effect.sync(() => (rendered ??= render())))
}

export const API_PAGES: ReadonlyArray<PageRoute> = [
  renderedOnce("/openapi.json", () => jsonResponse(200, OpenApi.fromApi(PaykitApi))),
  renderedOnce("/docs", () => htmlResponse(renderDocsPage()))
]
