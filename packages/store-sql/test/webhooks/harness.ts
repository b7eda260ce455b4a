import { Clock, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { IdGenerator } from "@paykit/core"
import {
  ClockControl, type DueRequest, DueWorkSchedule, engineOn, SANDBOX_SENDER_POLICY, SandboxBank, WebhookDeliveries,
  WebhookSecretKey, WebhookSender
} from "@paykit/engine"
import type { SqlClient } from "effect/sql"
import { WebhookOutboxSql } from "../../src/outbox.ts"
import { SqlStorage } from "../../src/sql-storage.ts"

/**
 * Due rows as a test keeps them until the worker (issue 16, part A) is on this branch: what
 * `DueWorkSchedule.schedule` asked for, one row per key at the earlier instant, as the port says.
 */
export const recordingSchedule = () => {
  const rows = new Map<string, DueRequest>()
  const keyOf = (r: { readonly organisation: string; readonly kind: string; readonly key: string }) => `${r.organisation}/${r.kind}/${r.key}`
  const layer = Layer.succeed(DueWorkSchedule, DueWorkSchedule.of({
    schedule: (request) => Effect.sync(() => {
      const known = rows.get(keyOf(request))
      rows.set(keyOf(request), known === undefined || request.dueAt < known.dueAt ? request : known)
    })
  }))
  return { rows, layer, keyOf }
}

/** A short timeout, so that a slow receiver is seen to fail in a test. */
export const TEST_TIMEOUT_MS = 400

/** The sandbox engine on `database` with the webhook delivery side, the outbox pump and a recording schedule. */
export const webhookEngine = (database: Layer.Layer<SqlClient.SqlClient, unknown>, schedule: Layer.Layer<DueWorkSchedule>) => {
  const storage = SqlStorage.pipe(Layer.provideMerge(database), Layer.orDie)
  const externals = Layer.mergeAll(
    SandboxBank, IdGenerator.layerSeeded(11), ClockControl.testClock, WebhookSecretKey.ephemeral,
    WebhookSender.node({ ...SANDBOX_SENDER_POLICY, timeoutMs: TEST_TIMEOUT_MS })
  )
  const engine = engineOn(storage).pipe(Layer.provideMerge(externals))
  return Layer.mergeAll(
    // One storage layer, built once (layers are shared by reference): the engine's ports and the outbox on one database.
    WebhookDeliveries.layer.pipe(
      Layer.provideMerge(WebhookOutboxSql.pipe(Layer.provide(storage))),
      Layer.provideMerge(schedule),
      Layer.provideMerge(engine)
    ),
    TestClock.layer()
  )
}

/**
 * What the worker does, for the test: pump the outbox, then run every row due by now, a row
 * answering `RetryAt` staying with its new instant. Answers how many attempts it made.
 */
export const runDue = (rows: Map<string, DueRequest>) =>
  Effect.gen(function*() {
    const deliveries = yield* WebhookDeliveries
    yield* deliveries.pump(undefined)
    const at = yield* Clock.currentTimeMillis
    let attempts = 0
    for (const [key, row] of [...rows.entries()].filter(([, r]) => r.dueAt <= at)) {
      attempts++
      const outcome = yield* deliveries.deliver({ ...row, attempt: 0 })
      if (outcome._tag === "Done") rows.delete(key)
      else rows.set(key, { ...row, dueAt: outcome.at })
    }
    return attempts
  })

/** The instant the next row falls due, if any. */
export const nextDue = (rows: Map<string, DueRequest>): number | undefined =>
  rows.size === 0 ? undefined : Math.min(...[...rows.values()].map((r) => r.dueAt))
