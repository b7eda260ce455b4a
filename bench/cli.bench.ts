/**
 * How soon `paykit` answers: `paykit --help`, and every command's first output, not counting the
 * server's own answer (docs/cli.md, "How it starts fast"; the target is 0.5 s).
 *
 *   npm run bench -- cli          (builds the packages, packs them and installs them into a scratch app)
 *   BENCH_CLI_RUNS=9 npm run bench -- cli
 *
 * Two ways of running it, as users do: the bin of the packed `@paykit/server` installed into an app
 * (`node_modules/.bin/paykit`, the built code), and `npm run -s paykit` in this workspace (the
 * launcher scripts/paykit.mjs, running the build it finds current). Each is timed from the spawn
 * to the process's exit (`--help`) or to its first byte of output (a command), the median of the
 * runs, against a peer in the same run: Node starting and doing nothing (`node -e 0`, from the
 * app), and npm running a script that does nothing (`npm run -s noop` in a scratch package), which
 * is what any command costs before paykit's code runs at all.
 *
 * The commands run against a paykit server the app starts (`paykit start`), through a loopback
 * proxy that notes when each request arrives and its answer ends: the time the server spent on
 * the requests answered before the first output is taken off (its "own answer"), the rest is
 * paykit's (Node's start, loading the command, reading its arguments, printing).
 */
import { spawn } from "node:child_process"
import { once } from "node:events"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer, request as httpRequest, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { performance } from "node:perf_hooks"
import { install, lastLines, pack, peersFirst, ROOT, run, scratchApp, workspaceNode } from "../scripts/packing.ts"

const RUNS = Number(process.env["BENCH_CLI_RUNS"] ?? 5)
const TARGET_MS = 500
const TOKEN = "bench_cli_sandbox_token_0001"

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] ?? 0 : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

interface Invocation {
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly cwd: string
  readonly env?: NodeJS.ProcessEnv
}

interface Timed {
  /** Spawn to the first byte on stdout or stderr (to the exit for a process that prints nothing). */
  readonly firstMs: number
  /** Spawn to exit; undefined when stopped after its first output. */
  readonly exitMs: number | undefined
  readonly startedAt: number
  readonly firstAt: number
  readonly output: string
}

/** Runs it, noting its first output; `stopAfterFirst` ends it then (a server, a listener), by its process group. */
const timed = (invocation: Invocation, stopAfterFirst = false): Promise<Timed> =>
  new Promise((resolve, reject) => {
    const startedAt = performance.now()
    const child = spawn(invocation.command, [...invocation.args], {
      cwd: invocation.cwd, env: { ...process.env, ...invocation.env }, stdio: ["ignore", "pipe", "pipe"], detached: true
    })
    let firstAt: number | undefined
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8")
      if (firstAt !== undefined) return
      firstAt = performance.now()
      if (stopAfterFirst && child.pid !== undefined) process.kill(-child.pid, "SIGTERM")
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.on("error", reject)
    child.on("close", () => {
      const exitAt = performance.now()
      if (firstAt === undefined && stopAfterFirst) return reject(new Error(`${invocation.args.join(" ")} printed nothing`))
      const first = firstAt ?? exitAt
      resolve({ firstMs: first - startedAt, exitMs: stopAfterFirst ? undefined : exitAt - startedAt, startedAt, firstAt: first, output })
    })
  })

interface Interval { readonly from: number; readonly to: number }

/** A loopback proxy to `target` noting when each request came and when its answer ended. */
const recordingProxy = async (target: string): Promise<{ readonly url: string; readonly intervals: Array<Interval>; readonly close: () => void }> => {
  const intervals: Array<Interval> = []
  const upstream = new URL(target)
  const server: Server = createServer((incoming, outgoing) => {
    const from = performance.now()
    const forwarded = httpRequest({ host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(outgoing)
      answer.on("end", () => intervals.push({ from, to: performance.now() }))
    })
    forwarded.on("error", () => outgoing.writeHead(502).end())
    incoming.pipe(forwarded)
  })
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, intervals, close: () => server.close() }
}

