import { Effect } from "effect"
import { type EndpointDeclaration, openApiDocument, PAYKIT_ROUTES, routeOf } from "@paykit/http"
import { OAUTH_APP_ROUTES } from "../src/oauth/app-routes.ts"
import { SANDBOX_ROUTES } from "../src/sandbox-routes.ts"
import { SCENARIO_ROUTES } from "../src/scenario-routes.ts"
import { loadExamples } from "../src/reference-examples.ts"

/**
 * The reference a sandbox server serves, made in-process from the same route tables (the API's
 * rooms, the sandbox's, the scenario simulators', OAuth apps') and the recorded examples, without
 * starting a server: what the reference's checks (redocly, descriptions, schema artefacts) read.
 */

export const SANDBOX_TABLES: ReadonlyArray<ReadonlyArray<EndpointDeclaration<never>>> = [PAYKIT_ROUTES, SANDBOX_ROUTES, SCENARIO_ROUTES, OAUTH_APP_ROUTES]

export const sandboxDocument = (publicUrl = "https://sandbox.paykit.test") =>
  openApiDocument(SANDBOX_TABLES.flat().map((declaration) => routeOf(declaration, () => Effect.die("the document's routes are not called"))), publicUrl, loadExamples())
