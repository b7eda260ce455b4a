/**
 * Bytes allocated per `POST /outbound_payments`, in-process: the server of `bench/http.bench.ts`
 * (`paykit-memory`, or any kind named as the first argument) takes N requests one after another
 * from a raw keep-alive socket, and the heap's growth over them is divided by N. The young
 * generation is made larger than the run allocates, so no collection happens in between (the
 * script says so if one did, and its figure is then void). Unlike the throughput benchmark, the
 * figure does not depend on the machine's load: the way to compare two versions of the kernel.
 *
 *   node --expose-gc --min-semi-space-size=128 --max-semi-space-size=256 --conditions=@paykit/source --import tsx bench/allocation.ts [kind] [n]
 *
 * With `ALLOCATION_SITES=20` it also lists the 20 functions that allocated most over the run (V8's
 * sampling heap profiler; nothing is collected during the run, so every sample is still there).
 */
import { connect, type Socket } from "node:net"
import { Session } from "node:inspector/promises"
import { PerformanceObserver } from "node:perf_hooks"
import { type ServerKind, SERVER_KINDS, startServer } from "./support/http-servers.ts"

const kind = (process.argv[2] ?? "paykit-memory") as ServerKind
if (!SERVER_KINDS.includes(kind)) throw new Error(`kind must be one of ${SERVER_KINDS.join(", ")}`)
const N = Number(process.argv[3] ?? 2000)
const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error("run with --expose-gc")

const server = await startServer(kind)
const { hostname, port } = new URL(server.url)
const socket: Socket = await new Promise((resolve) => {
  const s = connect(Number(port), hostname, () => resolve(s))
})
socket.setNoDelay(true)

// The benchmark's request (`bench/http.bench.ts`: its headers, no Idempotency-Key), made once: the
// client allocates nothing of its own while it is measured.
const request = Buffer.from(
  `POST /outbound_payments HTTP/1.1\r\nHost: ${hostname}\r\n` +
    Object.entries(server.headers).map(([k, v]) => `${k}: ${v}\r\n`).join("") +
    `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(server.outboundBody)}\r\n\r\n${server.outboundBody}`
)
const requests = (count: number): ReadonlyArray<Buffer> => Array.from({ length: count }, () => request)

let pending: ((status: number) => void) | undefined
let received = ""
socket.on("data", (chunk: Buffer) => {
  received += chunk.toString("latin1")
  const end = received.indexOf("\r\n\r\n")
  if (end === -1) return
  const length = Number(/content-length: (\d+)/i.exec(received.slice(0, end))?.[1] ?? 0)
  if (received.length < end + 4 + length) return
  const status = Number(received.slice(9, 12))
  received = ""
  pending?.(status)
})
const send = (request: Buffer) => new Promise<number>((resolve) => {
  pending = resolve
  socket.write(request)
})

const runAll = async (batch: ReadonlyArray<Buffer>) => {
  for (const request of batch) {
    const status = await send(request)
    if (status !== 201) throw new Error(`answered ${status}`)
  }
}

// Warm-up: the JIT settles and every table the run touches exists.
await runAll(requests(1000))
const measured = requests(N)
let collections = 0
const observer = new PerformanceObserver((list) => void (collections += list.getEntries().length))
const sites = Number(process.env["ALLOCATION_SITES"] ?? 0)
const session = new Session()
if (sites > 0) {
  session.connect()
  await session.post("HeapProfiler.startSampling", { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
}
gc()
gc()
const before = process.memoryUsage().heapUsed
observer.observe({ entryTypes: ["gc"] })
await runAll(measured)
const after = process.memoryUsage().heapUsed
if (sites > 0) printSites(await session.post("HeapProfiler.stopSampling"), sites)
await new Promise((resolve) => setImmediate(resolve))
observer.disconnect()
gc()
const retained = process.memoryUsage().heapUsed - before
console.log(JSON.stringify({
  kind,
  requests: N,
  allocated_per_request_kb: Number(((after - before) / N / 1024).toFixed(2)),
  retained_per_request_kb: Number((retained / N / 1024).toFixed(2)),
  collections_during_run: collections,
  valid: collections === 0
}))
socket.destroy()
await server.close()
process.exit(0)

interface ProfileNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number }
  readonly selfSize: number
  readonly children: ReadonlyArray<ProfileNode>
}

function printSites(result: { readonly profile: { readonly head: ProfileNode } }, count: number): void {
  const bySite = new Map<string, number>()
  const visit = (node: ProfileNode): void => {
    const { functionName, url, lineNumber } = node.callFrame
    const site = `${functionName || "(anonymous)"} ${url.replace(/^.*\/wt-[^/]+\//, "")}:${lineNumber + 1}:${node.callFrame.columnNumber + 1}`
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize)
    node.children.forEach(visit)
  }
  visit(result.profile.head)
  const total = [...bySite.values()].reduce((a, b) => a + b, 0)
  const byFile = new Map<string, number>()
  for (const [site, bytes] of bySite) {
    const file = site.slice(site.indexOf(" ") + 1).replace(/:\d+:\d+$/, "")
    byFile.set(file, (byFile.get(file) ?? 0) + bytes)
  }
  const print = (rows: Map<string, number>) => {
    for (const [site, bytes] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      console.log(`${(bytes / N / 1024).toFixed(2).padStart(7)} KB/request  ${(100 * bytes / total).toFixed(1).padStart(5)}%  ${site}`)
    }
  }
  console.log("by function:")
  print(bySite)
  console.log("by file:")
  print(byFile)
}
