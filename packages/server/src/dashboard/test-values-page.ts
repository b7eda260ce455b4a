import { Effect } from "effect"
import { html, type PageRoute, testValuesContent } from "@paykit/http"
import { dashboardPage } from "./frame.ts"
import { type DashboardServices, signedIn } from "./visit.ts"

/**
 * The sandbox bank's test values inside the dashboard: the same rendering as `/docs#test-values`
 * (`testValuesContent`), with a link to the reference's copy.
 */
export const testValuesPages = (services: DashboardServices): ReadonlyArray<PageRoute> => [
  signedIn(services, "GET", "/dashboard/test-values", (visit) =>
    Effect.succeed(dashboardPage(visit, "Sandbox test values", html`${testValuesContent()}
<p>The same table is in the API reference: <a href="${visit.root.slice(0, -"/dashboard".length)}/docs#test-values">/docs#test-values</a>.</p>`)))
]
