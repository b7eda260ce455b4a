import { Effect } from "effect"
import { invalidField, newId, now } from "@paykit/core"
import { creditorVerificationMachine } from "@paykit/machines"
import { accepts, API_CAUSE, applyTransition, insertNew } from "../kernel/support.ts"
import type { VerificationDetail } from "./domain/verification-details.ts"
import { VERIFICATION_DETAILS_ROOT, type VerificationDetailCreateCommand } from "./domain/requests.ts"
import type { CreditorStores } from "./repositories.ts"

/**
 * `POST /verification_details`: the details are stored, and a creditor that needed action is put
 * in review (`submit_details`); a creditor already in review or verified stays as it is.
 */
export const createVerificationDetail = (stores: CreditorStores, organisation: string, command: VerificationDetailCreateCommand) =>
  Effect.gen(function*() {
    const creditor = yield* stores.creditors.get(organisation, command.links.creditor)
    if (command.directors.length === 0) {
      return yield* invalidField(VERIFICATION_DETAILS_ROOT, ["directors"], "must name at least one director")
    }
    const created_at = yield* now
    const detail: VerificationDetail = {
      id: yield* newId("verification_detail"),
      created_at,
      name: command.name,
      company_number: command.company_number,
      description: command.description,
      address_line1: command.address_line1,
      address_line2: command.address_line2 ?? null,
      address_line3: command.address_line3 ?? null,
      city: command.city,
      postal_code: command.postal_code,
      region: null,
      country_code: creditor.resource.country_code,
      directors: command.directors,
      links: { creditor: creditor.resource.id }
    }
    yield* insertNew(stores.details, organisation, detail)
    if (accepts(creditorVerificationMachine, creditor.resource.verification_status, "submit_details", {}, created_at)) {
      yield* applyTransition(stores.creditors, {
        organisation,
        machine: creditorVerificationMachine,
        current: creditor,
        event: "submit_details",
        context: {},
        cause: API_CAUSE("verification_details_submitted"),
        links: { creditor: creditor.resource.id }
      })
    }
    return detail
  })
