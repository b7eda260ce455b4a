import { Schema } from "effect"
import { ID_PREFIXES, IdOf, SCHEME_IDENTIFIER_SCHEMES } from "@paykit/core"
import { Name } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id } from "../../kernel/fields.ts"
import { idFilter, listFields } from "../../kernel/list-params.ts"

/** The API's key of scheme identifiers: their path, and the root of their requests' field errors. */
export const SCHEME_IDENTIFIERS = "scheme_identifiers"

/**
 * Where a scheme identifier is kept: the identifier itself lives in its creditor's
 * `scheme_identifiers` (as the real API shows it), and this record (engine-internal, no fact of
 * its own) names that creditor, so `GET /scheme_identifiers/{id}` and the list filtered by
 * creditor are served by the primary key and the `creditor` filter index.
 */
export const SchemeIdentifierLocation = Schema.Struct({ id: Id, created_at: CreatedAt, creditor: Schema.String })
export type SchemeIdentifierLocation = typeof SchemeIdentifierLocation.Type

export const schemeIdentifierLocations = defineResource({
  name: "scheme_identifier_locations",
  idPrefix: ID_PREFIXES.scheme_identifier,
  schema: SchemeIdentifierLocation,
  filters: {
    created_at: (r: SchemeIdentifierLocation) => r.created_at,
    creditor: (r: SchemeIdentifierLocation) => r.creditor
  }
})

/** `POST /scheme_identifiers` (the client's `SchemeIdentifierCreateRequest`). */
export const SchemeIdentifierCreateRequest = Schema.Struct({
  name: Name,
  scheme: Schema.Literals(SCHEME_IDENTIFIER_SCHEMES),
  links: Schema.optionalKey(Schema.Struct({ creditor: Schema.optionalKey(IdOf("creditor")) }))
})
export type SchemeIdentifierCreateCommand = typeof SchemeIdentifierCreateRequest.Type

/** `GET /scheme_identifiers` parameters. */
export const SchemeIdentifierListParams = Schema.Struct({ ...listFields("scheme_identifier"), creditor: idFilter("creditor") })
export type SchemeIdentifierListParams = typeof SchemeIdentifierListParams.Type
