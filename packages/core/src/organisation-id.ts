import { Effect, Schema } from "effect"
import { decodeInputEffect } from "./decode.ts"
import type { ValidationFailed } from "./errors.ts"
import { ID_PREFIXES, type IdGenerator, IdOf, isIdOfResource, newId } from "./ids.ts"
import { ID_BODY_LENGTH } from "./limits.ts"

/**
 * The id of an organisation (the tenant every operation of the engine is scoped to): `OR` and 12
 * Crockford base32 characters, as `newId("organisation")` makes them, branded so that a bare string
 * (`"OR1"`, a customer's id) is not taken for one where an operation expects an organisation.
 */
const OrganisationIdSchema = IdOf("organisation").pipe(Schema.brand("OrganisationId")).annotate({ identifier: "OrganisationId" })

export type OrganisationId = typeof OrganisationIdSchema.Type

const EXPECTED = `an organisation id is ${ID_PREFIXES.organisation} followed by ${ID_BODY_LENGTH} Crockford base32 characters (0-9, A-Z without I, L, O, U), as newId("organisation") makes`

const decodeOrganisationId = decodeInputEffect(OrganisationIdSchema, "organisation")

/**
 * `OrganisationId("OR…")`: the id checked and branded. A malformed one throws a `TypeError` naming
 * it: this is for ids written in code and configuration, where a wrong one is a programming error.
 * Data from outside goes through `OrganisationId.decode` (a typed `ValidationFailed`) or
 * `OrganisationId.schema` inside a Schema of one's own.
 */
export const OrganisationId: {
  (id: string): OrganisationId
  /** The Schema of organisation ids (its Type is `OrganisationId`). */
  readonly schema: typeof OrganisationIdSchema
  /** Decodes untrusted input; a malformed id fails with `ValidationFailed`. */
  readonly decode: (input: unknown) => Effect.Effect<OrganisationId, ValidationFailed>
  /** Whether `u` is a well-formed organisation id. */
  readonly is: (u: unknown) => u is OrganisationId
} = Object.assign(
  (id: string): OrganisationId => {
    if (!isOrganisationId(id)) throw new TypeError(`not an organisation id: ${JSON.stringify(id)} (${EXPECTED})`)
    return id
  },
  { schema: OrganisationIdSchema, decode: decodeOrganisationId, is: (u: unknown): u is OrganisationId => isOrganisationId(u) }
)

function isOrganisationId(u: unknown): u is OrganisationId {
  return typeof u === "string" && isIdOfResource("organisation", u)
}

/** A new organisation's id, from the id port (as `newId("organisation")`, branded). */
export const newOrganisationId: Effect.Effect<OrganisationId, never, IdGenerator> = Effect.map(newId("organisation"), OrganisationId)
