import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: ["packages/*", "bench"],
    // Vitest's default is a worker fewer than the cores: one on a two-core machine, which then sat
    // a quarter idle while the server tests waited on the processes, sockets and databases they
    // drive. Two workers there ran the whole suite in 29 minutes against 42, every test passing
    // (2026-11-30); more cores get Vitest's own count.
    maxWorkers: Math.max(2, availableParallelism() - 1)
  }
})