/** How long the server was answering between `from` and `to` (overlapping requests counted once). */
const serverTime = (intervals: ReadonlyArray<Interval>, from: number, to: number): number => {
  const within = intervals.filter((i) => i.from >= from && i.to <= to).sort((a, b) => a.from - b.from)
  let total = 0
  let reached = from
  for (const i of within) {
    const start = Math.max(i.from, reached)
    if (i.to > start) total += i.to - start
    reached = Math.max(reached, i.to)
  }
  return total
}

const ms = (value: number): string => `${Math.round(value)} ms`

/** The packed packages installed into a scratch app, and where its `paykit` bin is. */
const packedApp = async (scratch: string): Promise<string> => {
  console.log("building, packing and installing the packages (a minute or more) ...")
  run("npm", ["run", "-s", "build"], ROOT)
  const tarballs = join(scratch, "tarballs")
  mkdirSync(tarballs)
  const packed = pack(tarballs)
  const app = join(scratch, "app")
  scratchApp(app)
  for (const specs of [peersFirst(), packed.map((p) => join(tarballs, p.filename))]) {
    const installed = await install(app, specs)
    if (!installed.ok) throw new Error(`npm install failed:\n${lastLines(installed.out)}`)
  }
  return app
}

/** A package whose one script does nothing: the peer of `npm run -s paykit`. */
const noopPackage = (scratch: string): string => {
  const dir = join(scratch, "noop")
  mkdirSync(dir)
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "noop", private: true, scripts: { noop: "node -e 0" } }))
  return dir
}

const medianOf = async (label: string, invocation: Invocation): Promise<number> => {
  const runs: Array<number> = []
  for (let i = 0; i < RUNS; i++) runs.push((await timed(invocation)).exitMs ?? 0)
  console.log(`  ${label}: ${runs.map((r) => Math.round(r)).join(", ")} ms`)
  return median(runs)
}

/** The server's listening address and its sandbox creditor, from its first lines (its output is kept flowing after). */
const waitForListening = (server: ReturnType<typeof spawn>): Promise<{ readonly url: string; readonly creditor: string }> =>
  new Promise((resolve, reject) => {
    let text = ""
    server.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8")
      const url = /"msg":"listening".*?"url":"([^"]+)"/.exec(text)?.[1]
      const creditor = /"creditor":"(CR[0-9A-Z]+)"/.exec(text)?.[1]
      if (url !== undefined && creditor !== undefined) resolve({ url, creditor })
    })
    server.on("close", () => reject(new Error(`paykit start ended before listening:\n${text}`)))
  })

const freePort = async (): Promise<number> => {
  const probe = createServer()
  probe.listen(0, "127.0.0.1")
  await once(probe, "listening")
  const port = (probe.address() as AddressInfo).port
  await new Promise((resolve) => probe.close(resolve))
  return port
}

