import { describe, expect, it } from "vitest"
import { isRunning } from "./child-server.ts"
import { runPaykit, stopPaykit } from "./cli-journey.ts"

/**
 * Stopping a command run through a wrapper (npx, tsx) stops what the wrapper started too. The
 * pack check stopped `npx ... paykit start` by signalling npx alone: npx's child kept serving with
 * the check's pipes open, and the check (and CI with it) never ended.
 */
describe("stopping a command run through a wrapper", () => {
  it("ends the wrapper's child as well, and releases the pipes", { timeout: 30_000 }, async () => {
    // A shell that stays as the parent of a node that prints its pid and runs until stopped.
    const node = JSON.stringify(process.execPath)
    const wrapped = runPaykit({ command: "sh", args: ["-c", `${node} -e 'console.log("pid " + process.pid); setInterval(() => {}, 1000)'; true`] }, [])
    const child = Number((await wrapped.waitFor(/pid (\d+)/))[1])
    expect(isRunning(child)).toBe(true)
    await stopPaykit(wrapped)
    expect(isRunning(child)).toBe(false)
    expect(wrapped.child.stdout?.destroyed).toBe(true)
  })
})
