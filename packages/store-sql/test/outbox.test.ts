import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { type Event, EventLog } from "@paykit/engine"
import { topologyOf } from "../src/citus.ts"
import { Outbox, WAITING_CANDIDATES, webhookOutboxOf } from "../src/outbox.ts"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES_AND_CITUS as DATABASES } from "./support/databases.ts"

/**
 * The webhook outbox port picks the organisation whose queued event is oldest. A queued row whose
 * event is gone (the outbox has no foreign key since migration 0061) must not be that pick: the
 * drain joins the events and would find nothing, every time, and no other organisation's event
 * would ever be taken.
 */

const ORPHANED = "OR0000000000XA"
const WAITING = "OR0000000000XB"

const event: Event = {
  id: "EV0000000000B1", created_at: "2026-11-23T09:00:00.000Z" as Event["created_at"], resource_type: "mandates", action: "created",
  links: { mandate: "MD0000000000B1" },
  details: { origin: "api", cause: "mandate_created", description: "Mandate created via the API." },
  metadata: {}, resource_metadata: {}
}

describe.each(DATABASES)("outbox on $name", (database) => {
  it.each([1, WAITING_CANDIDATES + 1])("%i queued rows without their event do not starve another organisation's events", { timeout: 60_000 }, async (orphans) => {
    const storage = SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
    const taken = await Effect.runPromise(Effect.scoped(Effect.provide(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Oldest in the queue: rows whose event does not exist (on Citus, more than a pick's candidates).
      for (let i = 0; i < orphans; i++) yield* sql`INSERT INTO outbox (organisation_id, event_id) VALUES (${ORPHANED}, ${`EV00000000A${i}`})`
      yield* (yield* EventLog).append(WAITING, [event])
      const port = webhookOutboxOf(yield* Outbox, sql, yield* topologyOf)
      const seen: Array<string> = []
      const handle = (batch: ReadonlyArray<{ readonly organisation: string; readonly event: Event }>) =>
        Effect.sync(() => seen.push(...batch.map((entry) => `${entry.organisation}/${entry.event.id}`)))
      yield* port.take(undefined, 10, handle)
      return seen
    }), Layer.merge(storage, EventLog.layerFromBackend.pipe(Layer.provide(storage))))))
    expect(taken).toEqual([`${WAITING}/${event.id}`])
  })

  it("an append's events are queued by one insert for the statement, in the order appended", { timeout: 60_000 }, async () => {
    const storage = SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
    const appended = [5, 3, 9, 1, 7].map((n) => ({ ...event, id: `EV0000000000C${n}` }))
    const { queued, trigger } = await Effect.runPromise(Effect.scoped(Effect.provide(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* (yield* EventLog).append(WAITING, appended)
      const queued = yield* sql<{ readonly event_id: string }>`SELECT event_id FROM outbox WHERE organisation_id = ${WAITING} ORDER BY seq`
      // tgtype's first bit is FOR EACH ROW; tgnewtable names the rows the statement inserted.
      const trigger = yield* sql<{ readonly row: boolean; readonly rows: string | null }>`SELECT (tgtype & 1) = 1 AS row, tgnewtable AS rows
        FROM pg_trigger WHERE tgrelid = 'events'::regclass AND tgname = 'events_outbox'`
      return { queued: queued.map((row) => row.event_id), trigger }
    }), Layer.merge(storage, EventLog.layerFromBackend.pipe(Layer.provide(storage))))))
    expect(queued).toEqual(appended.map((e) => e.id))
    expect(trigger).toEqual([{ row: false, rows: "appended" }])
  })
})
