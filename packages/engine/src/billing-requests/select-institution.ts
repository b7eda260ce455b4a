import { Effect } from "effect"
import { invalidField, type StorageError } from "@paykit/core"
import type { EngineContext } from "../kernel/support.ts"
import type { BillingRequest } from "./domain/billing-requests.ts"
import type { SelectInstitutionRequest } from "./domain/billing-request-commands.ts"
import { checkBillingRequestEvent, stepBillingRequest } from "./billing-request-steps.ts"
import { type BillingRequestDeps, type Errors, ROOT } from "./deps.ts"
import { bankAuthorisationScheme, present } from "./read.ts"

/** The payer's bank: an enabled institution of the country given that takes the request's scheme. */
export const selectInstitution = (
  deps: Pick<BillingRequestDeps, "requests" | "customers" | "details" | "accounts" | "institutions">,
  organisation: string,
  id: string,
  req: SelectInstitutionRequest
): Effect.Effect<BillingRequest, Errors | StorageError, EngineContext> =>
  Effect.gen(function*() {
    const current = yield* deps.requests.get(organisation, id)
    const br = current.resource
    yield* checkBillingRequestEvent(br, "select_institution")
    const record = yield* deps.institutions.record(req.institution).pipe(
      Effect.mapError(() => invalidField(ROOT, ["institution"], "must be the id of a known institution"))
    )
    if (record.country_code !== req.country_code) return yield* invalidField(ROOT, ["institution"], `is not an institution of ${req.country_code}`)
    if (record.status !== "enabled") return yield* invalidField(ROOT, ["institution"], `is ${record.status.replace("_", " ")}`)
    const scheme = bankAuthorisationScheme(br)
    if (!record.schemes.includes(scheme)) return yield* invalidField(ROOT, ["institution"], `does not support ${scheme}`)
    const next = yield* stepBillingRequest(deps.requests, organisation, current, "select_institution",
      { origin: "payer", cause: "billing_request_select_institution", description: `The payer chose ${record.name}.` },
      { patch: (b) => ({ ...b, links: { ...b.links, institution: record.id } }) })
    return yield* present(deps, organisation, next)
  })
