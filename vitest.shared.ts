import { defineProject } from "vitest/config"

// Tests run against the packages' TypeScript sources: the "@paykit/source" export condition
// points each @paykit/* import at src/index.ts, so `npm test` needs no build first.
const conditions = ["@paykit/source", "node", "import", "default"]

export const paykitProject = (name: string) =>
  defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: conditions } },
    test: {
      name,
      include: ["test/**/*.test.ts"],
      environment: "node",
      // Property tests and the embedded database are CPU-bound: on a loaded two-core CI machine
      // they can take several times longer than alone. Speed is measured by bench/, not here.
      testTimeout: 60_000,
      hookTimeout: 120_000
    }
  })
