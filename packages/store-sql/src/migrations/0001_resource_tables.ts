import { Effect } from "effect"
import { createResourceTable, makeAppendOnly } from "./resource-table.ts"

/**
 * Every resource of the engine in one `resources` table keyed by type, so that a resource the
 * engine adds needs no migration; and the event log in `events`, which is append-only: the
 * database itself refuses to change or delete an event.
 */
export default Effect.gen(function*() {
  yield* createResourceTable("resources", { typed: true })
  yield* createResourceTable("events", { typed: false })
  yield* makeAppendOnly("events")
})
