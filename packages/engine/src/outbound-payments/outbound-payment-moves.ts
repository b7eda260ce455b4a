import { Effect } from "effect"
import { type LocalDate, today } from "@paykit/core"
import { type Cause, type OutboundPaymentEvent, outboundPaymentMachine } from "@paykit/machines"
import type { Versioned } from "../kernel/ports/repository.ts"
import type { RepositoryOf } from "../kernel/repository-service.ts"
import { applyTransition } from "../kernel/support.ts"
import type { OutboundPayment, outboundPayments } from "./domain/outbound-payments.ts"

/** Faster Payments run on UK days: `execution_date` is checked against today in London. */
export const OUTBOUND_PAYMENT_TIME_ZONE = "Europe/London"

/** The one scheme outbound payments use, named in their events. */
export const OUTBOUND_SCHEME = "faster_payments"

/** Outbound payment statuses in which the amount is reserved in the payment account. */
export const RESERVED_OUTBOUND_STATUSES: ReadonlyArray<OutboundPayment["status"]> = ["scheduled", "executing"]

export type OutboundPaymentStore = RepositoryOf<typeof outboundPayments>

/** The links of an outbound payment's events. */
export const outboundLinksOf = (p: Pick<OutboundPayment, "id" | "links">): Record<string, string> => ({
  outbound_payment: p.id,
  creditor: p.links.creditor,
  ...(p.links.customer === undefined ? {} : { customer: p.links.customer }),
  ...(p.links.outbound_payment_import === undefined ? {} : { outbound_payment_import: p.links.outbound_payment_import })
})

export interface MoveOptions {
  /** Other fields that change with the status. */
  readonly patch?: (p: OutboundPayment) => OutboundPayment
  readonly reason_code?: string
  /** The day the machine's date guards are judged on; today in London when not given. */
  readonly today?: LocalDate
}

/** `current` takes `event` through the outbound payment machine, in the caller's unit of work. */
export const movePayment = Effect.fnUntraced(function*(
  payments: OutboundPaymentStore,
  organisation: string,
  current: Versioned<OutboundPayment>,
  event: OutboundPaymentEvent,
  cause: Cause,
  options: MoveOptions = {}
) {
  const day = options.today ?? (yield* today(OUTBOUND_PAYMENT_TIME_ZONE))
  return yield* applyTransition(payments, {
    organisation,
    machine: outboundPaymentMachine,
    current,
    event,
    context: { execution_date: current.resource.execution_date, today: day },
    cause,
    links: outboundLinksOf(current.resource),
    ...(options.patch === undefined ? {} : { patch: options.patch }),
    extra: { scheme: OUTBOUND_SCHEME, ...(options.reason_code === undefined ? {} : { reason_code: options.reason_code }) }
  })
})
