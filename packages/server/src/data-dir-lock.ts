import { Effect, Layer, Schema } from "effect"
import { closeSync, fstatSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs"
import { resolve } from "node:path"

/**
 * One process per PGlite data directory. PGlite is a single-user PostgreSQL with no lock of its own:
 * two processes on one directory each run their own copy in memory and overwrite each other's files,
 * losing acknowledged writes. A server therefore holds `<data dir>.lock` (beside the directory, so
 * PGlite's own files stay as it made them) from before it opens the database until after it closes
 * it. The file holds the holder's pid. It is written under a name of the process's own, then linked
 * to the lock's name: like an O_EXCL create, the link fails if the lock exists, so of two starts
 * exactly one gets it, and unlike one, the lock never exists empty for another start to misread.
 * A lock whose pid is no longer running (the holder was killed) is stale and is taken over.
 */

export class DataDirInUse extends Schema.TaggedError<DataDirInUse>()("DataDirInUse", {
  dataDir: Schema.String,
  pid: Schema.Number,
  lockFile: Schema.String
}) {
  override get message(): string {
    return `The PGlite data directory ${this.dataDir} is in use by process ${this.pid} (lock file ${this.lockFile}); ` +
      `stop that server first, or give this one another PAYKIT_DATA_DIR`
  }
}

/** The lock file of a data directory: its absolute path with `.lock` appended. */
export const lockFileOf = (dataDir: string): string => `${resolve(dataDir)}.lock`

type Holder = { readonly pid: number; readonly inode: number } | undefined

/** Who holds the lock now, read and identified through one descriptor (undefined: nobody). */
const holderOf = (lockFile: string): Holder => {
  let fd: number
  try {
    fd = openSync(lockFile, "r")
  } catch (error) {
    if (isCode(error, "ENOENT")) return undefined
    throw error
  }
  try {
    // A file that names no pid (edited by hand) has no live holder: pid 0.
    const pid = Number(readFileSync(fd, "utf8").trim())
    return { pid: Number.isSafeInteger(pid) && pid > 0 ? pid : 0, inode: fstatSync(fd).ino }
  } finally {
    closeSync(fd)
  }
}

const isCode = (error: unknown, code: string): boolean =>
  typeof error === "object" && error !== null && "code" in error && error.code === code

/** Whether a process with this pid runs (EPERM: it does, as another user). */
const isRunning = (pid: number): boolean => {
  if (pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return isCode(error, "EPERM")
  }
}

/** Creates the lock file holding our pid, or answers false if it exists. */
const create = (lockFile: string): boolean => {
  const own = `${lockFile}.${process.pid}`
  writeFileSync(own, `${process.pid}\n`)
  try {
    linkSync(own, lockFile)
    return true
  } catch (error) {
    if (isCode(error, "EEXIST")) return false
    throw error
  } finally {
    unlinkSync(own)
  }
}

/**
 * Removes a stale lock file, only if it is still the one judged stale: it is first renamed aside
 * (atomic), and if what was renamed is another file (a start that took it over meanwhile), it is put
 * back with `link`, which never overwrites.
 */
const removeStale = (lockFile: string, stale: NonNullable<Holder>): void => {
  const aside = `${lockFile}.stale.${process.pid}`
  try {
    renameSync(lockFile, aside)
  } catch (error) {
    if (isCode(error, "ENOENT")) return
    throw error
  }
  if (statSync(aside).ino !== stale.inode) {
    try {
      linkSync(aside, lockFile)
    } catch (error) {
      if (!isCode(error, "EEXIST")) throw error
    }
  }
  unlinkSync(aside)
}

/** Rounds of finding a stale lock and removing it before giving up: only starts racing each other take more than two. */
const TAKEOVER_ROUNDS = 10

/** Takes the lock of `dataDir` for this process, or fails naming the process that holds it. */
export const acquireDataDirLock = (dataDir: string): Effect.Effect<string, DataDirInUse> =>
  Effect.suspend(() => {
    const lockFile = lockFileOf(dataDir)
    // Each round either takes the lock, finds a live holder, or removes a stale lock and tries again.
    for (let round = 0; round < TAKEOVER_ROUNDS; round++) {
      if (create(lockFile)) return Effect.succeed(lockFile)
      const holder = holderOf(lockFile)
      if (holder === undefined) continue
      if (isRunning(holder.pid)) return Effect.fail(new DataDirInUse({ dataDir: resolve(dataDir), pid: holder.pid, lockFile }))
      removeStale(lockFile, holder)
    }
    return Effect.die(new Error(`could not take the lock file ${lockFile}: it keeps changing`))
  })

/** Removes the lock file if it is still ours (never one another process took over). */
export const releaseDataDirLock = (lockFile: string): Effect.Effect<void> =>
  Effect.sync(() => {
    if (holderOf(lockFile)?.pid !== process.pid) return
    try {
      unlinkSync(lockFile)
    } catch (error) {
      if (!isCode(error, "ENOENT")) throw error
    }
  })

/** The lock of `dataDir`, held for the life of the layer: build it before the database, release it after. */
export const dataDirLock = (dataDir: string): Layer.Layer<never, DataDirInUse> =>
  Layer.effectDiscard(Effect.acquireRelease(acquireDataDirLock(dataDir), releaseDataDirLock))
