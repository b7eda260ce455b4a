import { defineConfig } from "vitest/config"
import { TEST_WORKERS } from "./vitest.shared.ts"

export default defineConfig({
  test: {
    projects: ["packages/*", "bench"],
    // The pool's size; each project sets the same count (vitest.shared.ts says why).
    maxWorkers: TEST_WORKERS
  }
})
