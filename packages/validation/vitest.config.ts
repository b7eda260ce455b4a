import { paykitProject } from "../../vitest.shared.ts"

export default paykitProject("@paykit/validation", { isolate: false })
