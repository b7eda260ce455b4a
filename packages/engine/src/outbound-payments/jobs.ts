import { Effect } from "effect"
import { now, today } from "@paykit/core"
import type { DueWorkDeclaration } from "../due-work/jobs.ts"
import { OutboundPaymentImports } from "./outbound-payment-imports.ts"
import { OutboundPayments } from "./outbound-payments.ts"

/**
 * The outbound due work, after the payouts: imports finish validating; payments due today are
 * executed; and, as deadlines, imports left unauthorised too long expire, then payments not
 * approved in time.
 */
export const outboundDueWork: DueWorkDeclaration<OutboundPayments | OutboundPaymentImports> = Effect.gen(function*() {
  const outbound = yield* OutboundPayments
  const imports = yield* OutboundPaymentImports
  return [
    { name: "import validation", order: 60, deadline: false, run: (o) => Effect.asVoid(imports.validatePending(o)) },
    { name: "outbound execution", order: 70, deadline: false, run: (o) => Effect.asVoid(Effect.flatMap(today(), (day) => outbound.executeDue(o, day))) },
    { name: "import expiry", order: 80, deadline: true, run: (o) => Effect.asVoid(Effect.flatMap(now, (at) => imports.expireUnauthorised(o, at))) },
    { name: "outbound approval expiry", order: 81, deadline: true, run: (o) => Effect.asVoid(Effect.flatMap(now, (at) => outbound.expireUnapproved(o, at))) }
  ]
})
