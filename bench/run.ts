/**
 * `npm run bench`: runs every `bench/*.bench.ts` (or those named on the command line) one after
 * another in its own process, so one benchmark's heap and JIT state never colour the next.
 */
import { spawnSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
const wanted = args.filter((a) => !a.startsWith("--"))
const passThrough = args.filter((a) => a.startsWith("--"))
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort()

let failed = 0
for (const file of files) {
  console.log(`\n# ${file}\n`)
  // The workspace packages resolve to their TypeScript sources under the `@paykit/source` condition.
  const r = spawnSync(process.execPath, ["--conditions=@paykit/source", "--import", "tsx", join(here, file), ...passThrough], {
    stdio: "inherit"
  })
  if (r.status !== 0) failed++
}
process.exit(failed === 0 ? 0 : 1)
