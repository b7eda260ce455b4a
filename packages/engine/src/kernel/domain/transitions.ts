import { Schema } from "effect"
import { HistoryEntryRecord } from "@paykit/machines"
import { defineResource } from "../definition.ts"
import { CreatedAt, Id, NullableString } from "../fields.ts"

/**
 * The stored history entry of one creation or status change (statesman's transition row): what
 * the machine's table accepted, for which resource, in which order, and the API event derived
 * from it, if the table names one. Written in the unit of work of the change it records, never
 * changed afterwards.
 */
export const Transition = Schema.Struct({
  id: Id,
  /** The instant of the move (the entry's `at`), as every stored record has one. */
  created_at: CreatedAt,
  resource_id: Id,
  /**
   * The order of the resource's entries: ten times the version the move's write gave the resource,
   * plus the entry's step within that write (a creation that moves on at once writes once, with
   * two entries). Spaced by ten as statesman's keys are.
   */
  sort_key: Schema.Int,
  ...HistoryEntryRecord.fields,
  /** The id of the API event derived from this entry; null where the table emits none. */
  event_id: NullableString
}).annotate({ identifier: "Transition" })
export type Transition = typeof Transition.Type

/** Entries of one write: the steps between two versions' keys. */
export const STEPS_PER_WRITE = 10

/** The sort key of step `step` (from 0) of the write that gave the resource `version`. */
export const sortKeyOf = (version: number, step: number): number => version * STEPS_PER_WRITE + step

/**
 * A history row's id: its instant first, so the rows of a store are in time order (and appended,
 * not inserted, in an ordered table), then the resource and the sort key, which make it unique.
 * Not an API id: history rows are the engine's record, not a resource of the API.
 */
export const transitionIdOf = (at: string, resourceId: string, sortKey: number): string =>
  `${at}/${resourceId}/${String(sortKey).padStart(12, "0")}`

export const transitions = defineResource({
  name: "transitions",
  idPrefix: null,
  schema: Transition,
  filters: {
    created_at: (t: Transition) => t.created_at,
    resource_type: (t: Transition) => t.resource_type,
    resource_id: (t: Transition) => t.resource_id
  }
})
