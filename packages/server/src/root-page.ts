import { Effect } from "effect"
import { API_VERSION } from "@paykit/core"
import { jsonResponse, pageRoute, type PageRoute } from "@paykit/http"
import type { ServerMode } from "./config.ts"
import { FAVICON } from "./dashboard/assets.ts"

/** What `GET /` says: what this server is and where to read more, for a developer who opens it in a browser. */
const rootPage = (mode: ServerMode) => ({
  name: "paykit",
  description: "A GoCardless-compatible payments API (direct debit and open banking) served by the paykit engine.",
  mode,
  api_version: API_VERSION,
  documentation: "/docs",
  openapi: "/openapi.json",
  authentication: "Authorization: Bearer <access token>; GoCardless-Version: " + API_VERSION,
  sandbox_endpoints: mode === "sandbox"
    ? [
      "GET /sandbox/simulator/clock",
      "POST /sandbox/simulator/advance {\"to\": <timestamp>} | {\"by\": \"P1D\" | <seconds>}",
      "POST /sandbox/bank_authorisations/{id}/actions/{visit|authorise|deny|fail}",
      "POST /sandbox/outbound_payment_imports/{id}/actions/{authorise|cancel}",
      "POST /sandbox/payment_accounts/fund {\"amount\": <pence>, \"links\": {\"creditor\": <id>}}",
      "POST /sandbox/organisations {\"name\": <name>, \"start_at\": <timestamp>} | GET /sandbox/organisations | DELETE /sandbox/organisations/{id} (the sandbox token or PAYKIT_ADMIN_SECRET)"
    ]
    : []
})

/** `GET /`, and `GET /favicon.ico` (browsers ask for it by that name), pages of the server's dispatcher (no token needed). */
export const rootRoute = (mode: ServerMode): Effect.Effect<ReadonlyArray<PageRoute>> => {
  const answer = jsonResponse(200, rootPage(mode))
  return Effect.succeed([pageRoute("/", () => Effect.succeed(answer)), pageRoute("/favicon.ico", () => Effect.succeed(FAVICON))])
}
