import { Effect } from "effect"
import type { DueWorkDeclaration } from "../due-work/jobs.ts"
import { Creditors } from "./creditors.ts"

/** The creditors' due work: reviews of creditors and their bank accounts complete (first of the daily run). */
export const creditorDueWork: DueWorkDeclaration<Creditors> = Effect.map(Creditors, (creditors: Creditors["Service"]) => [
  { name: "creditor reviews", order: 10, deadline: false, run: (o) => Effect.asVoid(creditors.completeReviews(o)) }
])
