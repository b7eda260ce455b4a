import { Effect } from "effect"
import type { InvalidState, LocalDate, MandateScheme, Metadata, StorageError } from "@paykit/core"
import { type Cause, type MandateEvent, mandateMachine } from "@paykit/machines"
import { nextPossibleChargeDate } from "@paykit/schedule"
import type { Versioned } from "../kernel/ports/repository.ts"
import { EventLog } from "../kernel/ports/event-log.ts"
import type { Creditor } from "../creditors/domain/creditors.ts"
import { DEFAULT_MINIMUM_ADVANCE_NOTICE, identifierSchemeOf } from "../creditors/scheme-identifiers.ts"
import { applyTransition, type EngineContext } from "../kernel/support.ts"
import { CHARGEABLE_MANDATE_STATUSES, type Mandate } from "./domain/mandates.ts"
import type { MandateRepository } from "./repositories.ts"

/** The working days of notice a creditor gives on a scheme: its identifier's, else the default. */
export const minimumAdvanceNotice = (creditor: Creditor, scheme: MandateScheme): number =>
  creditor.scheme_identifiers.find((s) => s.scheme === identifierSchemeOf(scheme) && s.status === "active")?.minimum_advance_notice ??
    DEFAULT_MINIMUM_ADVANCE_NOTICE

/**
 * `next_possible_charge_date` changes with time, so it is computed when a mandate is read: the
 * scheme's calendar, today and the creditor's notice (@paykit/schedule). Mandates that can no
 * longer be charged have none.
 */
export const withNextPossibleChargeDate = (mandate: Mandate, creditor: Creditor, day: LocalDate): Mandate => {
  const date = nextPossibleChargeDateOn(mandate, creditor, day)
  if (date === null) return { ...mandate, next_possible_charge_date: null, next_possible_standard_ach_charge_date: null }
  return {
    ...mandate,
    next_possible_charge_date: date,
    next_possible_standard_ach_charge_date: mandate.scheme === "ach" ? date : null
  }
}

/** The mandate's next possible charge date as it is on `day`: none while it cannot be charged. */
export const nextPossibleChargeDateOn = (mandate: Mandate, creditor: Creditor, day: LocalDate): LocalDate | null =>
  CHARGEABLE_MANDATE_STATUSES.includes(mandate.status)
    ? nextPossibleChargeDate({ scheme: mandate.scheme, today: day, minimumAdvanceNotice: minimumAdvanceNotice(creditor, mandate.scheme) })
    : null

/** The links of a mandate's events. */
export const mandateLinks = (m: Pick<Mandate, "id" | "links">) => ({ mandate: m.id, customer: m.links.customer, creditor: m.links.creditor })

/** The payer's approval, from the hosted page, the bank app or the sandbox payer. */
export const CUSTOMER_APPROVAL: Cause = { origin: "customer", cause: "customer_approval_granted", description: "The customer approved this mandate." }

/**
 * The machine's `reinstating` fact: the mandate came back to pending_submission by a
 * reinstatement, so its activation completes it (`reinstated`, not `active`). Read from its
 * history, and only for an activation, the one move whose rule depends on it.
 */
const isReinstating = (organisation: string, mandate: Mandate, event: MandateEvent) =>
  event !== "activate"
    ? Effect.succeed(false)
    : Effect.map(EventLog.use((log) => log.history(organisation, mandateMachine.name, mandate.id)), (history) =>
      history.findLast((entry) => entry.to === "pending_submission")?.event === "reinstate")

/** A mandate's status change through its machine; a bank's answer carries its reason code. */
export const moveMandate = (
  repository: MandateRepository["Service"],
  organisation: string,
  current: Versioned<Mandate>,
  event: MandateEvent,
  cause: Cause,
  extra?: { readonly reason_code?: string },
  eventMetadata?: Metadata,
  /** Links the move's event carries besides the mandate's own (a transfer's accounts). */
  moreLinks?: Readonly<Record<string, string>>
): Effect.Effect<Mandate, InvalidState | StorageError, EngineContext> =>
  Effect.flatMap(isReinstating(organisation, current.resource, event), (reinstating) => applyTransition(repository, {
    organisation,
    machine: mandateMachine,
    current,
    event,
    context: { reinstating },
    cause,
    links: moreLinks === undefined ? mandateLinks(current.resource) : { ...mandateLinks(current.resource), ...moreLinks },
    ...(extra === undefined ? {} : { extra: { ...extra, scheme: current.resource.scheme } }),
    ...(eventMetadata === undefined ? {} : { eventMetadata })
  }))
