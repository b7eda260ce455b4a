import { paykitProject } from "../../vitest.shared.ts"

// One PGlite per test worker: files share the worker's module graph (see test/support/pglite.ts).
export default paykitProject("@paykit/store-sql", { isolate: false })
