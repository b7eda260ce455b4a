import type { Effect } from "effect"
import { expect } from "vitest"
import type { dailyIsolationScenario } from "@paykit/engine"

const DAY = 86_400_000

/** What `dailyIsolationScenario` must show on any storage adapter. */
export const expectIsolated = (r: Effect.Success<typeof dailyIsolationScenario>, expected: { readonly start: number; readonly message: string }) => {
  // While the failure lasts: the others are processed, the poisoned ones left as they were.
  expect(r.during.now).toBe(expected.start + 3 * DAY)
  expect(r.during.charged).toEqual({ poisoned: 0, healthy: 1, elsewhere: 1 })
  expect(r.during.status).toEqual({ stuck: "pending_submission", moving: "confirmed" })
  // Each failure is logged with its item's id, once per run that met it.
  const items = r.logged.filter((l) => l.message.includes(expected.message)).map((l) => l.annotations["item"])
  expect(new Set(items)).toEqual(new Set([r.ids.poisoned, r.ids.stuck]))
  // Once the failure stops, the next runs process them.
  expect(r.after.now).toBe(expected.start + 5 * DAY)
  expect(r.after.charged).toEqual({ poisoned: 1, healthy: 1, elsewhere: 1 })
  expect(r.after.status.stuck).toBe("submitted")
}