const main = async (): Promise<void> => {
  // KEEP=1 keeps the scratch directory; BENCH_CLI_APP=<its app> runs again without packing.
  const reuse = process.env["BENCH_CLI_APP"]
  const scratch = reuse === undefined ? mkdtempSync(join(tmpdir(), "paykit-cli-bench-")) : dirname(reuse)
  const node = workspaceNode()
  const path = { PATH: `${dirname(node)}:${process.env["PATH"] ?? ""}` }
  let server: ReturnType<typeof spawn> | undefined
  try {
    const app = reuse ?? await packedApp(scratch)
    const bin = join(app, "node_modules", ".bin", "paykit")
    console.log(`\n\`paykit --help\`, spawn to exit, ${RUNS} runs each (Node ${run(node, ["-v"], ROOT).trim()}):`)
    const packedHelp = await medianOf("packed install, paykit --help", { command: bin, args: ["--help"], cwd: app, env: path })
    const nodePeer = await medianOf("peer: node -e 0", { command: node, args: ["-e", "0"], cwd: app })
    const workspaceHelp = await medianOf("workspace, npm run -s paykit -- --help", { command: "npm", args: ["run", "-s", "paykit", "--", "--help"], cwd: ROOT })
    const npmPeer = await medianOf("peer: npm run -s noop (node -e 0)", { command: "npm", args: ["run", "-s", "noop"], cwd: noopPackage(scratch), env: path })

    const data = join(scratch, "data")
    server = spawn(bin, ["start", "--port", String(await freePort()), "--connect-port", "0", "--data-dir", data, "--sandbox-token", TOKEN], {
      cwd: app, env: { ...process.env, ...path }, stdio: ["ignore", "pipe", "ignore"], detached: true
    })
    const { url, creditor } = await waitForListening(server)
    const proxy = await recordingProxy(url)
    const api = { ...path, PAYKIT_URL: proxy.url, PAYKIT_TOKEN: TOKEN }
    const commands: ReadonlyArray<readonly [string, ReadonlyArray<string>, boolean]> = [
      ["paykit sandbox list", ["sandbox", "list"], false],
      ["paykit advance PT1M", ["advance", "PT1M"], false],
      ["paykit trigger <creditor id> (6 reads at once)", ["trigger", creditor], false],
      ["paykit trigger payout_create <creditor id>", ["trigger", "payout_create", creditor], false],
      ["paykit logs --once", ["logs", "--once"], false],
      ["paykit listen --forward-to ...", ["listen", "--forward-to", "http://127.0.0.1:9/"], true],
      ["paykit token list (its first line, before the store opens)", ["token", "list", "--data-dir", join(scratch, "token-store")], true],
      ["paykit start (its first line, before the server loads)", ["start", "--port", String(await freePort()), "--data-dir", join(scratch, "second")], true],
      ["paykit trigger --help", ["trigger", "--help"], false]
    ]
    const rows: Array<readonly [string, number, number, number]> = []
    for (const [label, args, stop] of commands) {
      const firsts: Array<number> = []
      const answers: Array<number> = []
      for (let i = 0; i < RUNS; i++) {
        const t = await timed({ command: bin, args, cwd: app, env: api }, stop)
        firsts.push(t.firstMs)
        answers.push(serverTime(proxy.intervals, t.startedAt, t.firstAt))
        rmSync(join(scratch, "token-store"), { recursive: true, force: true })
        rmSync(join(scratch, "second"), { recursive: true, force: true })
      }
      const own = firsts.map((f, i) => f - (answers[i] ?? 0))
      rows.push([label, median(firsts), median(answers), median(own)])
    }
    proxy.close()

    console.log(`\n| run | median | peer | peer's median | ratio | target |`)
    console.log("|---|---:|---|---:|---:|---|")
    console.log(`| packed install, \`paykit --help\` | ${ms(packedHelp)} | \`node -e 0\` | ${ms(nodePeer)} | ${(packedHelp / nodePeer).toFixed(2)}x | ${packedHelp <= TARGET_MS ? "met" : "NOT met"} (< ${TARGET_MS} ms) |`)
    console.log(`| workspace, \`npm run -s paykit -- --help\` | ${ms(workspaceHelp)} | \`npm run -s noop\` | ${ms(npmPeer)} | ${(workspaceHelp / npmPeer).toFixed(2)}x | ${workspaceHelp <= TARGET_MS ? "met" : "NOT met"} (< ${TARGET_MS} ms) |`)
    console.log(`\nEach command's first output, packed install, median of ${RUNS}:\n`)
    console.log("| command | first output | the server's answer before it | paykit's own | target |")
    console.log("|---|---:|---:|---:|---|")
    for (const [label, first, answer, own] of rows) console.log(`| ${label} | ${ms(first)} | ${ms(answer)} | ${ms(own)} | ${own <= TARGET_MS ? "met" : "NOT met"} |`)
  } finally {
    if (server?.pid !== undefined) {
      process.kill(-server.pid, "SIGTERM")
      await once(server, "close")
    }
    for (const dir of ["data", "token-store", "second", "noop"]) rmSync(join(scratch, dir), { recursive: true, force: true })
    if (process.env["KEEP"] === "1" || reuse !== undefined) console.log(`\nkept: BENCH_CLI_APP=${join(scratch, "app")}`)
    else rmSync(scratch, { recursive: true, force: true })
  }
}

await main()
