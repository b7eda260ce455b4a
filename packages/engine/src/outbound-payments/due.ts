import { Effect } from "effect"
import { now, OrganisationId } from "@paykit/core"
import { sweepKind } from "../due-work/deadlines.ts"
import { dueDone, type DueWorkDeclarations } from "../due-work/port.ts"
import { IMPORT_EXPIRY, IMPORT_PROCESSING, IMPORT_VALIDATION, OutboundPaymentImports } from "./outbound-payment-imports.ts"
import { OUTBOUND_APPROVAL_EXPIRY, OutboundPayments } from "./outbound-payments.ts"

/**
 * The outbound due work at its instant: an import is validated seconds after its creation and
 * expires at the end of its authorisation window, and its processing is finished if a crash cut
 * it off; a payment not approved in its window expires.
 */
export const outboundDeadlines: Effect.Effect<DueWorkDeclarations, never, OutboundPayments | OutboundPaymentImports> = Effect.gen(function*() {
  const outbound = yield* OutboundPayments
  const imports = yield* OutboundPaymentImports
  return {
    pumps: [],
    kinds: [
      sweepKind(IMPORT_VALIDATION, imports.validatePending),
      sweepKind(IMPORT_EXPIRY, (o) => Effect.flatMap(now, (at) => imports.expireUnauthorised(o, at))),
      // Keyed by the import: finishes its processing if a crash cut it off (each chunk its own unit of work).
      { kind: IMPORT_PROCESSING, ownUnitsOfWork: true, run: (item) => Effect.as(imports.finishProcessing(OrganisationId(item.organisation), item.key), dueDone) },
      sweepKind(OUTBOUND_APPROVAL_EXPIRY, (o) => Effect.flatMap(now, (at) => outbound.expireUnapproved(o, at)))
    ]
  }
})
