import { Effect } from "effect"
import type { EntryTarget, ReportEntry } from "@paykit/bank-files"
import { ID_PREFIXES, isIdOf, type LocalDate, type Scheme } from "@paykit/core"
import { calendarFor } from "@paykit/schedule"
import { oneOf } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import type { Mandate } from "../mandates/domain/mandates.ts"
import type { MandateRepository } from "../mandates/repositories.ts"
import type { Payment } from "../payments/domain/payments.ts"
import type { PaymentRepository } from "../payments/repositories.ts"
import type { BankItemRepository } from "../bank-submissions/repositories.ts"
import type { Subject } from "./apply.ts"

/**
 * What a page of report entries names, found within the organisation and nowhere else: an entry
 * naming another organisation's payment finds nothing here and stays unmatched. A page costs a
 * few reads whatever its size: the payments and mandates named by id in one read each, those
 * named by mandate reference in one search each, the items handed to the bank in one read.
 */

export interface ResolveDeps {
  readonly payments: PaymentRepository["Service"]
  readonly mandates: MandateRepository["Service"]
  readonly items: BankItemRepository["Service"]
}

/** A subject found, or why none was. */
export type Resolution = Subject | { readonly unmatched: string }

const NOTHING = "names no payment or mandate of this organisation"

type ByReference = Extract<EntryTarget, { readonly by: "mandate_reference" }>

/** The days a report's original date may stand for: the collection's charge date, or the processing day before it (Bacs). */
const datesOf = (scheme: string, target: ByReference): ReadonlyArray<LocalDate> => {
  if (target.original_date === undefined) return []
  const date = target.original_date
  const calendar = calendarFor(scheme as Scheme)
  return [date, calendar.nextBusinessDay(date)]
}

const unique = <T>(values: Iterable<T>): Array<T> => [...new Set(values)]

/** Entries about a collection: they must find a payment; the others a mandate. */
const aboutCollection = (entry: ReportEntry): boolean => entry.kind === "collection_returned" || entry.kind === "collection_charged_back"

export const resolvePage = (deps: ResolveDeps, organisation: string, entries: ReadonlyArray<ReportEntry>) =>
  Effect.gen(function*() {
    const ids = entries.flatMap((e) => e.target.by === "end_to_end" ? [e.target.id] : [])
    const references = unique(entries.flatMap((e) => e.target.by === "mandate_reference" ? [e.target.reference] : []))
    const byReference = new Map<string, Array<Versioned<Mandate>>>()
    if (references.length > 0) {
      for (const m of yield* deps.mandates.scan(organisation, { reference: oneOf(references) })) {
        const reference = m.resource.reference
        if (reference !== null) byReference.set(reference, [...(byReference.get(reference) ?? []), m])
      }
    }
    const payments = new Map((yield* deps.payments.getMany(organisation, unique(ids.filter((id) => isIdOf(ID_PREFIXES.payment, id))))).map((p) => [p.resource.id, p]))
    // Collections named by their mandate's reference, amount and date (Bacs): the mandates' payments on those days.
    const dated = entries.flatMap((e) => e.target.by === "mandate_reference" && aboutCollection(e) ? [{ entry: e, target: e.target }] : [])
    const mandatesOfDated = unique(dated.flatMap(({ target }) => (byReference.get(target.reference) ?? []).map((m) => m.resource.id)))
    const days = unique(dated.flatMap(({ entry, target }) => datesOf(entry.scheme, target)))
    if (mandatesOfDated.length > 0) {
      const filters = days.length > 0 && dated.every(({ target }) => target.original_date !== undefined)
        ? { mandate: oneOf(mandatesOfDated), charge_date: oneOf(days) }
        : { mandate: oneOf(mandatesOfDated), status: oneOf(["submitted", "confirmed", "paid_out"]) }
      for (const p of yield* deps.payments.scan(organisation, filters)) payments.set(p.resource.id, p)
    }
    const mandateIds = unique([
      ...ids.filter((id) => isIdOf(ID_PREFIXES.mandate, id)),
      ...[...payments.values()].flatMap((p) => p.resource.links.mandate === undefined ? [] : [p.resource.links.mandate])
    ])
    const mandates = new Map((yield* deps.mandates.getMany(organisation, mandateIds)).map((m) => [m.resource.id, m]))
    for (const found of byReference.values()) for (const m of found) mandates.set(m.resource.id, m)
    const items = new Map((yield* deps.items.getMany(organisation, unique([...payments.keys(), ...mandates.keys()]))).map((i) => [i.resource.id, i.resource]))

    const ofPayment = (p: Versioned<Payment> | undefined): Resolution => {
      const mandate = p?.resource.links.mandate === undefined ? undefined : mandates.get(p.resource.links.mandate)
      if (p === undefined || mandate === undefined) return { unmatched: p === undefined ? NOTHING : "names a payment that is not a direct debit" }
      const item = items.get(p.resource.id)
      return item === undefined ? { payment: p, mandate } : { payment: p, mandate, item }
    }
    const ofMandate = (m: Versioned<Mandate> | undefined): Resolution => {
      if (m === undefined) return { unmatched: NOTHING }
      const item = items.get(m.resource.id)
      return item === undefined ? { mandate: m } : { mandate: m, item }
    }
    return entries.map((entry): Resolution => {
      const target = entry.target
      switch (target.by) {
        case "end_to_end": {
          const payment = payments.get(target.id)
          return payment !== undefined ? ofPayment(payment) : ofMandate(mandates.get(target.id))
        }
        case "mandate_reference": {
          const found = byReference.get(target.reference) ?? []
          if (found.length > 1) return { unmatched: `its mandate reference ${target.reference} names ${found.length} mandates of this organisation` }
          const mandate = found[0]
          if (!aboutCollection(entry) || mandate === undefined) return ofMandate(mandate)
          const dates = datesOf(entry.scheme, target)
          const candidates = [...payments.values()]
            .filter((p) => p.resource.links.mandate === mandate.resource.id)
            .filter((p) => target.amount === undefined || (items.get(p.resource.id)?.amount ?? p.resource.amount) === target.amount)
            .filter((p) => dates.length === 0 || (p.resource.charge_date !== null && dates.includes(p.resource.charge_date)))
            .sort((a, b) => (a.resource.id < b.resource.id ? 1 : -1))
          return candidates[0] === undefined ? { unmatched: `names no collection of mandate ${mandate.resource.id} of that amount and date` } : ofPayment(candidates[0])
        }
        case "submission":
          // Applied item by item (`whole-submission.ts`), never resolved here.
          return { unmatched: "names a whole submission" }
      }
    })
  })
