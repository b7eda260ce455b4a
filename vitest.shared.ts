import { availableParallelism } from "node:os"
import { defineProject } from "vitest/config"

// Tests run against the packages' TypeScript sources: the "@paykit/source" export condition
// points each @paykit/* import at src/index.ts, so `npm test` needs no build first.
const conditions = ["@paykit/source", "node", "import", "default"]
// The server-side conditions are also the test workers' `--conditions`, which apply to Node's own
// `require` too: "import" there gives a CommonJS package's `require` of a dual package its ES
// module (express's router requiring is-promise); Vite adds "import" to the imports it resolves.
const ssrConditions = ["@paykit/source", "node"]

export interface ProjectOptions {
  /**
   * false: test files of one worker share one module graph, so a module-level resource (such as
   * the embedded database, which takes seconds to boot) is made once per worker, not per file, and
   * effect and the packages are imported once: the pure packages', the engine's and http's 1,264
   * tests took 266 s isolated (61% of it imports) and 92 s not (2026-11-30, two cores).
   */
  readonly isolate?: boolean
  /** Run once before the project's tests (and their teardown after), in the main process. */
  readonly globalSetup?: string
}

/**
 * Test files run at once: Vitest's default is a worker fewer than the cores, one on a two-core
 * machine, which then sat a quarter idle while the server tests waited on the processes, sockets and
 * databases they drive. Two there ran the whole suite in 29 minutes against 42, every test passing
 * (2026-11-30); more cores get Vitest's own count. Each project must say it: a project without a
 * count of its own takes Vitest's default, not the root's, and runs its files one at a time.
 */
export const TEST_WORKERS = Math.max(2, availableParallelism() - 1)

export const paykitProject = (name: string, options: ProjectOptions = {}) =>
  defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions: ssrConditions, externalConditions: ssrConditions } },
    // Where a project's global setup is imported (in the main process): without the source
    // condition there, it would need the packages built.
    environments: { __vitest__: { resolve: { conditions: ssrConditions, externalConditions: ssrConditions } } },
    test: {
      name,
      include: ["test/**/*.test.ts"],
      environment: "node",
      // Property tests and the embedded database are CPU-bound: on a loaded two-core CI machine
      // they can take several times longer than alone. Speed is measured by bench/, not here.
      testTimeout: 60_000,
      hookTimeout: 120_000,
      isolate: options.isolate ?? true,
      maxWorkers: TEST_WORKERS,
      ...(options.globalSetup === undefined ? {} : { globalSetup: options.globalSetup })
    }
  })
