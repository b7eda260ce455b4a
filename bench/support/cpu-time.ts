import { readdirSync, readFileSync } from "node:fs"

/**
 * Where a benchmark's processes spent their time, from Linux's `/proc` (zeros elsewhere): CPU time
 * (user and system, every thread), and the time the main thread was ready to run but waited for a
 * core (`schedstat`'s run-queue delay): on a machine whose cores are all busy, the second says how
 * much of a run was spent waiting for the machine rather than for the database.
 */

/** `/proc`'s unit of CPU time (`getconf CLK_TCK`, 100 on Linux). */
const CLOCK_TICKS = 100

export interface ProcessTime {
  /** CPU seconds, every thread. */
  readonly cpu: number
  /** Seconds the main thread waited for a core while ready to run. */
  readonly runQueue: number
}

const NONE: ProcessTime = { cpu: 0, runQueue: 0 }

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8")
  } catch {
    // Not Linux, or the process ended.
    return undefined
  }
}

/** A process's time so far. */
export const processTime = (pid: number): ProcessTime => {
  // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th of them.
  const stat = read(`/proc/${pid}/stat`)?.split(") ")[1]?.split(" ") ?? []
  const schedstat = read(`/proc/${pid}/schedstat`)?.split(" ") ?? []
  if (stat.length < 13 || schedstat.length < 2) return NONE
  return { cpu: (Number(stat[11]) + Number(stat[12])) / CLOCK_TICKS, runQueue: Number(schedstat[1]) / 1e9 }
}

/** Every PostgreSQL process on this machine (other sessions' backends too): its time so far, by pid. */
const postgresTimes = (): ReadonlyMap<number, ProcessTime> => {
  let entries: ReadonlyArray<string> = []
  try {
    entries = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))
  } catch {
    // Not Linux.
  }
  const found = new Map<number, ProcessTime>()
  for (const name of entries) {
    if (read(`/proc/${name}/comm`)?.trim() === "postgres") found.set(Number(name), processTime(Number(name)))
  }
  return found
}

/** The machine's busy CPU seconds so far, all cores (`/proc/stat`: all but idle and iowait). */
const machineBusy = (): number => {
  const [, ...ticks] = (read("/proc/stat")?.split("\n")[0] ?? "").trim().split(/\s+/).map(Number)
  if (ticks.length < 8) return 0
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0)
  return (total - (ticks[3] ?? 0) - (ticks[4] ?? 0)) / CLOCK_TICKS
}

const sum = (times: Iterable<ProcessTime>): ProcessTime => {
  let [cpu, runQueue] = [0, 0]
  for (const t of times) [cpu, runQueue] = [cpu + t.cpu, runQueue + t.runQueue]
  return { cpu, runQueue }
}

export interface TimeReading {
  readonly processes: ProcessTime
  readonly postgres: ReadonlyMap<number, ProcessTime>
  readonly machine: number
}

/** The time so far of `pids`, of PostgreSQL's processes and of the machine. */
export const readTimes = (pids: ReadonlyArray<number>): TimeReading => ({
  processes: sum(pids.map(processTime)),
  postgres: postgresTimes(),
  machine: machineBusy()
})

export interface TimeSpent {
  readonly processes: ProcessTime
  /** PostgreSQL's processes alive at the end (a backend that ended meanwhile is not counted). */
  readonly postgres: ProcessTime
  /** Busy CPU seconds of the whole machine. */
  readonly machine: number
}

/** The time spent between two readings. */
export const timeBetween = (before: TimeReading, after: TimeReading): TimeSpent => {
  const minus = (a: ProcessTime, b: ProcessTime): ProcessTime => ({ cpu: a.cpu - b.cpu, runQueue: a.runQueue - b.runQueue })
  return {
    processes: minus(after.processes, before.processes),
    postgres: sum([...after.postgres].map(([pid, t]) => minus(t, before.postgres.get(pid) ?? NONE))),
    machine: after.machine - before.machine
  }
}

/**
 * The CPU seconds PostgreSQL spends for `databases` alone: its backends connected to them (a
 * backend's command line names its database), whichever cluster they run in (a Citus coordinator's
 * and its workers' alike). Sampled as often as `sample` is called, each backend counted from its
 * first sample (or from its start, when it started after the first) to its last: Citus opens and
 * closes connections to its workers as a statement needs them, and a backend that ended between
 * two samples would be missed by two readings alone. On a machine others share, this is the
 * database's own time, where `postgres` in `TimeSpent` is every PostgreSQL process's.
 */
export const databaseCpu = (databases: ReadonlyArray<string>) => {
  const first = new Map<number, number>()
  const last = new Map<number, number>()
  /** Each backend's node: the data directory its postmaster (its parent) runs on, by its last part. */
  const nodeOf = new Map<number, string>()
  let started = false
  const named = (pid: string): boolean => {
    if (read(`/proc/${pid}/comm`)?.trim() !== "postgres") return false
    const title = read(`/proc/${pid}/cmdline`)?.replaceAll("\0", " ") ?? ""
    return databases.some((database) => title.includes(` ${database} `))
  }
  return {
    sample: (): void => {
      let entries: ReadonlyArray<string> = []
      try {
        entries = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))
      } catch {
        // Not Linux.
      }
      for (const name of entries) {
        if (!named(name)) continue
        const pid = Number(name)
        const cpu = processTime(pid).cpu
        if (!first.has(pid)) {
          first.set(pid, started ? 0 : cpu)
          nodeOf.set(pid, nodeName(pid))
        }
        last.set(pid, cpu)
      }
      started = true
    },
    /** CPU seconds since the first sample. */
    spent: (): number => [...last].reduce((total, [pid, cpu]) => total + cpu - (first.get(pid) ?? 0), 0),
    /** The same, by node (a Citus coordinator's and each worker's backends apart). */
    spentByNode: (): ReadonlyMap<string, number> => {
      const byNode = new Map<string, number>()
      for (const [pid, cpu] of last) {
        const node = nodeOf.get(pid) ?? "?"
        byNode.set(node, (byNode.get(node) ?? 0) + cpu - (first.get(pid) ?? 0))
      }
      return byNode
    }
  }
}

/** The node a PostgreSQL backend runs on: the last part of its postmaster's data directory (`-D <dir>`), or its port's cluster name. */
const nodeName = (pid: number): string => {
  const parent = read(`/proc/${pid}/stat`)?.split(") ")[1]?.split(" ")[1]
  const command = parent === undefined ? [] : (read(`/proc/${parent}/cmdline`)?.split("\0") ?? [])
  const at = command.indexOf("-D")
  const dir = at < 0 ? undefined : command[at + 1]
  return dir === undefined || dir === "" ? "?" : dir.split("/").filter((part) => part !== "").at(-1) ?? "?"
}
