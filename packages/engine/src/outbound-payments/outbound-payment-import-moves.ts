import { type Cause, type OutboundPaymentImportEvent, outboundPaymentImportMachine } from "@paykit/machines"
import type { Versioned } from "../kernel/ports/repository.ts"
import { applyTransition } from "../kernel/support.ts"
import type { OutboundPaymentImportEntryRepository, OutboundPaymentImportRepository } from "./repositories.ts"
import type { EntryCounts, OutboundPaymentImport } from "./domain/outbound-payment-imports.ts"
import { eq } from "../kernel/ports/list-query.ts"

export type ImportStore = OutboundPaymentImportRepository["Service"]
export type EntryStore = OutboundPaymentImportEntryRepository["Service"]

/** The counts of an import of `total` entries before any is checked. */
export const zeroCounts = (total: number): EntryCounts => ({
  total,
  valid: 0,
  invalid: 0,
  verified: 0,
  verified_with_full_match: 0,
  verified_with_partial_match: 0,
  verified_with_no_match: 0,
  verified_with_unable_to_match: 0,
  processed: 0,
  failed_to_process: 0
})

/** The links of an import's events. */
export const importLinksOf = (i: Pick<OutboundPaymentImport, "id" | "links">) => ({ outbound_payment_import: i.id, creditor: i.links.creditor })

/**
 * `current` takes `event` through the import machine, whose guards look at the entry counts:
 * `counts`, stored with the move when given, or the import's own.
 */
export const moveImport = (
  imports: ImportStore,
  organisation: string,
  current: Versioned<OutboundPaymentImport>,
  event: OutboundPaymentImportEvent,
  cause: Cause,
  counts?: EntryCounts
) =>
  applyTransition(imports, {
    organisation,
    machine: outboundPaymentImportMachine,
    current,
    event,
    context: { entry_counts: counts ?? current.resource.entry_counts },
    cause,
    links: importLinksOf(current.resource),
    ...(counts === undefined ? {} : { patch: (i: OutboundPaymentImport) => ({ ...i, entry_counts: counts }) })
  })

/** The entries of import `id`, oldest first. */
export const entriesOf = (entries: EntryStore, organisation: string, id: string) =>
  entries.scan(organisation, { outbound_payment_import: eq(id) })
