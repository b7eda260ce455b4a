import { paykitProject } from "../../vitest.shared.ts"

export default paykitProject("@paykit/money", { isolate: false })
