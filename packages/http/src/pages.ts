import { Effect } from "effect"
import { type ApiResponse, jsonResponse } from "./api-response.ts"
import { renderDocsPage } from "./docs-page.ts"
import { openApiDocument } from "./reference.ts"
import type { RecordedExample } from "./reference-examples.ts"
import { type AnyRoute, pageRoute, type PageRoute } from "./routes.ts"

/**
 * The API's pages: its OpenAPI document and its docs page, routes of the dispatcher answered
 * without the gateway (anyone may read how to call the API). Both are derived from the routes the
 * dispatcher serves, which do not change while a process runs, so each is rendered once, on its
 * first request.
 */

/** An HTML answer: the dispatcher writes the content type a response names over its JSON default. */
export const htmlResponse = (html: string): ApiResponse => ({ status: 200, body: html, headers: { "content-type": "text/html; charset=utf-8" } })

/** A page whose answer is computed on its first request and kept. */
const renderedOnce = (path: string, render: () => ApiResponse): PageRoute => {
  let rendered: ApiResponse | undefined
  return pageRoute(path, () => Effect.sync(() => (rendered ??= render())))
}

/** The pages documenting `routes`, the server reached at `publicUrl` (`ApiPublicUrl`), with the `examples` recorded from real calls (`ApiExamples`). */
export const apiPages = (routes: ReadonlyArray<AnyRoute>, publicUrl: string, examples: ReadonlyArray<RecordedExample> = []): ReadonlyArray<PageRoute> => [
  renderedOnce("/openapi.json", () => jsonResponse(200, openApiDocument(routes, publicUrl, examples))),
  renderedOnce("/docs", () => htmlResponse(renderDocsPage(openApiDocument(routes, publicUrl, examples))))
]
