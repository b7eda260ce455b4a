import { paykitProject } from "../../vitest.shared.ts"

// The migrated in-memory database every in-memory test server starts from (test/pglite-template.ts).
export default paykitProject("@paykit/server", { globalSetup: "test/pglite-template.ts" })
