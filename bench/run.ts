/**
 * `npm run bench`: runs every `bench/*.bench.ts` (or those named on the command line) one after
 * another in its own process, so one benchmark's heap and JIT state never colour the next.
 */
import { spawnSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const wanted = process.argv.slice(2)
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort()

let failed = 0
for (const file of files) {
  console.log(`\n# ${file}\n`)
  const r = spawnSync(process.execPath, ["--import", "tsx", join(here, file)], { stdio: "inherit" })
  if (r.status !== 0) failed++
}
process.exit(failed === 0 ? 0 : 1)
