import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, type IdGenerator, newId, NotFound, now, type OperationError, type OrganisationId, type StorageError, type ValidationFailed } from "@paykit/core"
import { type SchemeIdentifierEvent, schemeIdentifierMachine, type SchemeIdentifierStatus } from "@paykit/machines"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import type { EventLog } from "../kernel/ports/event-log.ts"
import type { Transactor } from "../kernel/ports/repository.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { API_CAUSE, captureUnitOfWork, createEmbedded, save } from "../kernel/support.ts"
import { resolveCreditor } from "./creditor-link.ts"
import { CreditorRepository, SchemeIdentifierLocationRepository } from "./repositories.ts"
import { type Creditor, SchemeIdentifier } from "./domain/creditors.ts"
import {
  SCHEME_IDENTIFIERS,
  type SchemeIdentifierCreateCommand,
  SchemeIdentifierCreateRequest,
  SchemeIdentifierListParams
} from "./domain/scheme-identifiers.ts"
import { schemeIdentifierTemplateOf } from "./scheme-identifiers.ts"

const decodeCreate = decodeAtBoundary(SchemeIdentifierCreateRequest, SCHEME_IDENTIFIERS)
const decodeList = decodeAtBoundary(SchemeIdentifierListParams, SCHEME_IDENTIFIERS)

type Locations = SchemeIdentifierLocationRepository["Service"]
type Creditors = CreditorRepository["Service"]

/** Records where a creditor's identifiers are kept (a new creditor's, and each one created later). */
export const locateSchemeIdentifiers = (locations: Locations, organisation: string, creditor: Creditor, identifiers: ReadonlyArray<SchemeIdentifier>) =>
  Effect.forEach(identifiers, (s) => Effect.orDie(locations.insert(organisation, { id: s.id, created_at: s.created_at, creditor: creditor.id })), { discard: true })

/**
 * `POST /scheme_identifiers`: a new identifier of the creditor (the named one, or the
 * organisation's only one) under the creditor's own name for the payer's statements. It is
 * `pending` as its machine creates it, as the real API's is until the scheme operator registers it;
 * only active identifiers are applied (`schemeRefusal`), and paykit has no registration step yet,
 * so it stays pending.
 */
const createSchemeIdentifier = (creditors: Creditors, locations: Locations, organisation: string, command: SchemeIdentifierCreateCommand) =>
  Effect.gen(function*() {
    const creditor = yield* resolveCreditor(creditors, organisation, SCHEME_IDENTIFIERS, command.links?.creditor)
    const template = schemeIdentifierTemplateOf(command.scheme)
    if (template === undefined) return yield* Effect.die(`no template for the scheme ${command.scheme}`)
    const c = creditor.resource
    const identifier = yield* createEmbedded<SchemeIdentifier, SchemeIdentifierStatus, SchemeIdentifierEvent, Record<never, never>>({
      organisation,
      machine: schemeIdentifierMachine,
      state: "pending",
      resource: {
        id: yield* newId("scheme_identifier"),
        created_at: yield* now,
        name: command.name,
        scheme: command.scheme,
        reference: null,
        minimum_advance_notice: template.minimum_advance_notice,
        address_line1: c.address_line1, address_line2: c.address_line2, address_line3: c.address_line3,
        city: c.city, region: c.region, postal_code: c.postal_code, country_code: c.country_code,
        email: null,
        phone_number: null,
        currency: template.currency,
        can_specify_mandate_reference: false
      },
      cause: API_CAUSE("scheme_identifier_created"),
      links: { creditor: c.id }
    }, SchemeIdentifier)
    yield* save(creditors, organisation, creditor, { ...c, scheme_identifiers: [...c.scheme_identifiers, identifier] })
    yield* locateSchemeIdentifiers(locations, organisation, c, [identifier])
    return identifier
  })

/** The identifier a location names, read from its creditor. */
const identifierAt = (creditors: Creditors, organisation: string, location: { readonly id: string; readonly creditor: string }) =>
  Effect.flatMap(Effect.orDie(creditors.get(organisation, location.creditor)), ({ resource }) => {
    const found = resource.scheme_identifiers.find((s) => s.id === location.id)
    return found === undefined ? Effect.fail(new NotFound({ resource: SCHEME_IDENTIFIERS, id: location.id })) : Effect.succeed(found)
  })

export class SchemeIdentifiers extends Context.Service<SchemeIdentifiers, {
  readonly create: (organisation: OrganisationId, command: typeof SchemeIdentifierCreateRequest.Encoded) => Effect.Effect<SchemeIdentifier, OperationError>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<SchemeIdentifier, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof SchemeIdentifierListParams.Encoded) => Effect.Effect<Page<SchemeIdentifier>, ValidationFailed | NotFound | StorageError>
}>()("@paykit/engine/SchemeIdentifiers") {
  static readonly layer: Layer.Layer<SchemeIdentifiers, never, CreditorRepository | SchemeIdentifierLocationRepository | IdGenerator | EventLog | Transactor> =
    Layer.effect(
      SchemeIdentifiers,
      Effect.gen(function*() {
        const creditors = yield* CreditorRepository
        const locations = yield* SchemeIdentifierLocationRepository
        const run = yield* captureUnitOfWork
        return SchemeIdentifiers.of({
          create: (o, command) => Effect.flatMap(decodeCreate(command), (c) => run(createSchemeIdentifier(creditors, locations, o, c))),
          get: (o, id) => Effect.flatMap(locations.get(o, id), ({ resource }) => identifierAt(creditors, o, resource)),
          list: (o, plain) =>
            Effect.flatMap(decodeList(plain), (params) =>
              Effect.flatMap(locations.list(o, toListQuery(params, { creditor: params.creditor === undefined ? undefined : eq(params.creditor) })), (page) =>
                Effect.map(Effect.forEach(page.items, (location) => identifierAt(creditors, o, location)), (items) => ({ ...page, items }))))
        })
      })
    )
}
