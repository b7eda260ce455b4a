import { Effect, Exit } from "effect"
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { afterAll, describe, expect, it } from "vitest"
import { acquireDataDirLock, lockFileOf, releaseDataDirLock } from "../src/index.ts"
import { freePort, startChild, stopChild } from "./child-server.ts"
import { tempDataDir } from "./harness.ts"

/** One process per PGlite data directory: real servers as `npm start` runs them, and the lock itself. */

/** A pid that ran and has ended: a process that exits at once. */
const deadPid = (): number => {
  const pid = spawnSync(process.execPath, ["-e", ""]).pid
  if (pid === undefined) throw new Error("could not run a process")
  return pid
}

describe("one server per PGlite data directory", () => {
  const data = tempDataDir()
  afterAll(() => data.remove())

  it("a second server on a directory in use refuses to start, naming the directory and the running process; a stop frees it", { timeout: 90_000 }, async () => {
    const first = startChild({ dataDir: data.dir }, await freePort())
    const url = await first.listening
    const pid = first.child.pid
    expect(readFileSync(lockFileOf(data.dir), "utf8").trim()).toBe(String(pid))

    const second = startChild({ dataDir: data.dir }, await freePort())
    const ended = await second.exited
    expect(ended.code).not.toBe(0)
    expect(second.output()).toContain(`The PGlite data directory ${data.dir} is in use by process ${pid}`)
    expect(second.output()).not.toContain("\"msg\":\"listening\"")
    // The first is undisturbed, and keeps the lock.
    expect((await fetch(`${url}/`)).status).toBe(200)
    expect(readFileSync(lockFileOf(data.dir), "utf8").trim()).toBe(String(pid))

    // It ends by itself (runMain's exit after an interruption), its finalizers run.
    expect((await stopChild(first, "SIGTERM")).signal).toBe(null)
    expect(existsSync(lockFileOf(data.dir))).toBe(false)
    const third = startChild({ dataDir: data.dir }, await freePort())
    await third.listening
    expect((await stopChild(third, "SIGINT")).signal).toBe(null)
    expect(existsSync(lockFileOf(data.dir))).toBe(false)
  })

  it("a lock left by a killed server is taken over", { timeout: 90_000 }, async () => {
    const killed = startChild({ dataDir: data.dir }, await freePort())
    await killed.listening
    await stopChild(killed, "SIGKILL")
    expect(readFileSync(lockFileOf(data.dir), "utf8").trim()).toBe(String(killed.child.pid))
    const next = startChild({ dataDir: data.dir }, await freePort())
    await next.listening
    expect(readFileSync(lockFileOf(data.dir), "utf8").trim()).toBe(String(next.child.pid))
    await stopChild(next)
  })
})

describe("the data directory lock", () => {
  const data = tempDataDir()
  afterAll(() => data.remove())

  it("is taken once: a holder that runs (this process) refuses the next; a dead or unreadable holder's lock is taken over", async () => {
    const lockFile = await Effect.runPromise(acquireDataDirLock(data.dir))
    const refused = await Effect.runPromiseExit(acquireDataDirLock(data.dir))
    expect(Exit.isFailure(refused) && JSON.stringify(refused.cause).includes(`"pid":${process.pid}`)).toBe(true)
    await Effect.runPromise(releaseDataDirLock(lockFile))
    expect(existsSync(lockFile)).toBe(false)
    for (const stale of [String(deadPid()), "", "not a pid"]) {
      writeFileSync(lockFile, stale)
      expect(await Effect.runPromise(acquireDataDirLock(data.dir))).toBe(lockFile)
      expect(readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid))
      await Effect.runPromise(releaseDataDirLock(lockFile))
    }
  })

  it("is released only by its holder: a lock another process took over stays", async () => {
    const lockFile = await Effect.runPromise(acquireDataDirLock(data.dir))
    const other = String(process.ppid)
    writeFileSync(lockFile, other)
    await Effect.runPromise(releaseDataDirLock(lockFile))
    expect(readFileSync(lockFile, "utf8")).toBe(other)
    writeFileSync(lockFile, String(deadPid()))
    await Effect.runPromise(Effect.andThen(acquireDataDirLock(data.dir), releaseDataDirLock(lockFile)))
  })
})
