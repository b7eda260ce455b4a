import { Effect } from "effect"
import { invalidField, type ValidationFailed, type StorageError } from "@paykit/core"
import type { Versioned } from "../kernel/ports/repository.ts"
import type { RepositoryOf } from "../kernel/repository-service.ts"
import type { Creditor, creditors as creditorDefinition } from "./domain/creditors.ts"

type Creditors = RepositoryOf<typeof creditorDefinition>

const LINK: ReadonlyArray<string> = ["links", "creditor"]

/** The creditor a request's `links.creditor` names; another organisation's id is as unknown as a made-up one. */
export const linkedCreditor = (
  creditors: Creditors,
  organisation: string,
  root: string,
  id: string
): Effect.Effect<Versioned<Creditor>, ValidationFailed | StorageError> =>
  Effect.mapError(creditors.get(organisation, id), () => invalidField(root, LINK, "must be a creditor of this organisation"))

/**
 * The creditor named by an optional `links.creditor`, or else the organisation's only creditor
 * (the real API lets an organisation with one creditor leave the link out). Whether there is
 * exactly one is a page of two, read from the key on any store, never every creditor.
 */
export const resolveCreditor = (
  creditors: Creditors,
  organisation: string,
  root: string,
  given: string | undefined
): Effect.Effect<Versioned<Creditor>, ValidationFailed | StorageError> =>
  given !== undefined
    ? linkedCreditor(creditors, organisation, root, given)
    : Effect.flatMap(creditors.list(organisation, { limit: 2 }), (page) => {
      const only = page.items[0]
      return page.items.length === 1 && only !== undefined
        ? linkedCreditor(creditors, organisation, root, only.id)
        : Effect.fail(invalidField(root, LINK, "is required unless the organisation has exactly one creditor"))
    })
