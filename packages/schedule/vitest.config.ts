import { paykitProject } from "../../vitest.shared.ts"

export default paykitProject("@paykit/schedule", { isolate: false })
