import { Effect } from "effect"
import type { DueWorkDeclaration } from "../due-work/jobs.ts"
import { BankAuthorisations } from "./bank-authorisations.ts"

/** The payer flows' due work, last of the daily run: a deadline, bank authorisations past their `expires_at` expire. */
export const payerFlowDueWork: DueWorkDeclaration<BankAuthorisations> = Effect.map(BankAuthorisations, (authorisations: BankAuthorisations["Service"]) => [
  { name: "bank authorisation expiry", order: 90, deadline: true, run: (o) => Effect.asVoid(authorisations.expireDue(o)) }
])
