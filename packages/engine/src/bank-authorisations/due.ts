import { Effect } from "effect"
import { sweepKind } from "../due-work/deadlines.ts"
import type { DueWorkDeclarations } from "../due-work/port.ts"
import { BANK_AUTHORISATION_EXPIRY, BankAuthorisations } from "./bank-authorisations.ts"

/** The payer flows' due work: a bank authorisation expires at its `expires_at` (15 minutes after creation). */
export const payerFlowDeadlines: Effect.Effect<DueWorkDeclarations, never, BankAuthorisations> = Effect.map(BankAuthorisations, (authorisations) => ({
  pumps: [],
  kinds: [sweepKind(BANK_AUTHORISATION_EXPIRY, authorisations.expireDue)]
}))
