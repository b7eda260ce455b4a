/**
 * The day on several processes: a partner platform's organisations, each with its own
 * clock and its own daily run, charged by 1 and by 3 server worker processes on one PostgreSQL;
 * and a day of 100,000 charges in one organisation on one process.
 *
 *   DATABASE_URL=… npm run bench -- daily-processes
 *
 *   DAILY_PROCESSES_ORGANISATIONS=6   organisations of the many-organisations day
 *   DAILY_PROCESSES_DUE=1000          subscriptions due in each
 *   DAILY_PROCESSES_COUNTS=1,3        the process counts, one day each in this order; the first is the
 *                                     peer, each other day compared with the peer's day just before it
 *                                     (1,3,1,3: two pairs; empty: none, the big day alone)
 *   DAILY_PROCESSES_BIG=100000        the one-organisation day, on 1 process (0: not run)
 *
 * Each day runs on a store of its own (a PostgreSQL schema per run, dropped after), loaded alike:
 * per organisation a creditor, a payer and a live mandate made through the services on a test
 * clock, one monthly subscription, and its row and schedule record cloned (`insertAll`, 1,000 rows a
 * statement) so that D subscriptions are due on the next daily run; then `ANALYZE`. The services
 * leave each organisation's next daily run in `due_work` (06:00 UTC of the run's date on its own
 * clock); the test clock starts a week ahead of real time, so with no clock row (offset 0) nothing is
 * due in real time. The organisations are the engine's (their resources and due rows); the server's
 * own `organisations` table, which only the workers' start reads (`ensureDailyRuns`), holds just
 * the server's first-start organisation.
 *
 * The processes are the server's due-work worker process as `dueWork: "worker-process"` forks it
 * (`startWorkerProcess`: `worker-entry.ts`, a `createPaykitApp` with the worker polling every
 * 250 ms), started one after another on the schema and left idle. Then the clocks: one statement
 * gives the day's organisations their clock rows (`organisation_clocks`, as a sandbox advance's
 * `raiseOffset` writes them), set so each one's daily run falls due in real time 0.5 s later;
 * migration 0065's trigger re-times their rows and the workers claim them as they would once a day
 * came. The day's time runs from that instant until the last of its daily-run rows is completed
 * (this process reads `due_work` every 50 ms). Before the day, a warm-up day of 2 organisations per
 * process with 100 due each runs the same way, so the workers' code is warm.
 *
 * While the day runs, this process records which worker leased each organisation's row and when
 * it ended (whether the processes shared the work), samples `pg_stat_activity` (lock waits), and
 * reads from `/proc` the CPU time of the workers, of PostgreSQL and of the machine, and how long the
 * workers' and PostgreSQL's processes waited for a core (`support/cpu-time.ts`): on a shared
 * machine, whether the day waited for the database or for the machine.
 * After it, the payments are counted per subscription: each must have exactly one (a double
 * charge is reported loudly and fails the run).
 *
 * The figure: charges/s of each process count, and the ratio of 3 processes to 1. The machine
 * has 2 cores, shared by the processes, PostgreSQL and this one: 3 processes can at best use both.
 */
import { ensureSourceCondition } from "./support/source-condition.ts"

ensureSourceCondition()

const { report, runDay } = await import("./support/daily-days.ts")
type Day = import("./support/daily-days.ts").Day

const ORGANISATIONS = Number(process.env["DAILY_PROCESSES_ORGANISATIONS"] ?? 6)
const DUE = Number(process.env["DAILY_PROCESSES_DUE"] ?? 1_000)
const COUNTS = (process.env["DAILY_PROCESSES_COUNTS"] ?? "1,3").split(",").filter((count) => count !== "").map(Number)
const BIG = Number(process.env["DAILY_PROCESSES_BIG"] ?? 100_000)

const databaseUrl = process.env["DATABASE_URL"]
if (databaseUrl === undefined || databaseUrl === "") {
  console.log("daily-processes: runs on PostgreSQL only; set DATABASE_URL")
  process.exit(0)
}
const target = { url: databaseUrl, processUrl: () => databaseUrl, databases: [new URL(databaseUrl).pathname.slice(1)] }

/** The peer: the first process count; each other count's day is compared with the peer's day run last before it. */
const PEER = COUNTS[0]
let peerDay: Day | undefined
for (const processes of COUNTS) {
  console.log(`\n${ORGANISATIONS} organisations x ${DUE} due, ${processes} process${processes === 1 ? "" : "es"}`)
  const day = await runDay(target, processes, ORGANISATIONS, DUE)
  report(`${processes} process${processes === 1 ? "" : "es"}`, day)
  if (processes === PEER) peerDay = day
  else if (peerDay !== undefined) {
    const rate = (d: Day) => d.charges / d.seconds
    console.log(`${processes} processes / ${PEER}: ${(rate(day) / rate(peerDay)).toFixed(2)}x the charges/s (${rate(day).toFixed(0)} against ${rate(peerDay).toFixed(0)} just before)`)
  }
}
if (BIG > 0) {
  console.log(`\n1 organisation x ${BIG} due, 1 process`)
  report("the big day", await runDay(target, 1, 1, BIG))
}
