import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { API_VERSION } from "@paykit/core"
import type { ServerMode } from "./config.ts"

/** `GET /`: what this server is and where to read more, for a developer who opens it in a browser. */
export const rootRoute = (mode: ServerMode) =>
  HttpRouter.add("GET", "/", Effect.sync(() =>
    HttpServerResponse.jsonUnsafe({
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
          "POST /sandbox/payment_accounts/fund {\"amount\": <pence>, \"links\": {\"creditor\": <id>}}"
        ]
        : []
    })
  ))
