import { Context } from "effect"
import { OpenApi } from "effect/http-api"
import { describedApi } from "./api.ts"
import { PAYKIT_EXTENSION_TAG } from "./endpoints.ts"
import { BANK_RAILS_TAG, BANK_RAILS_TAG_DESCRIPTION } from "./routes/bank-submissions.ts"
import { type RecordedExample, withExamples } from "./reference-examples.ts"
import { refineDocument } from "./openapi/refine.ts"
import { type AnyRoute, isPage, type Route } from "./routes.ts"

/**
 * The API's reference: the OpenAPI document of every route a dispatcher serves (the API's rooms,
 * and a server's own tables: the sandbox, the scenario simulators, OAuth apps), read from the
 * routes' declarations, so a served path is documented by construction. `/openapi.json` answers
 * it and `/docs` renders it.
 */

/**
 * Where people reach the server (`PAYKIT_PUBLIC_URL`, else its address), without a trailing
 * slash; empty when unknown (an embedding without one): the document then names no server and
 * `documentation_url` is a path.
 */
export const ApiPublicUrl = Context.Reference<string>("@paykit/http/ApiPublicUrl", { defaultValue: () => "" })

/** The routes of the document: endpoints with a path of their own (not pages, not the live server's `*` refusals). */
export const documentedRoutes = (routes: ReadonlyArray<AnyRoute>): ReadonlyArray<Route> =>
  routes.filter((route): route is Route => !isPage(route) && route.method !== "*" && !route.path.includes("*"))

/** The anchor of an operation on `/docs`: its method and path (as the document writes it), made fit for a fragment. */
export const operationAnchor = (method: string, path: string): string =>
  `${method.toLowerCase()}-${path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9_]+/g, "-").replace(/^-|-$/g, "")}`

/** The document of `routes` at `publicUrl`, with the `examples` recorded from real calls (`reference-examples.ts`). */
export const openApiDocument = (routes: ReadonlyArray<AnyRoute>, publicUrl: string, examples: ReadonlyArray<RecordedExample> = []): OpenApi.OpenAPISpec => {
  const documented = documentedRoutes(routes)
  const declarations = documented.map((route) => ({ group: route.group, endpoint: route.declared }))
  const spec = OpenApi.fromApi(describedApi(declarations, publicUrl === "" ? [] : [publicUrl]))
  const used = (tag: string) => Object.values(spec.paths).some((item) => JSON.stringify(item).includes(`"${tag}"`))
  const own = [
    { name: PAYKIT_EXTENSION_TAG, description: "paykit's own endpoints, which GoCardless's API does not have." },
    { name: BANK_RAILS_TAG, description: BANK_RAILS_TAG_DESCRIPTION }
  ].filter((tag) => used(tag.name))
  const tagged = own.length === 0 ? spec : { ...spec, tags: [...spec.tags.filter((tag) => !own.some((o) => o.name === tag.name)), ...own] }
  return withExamples(refineDocument(tagged, documented).spec, examples)
}
