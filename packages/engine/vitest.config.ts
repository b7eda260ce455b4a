import { paykitProject } from "../../vitest.shared.ts"

export default paykitProject("@paykit/engine", { isolate: false })
