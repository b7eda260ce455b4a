/**
 * One server of `bench/http.bench.ts` in a process of its own: `SERVER_KINDS` names it on the
 * command line; it reports its address, headers and outbound payment body to the parent over IPC
 * and stops when told to.
 *
 * `<kind>:3` runs the kind in three processes behind one port (`node:cluster`: the workers share
 * the listening socket). The paykit workers share one PostgreSQL schema (`BENCH_PG_SCHEMA`) and
 * start one after another, so only the first makes the sandbox organisation; each bare worker has
 * a schema of its own with the same rows.
 */
import cluster from "node:cluster"
import { randomUUID } from "node:crypto"
import { dropSharedSchema, SERVER_KINDS, startServer } from "./http-servers.ts"

const [name, count] = (process.argv[2] ?? "").split(":")
const kind = SERVER_KINDS.find((k) => k === name)
const processes = Number(count ?? 1)

interface Started {
  readonly url: string
  readonly headers: Record<string, string>
  readonly outboundBody: string
  readonly creditor: string
}

if (kind === undefined || (cluster.isPrimary && process.send === undefined)) {
  console.error(`usage: forked by bench/http.bench.ts with one of ${SERVER_KINDS.join(", ")} (":3" for three processes)`)
  process.exit(2)
}

if (cluster.isWorker || processes === 1) {
  const server = await startServer(kind)
  const started: Started = { url: server.url, headers: server.headers, outboundBody: server.outboundBody, creditor: server.creditor }
  process.send?.(started)
  process.on("message", (message) => {
    if (message === "close") void server.close().then(() => process.exit(0))
  })
} else {
  const schema = kind.startsWith("paykit") ? `bench_http_${randomUUID().replaceAll("-", "").slice(0, 12)}` : undefined
  const workers: Array<ReturnType<typeof cluster.fork>> = []
  let first: Started | undefined
  for (let i = 0; i < processes; i++) {
    const worker = cluster.fork(schema === undefined ? {} : { BENCH_PG_SCHEMA: schema })
    first = first ?? await new Promise<Started>((resolve) => worker.once("message", (m) => resolve(m as Started)))
    if (i > 0) await new Promise<void>((resolve) => worker.once("message", () => resolve()))
    workers.push(worker)
  }
  process.send?.(first)
  process.on("message", (message) => {
    if (message !== "close") return
    void Promise.all(workers.map((w) => new Promise<void>((done) => {
      w.once("exit", () => done())
      w.send("close")
    }))).then(async () => {
      if (schema !== undefined) await dropSharedSchema(schema)
      process.exit(0)
    })
  })
}
