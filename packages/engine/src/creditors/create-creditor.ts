import { Effect } from "effect"
import { newId, now, type SchemeIdentifierScheme } from "@paykit/core"
import { creditorVerificationMachine, type SchemeIdentifierEvent, schemeIdentifierMachine, type SchemeIdentifierStatus } from "@paykit/machines"
import type { Versioned } from "../kernel/ports/repository.ts"
import { addressLinesOf } from "../kernel/address-request.ts"
import { API_CAUSE, applyCreation, createEmbedded } from "../kernel/support.ts"
import { type Creditor, NO_PAYOUT_ACCOUNTS, SchemeIdentifier } from "./domain/creditors.ts"
import type { CreditorCreateCommand } from "./domain/requests.ts"
import type { CreditorStores } from "./repositories.ts"
import { type SchemeIdentifierTemplate, schemeIdentifierTemplateOf, schemeIdentifierTemplates } from "./scheme-identifiers.ts"
import { locateSchemeIdentifiers } from "./scheme-identifier-records.ts"

/** A prefix from the trading name: its letters and digits, upper-cased, at most 10. */
const prefixOf = (name: string): string => {
  const letters = name.toUpperCase().replace(/[^A-Z0-9]/g, "").slice(0, 10)
  return letters.length > 0 ? letters : "PAYKIT"
}

type Address = Pick<Creditor, "address_line1" | "address_line2" | "address_line3" | "city" | "region" | "postal_code" | "country_code">

/**
 * The scheme identifiers of a new creditor of `country_code`, active as their machine creates them
 * (the engine is their scheme operator); each carries the creditor's name and address.
 */
const schemeIdentifiersOf = (
  organisation: string,
  creditor: Pick<Creditor, "id" | "name" | "created_at">,
  address: Address & { readonly country_code: CreditorCreateCommand["country_code"] },
  more: ReadonlyArray<SchemeIdentifierScheme>
) =>
  Effect.forEach(templatesWith(schemeIdentifierTemplates(address.country_code), more), (t) =>
    Effect.flatMap(newId("scheme_identifier"), (id) =>
      createEmbedded<SchemeIdentifier, SchemeIdentifierStatus, SchemeIdentifierEvent, Record<never, never>>({
        organisation,
        machine: schemeIdentifierMachine,
        state: "active",
        resource: {
          id,
          created_at: creditor.created_at,
          name: creditor.name,
          scheme: t.scheme,
          reference: null,
          minimum_advance_notice: t.minimum_advance_notice,
          ...address,
          email: null,
          phone_number: null,
          currency: t.currency,
          can_specify_mandate_reference: false
        },
        cause: API_CAUSE("creditor_created"),
        links: { creditor: creditor.id }
      }, SchemeIdentifier)))

/** The country's templates, then those of the `more` schemes the country has none for. */
const templatesWith = (country: ReadonlyArray<SchemeIdentifierTemplate>, more: ReadonlyArray<SchemeIdentifierScheme>): ReadonlyArray<SchemeIdentifierTemplate> => [
  ...country,
  ...more.flatMap((scheme) => {
    const template = country.some((t) => t.scheme === scheme) ? undefined : schemeIdentifierTemplateOf(scheme)
    return template === undefined ? [] : [template]
  })
]

/** What a creditor is made with beyond its request (the engine's callers only: the sandbox's creditor). */
export interface CreditorCreateOptions {
  /** Schemes to give an active identifier beyond its country's (the sandbox creditor collects on every direct-debit scheme). */
  readonly schemes?: ReadonlyArray<SchemeIdentifierScheme>
}

/**
 * `POST /creditors`: the creditor as its verification machine creates it (action required,
 * `created`), with its scheme identifiers and a bank reference prefix from its name unless given.
 */
export const createCreditor = (stores: CreditorStores, organisation: string, command: CreditorCreateCommand, options: CreditorCreateOptions = {}) =>
  Effect.gen(function*() {
    const id = yield* newId("creditor")
    const created_at = yield* now
    const address = { ...addressLinesOf(command), country_code: command.country_code }
    const creditor: Omit<Creditor, "verification_status"> = {
      id,
      created_at,
      name: command.name,
      ...address,
      creditor_type: command.creditor_type,
      bank_reference_prefix: command.bank_reference_prefix ?? prefixOf(command.name),
      can_create_refunds: true,
      logo_url: null,
      fx_payout_currency: command.fx_payout_currency ?? null,
      mandate_imports_enabled: false,
      custom_payment_pages_enabled: false,
      merchant_responsible_for_notifications: false,
      links: NO_PAYOUT_ACCOUNTS,
      // "active" is one of the machine's initial states: a refusal would be a defect of the table.
      scheme_identifiers: yield* Effect.orDie(schemeIdentifiersOf(organisation, { id, name: command.name, created_at }, address, options.schemes ?? []))
    }
    // "action_required" is the machine's initial state: a refusal would be a defect of the table.
    const stored: Versioned<Creditor> = yield* applyCreation(stores.creditors, {
      organisation,
      machine: creditorVerificationMachine,
      state: "action_required",
      resource: creditor,
      cause: API_CAUSE("creditor_created"),
      links: { creditor: id }
    }).pipe(Effect.orDie)
    yield* locateSchemeIdentifiers(stores.schemeIdentifiers, organisation, stored.resource, stored.resource.scheme_identifiers)
    return stored.resource
  })
