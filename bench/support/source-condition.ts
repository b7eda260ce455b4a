import { spawnSync } from "node:child_process"

/**
 * The workspace packages resolve to their TypeScript sources only under the `@paykit/source`
 * export condition (`npm run bench` passes it). A benchmark started without it, e.g. by
 * `npx tsx bench/x.bench.ts`, runs again as a child with it; call this before the first dynamic
 * `import("@paykit/...")`. `BENCH_DIST=1` runs on the built packages instead (`npm run build`
 * first): a CPU profile of them names the lines of paykit's code, which tsx's names do not.
 */
export const ensureSourceCondition = (): void => {
  if (process.env["BENCH_DIST"] === "1" || process.execArgv.some((a) => a.includes("@paykit/source"))) return
  const script = process.argv[1] ?? ""
  const r = spawnSync(process.execPath, [...process.execArgv, "--conditions=@paykit/source", script, ...process.argv.slice(2)], {
    stdio: "inherit"
  })
  process.exit(r.status ?? 1)
}
