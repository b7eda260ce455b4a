import { paykitProject } from "../../vitest.shared.ts"

export default paykitProject("@paykit/core", { isolate: false })
