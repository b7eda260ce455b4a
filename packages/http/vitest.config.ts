import { paykitProject } from "../../vitest.shared.ts"

export default paykitProject("@paykit/http", { isolate: false })
