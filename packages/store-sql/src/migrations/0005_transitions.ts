import { Effect } from "effect"
import { createResourceTable, makeAppendOnly } from "./resource-table.ts"

/**
 * The history of every machine resource (statesman's transition rows), in a table of its own in
 * the shape of `events`, found per resource by its `resource_id` filter. Like the event log it is
 * append-only.
 */
export default Effect.gen(function*() {
  yield* createResourceTable("transitions", { typed: false })
  yield* makeAppendOnly("transitions")
})
