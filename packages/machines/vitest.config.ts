import { paykitProject } from "../../vitest.shared.ts"

export default paykitProject("@paykit/machines", { isolate: false })
