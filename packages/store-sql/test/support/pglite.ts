/** The test support of the storage tests: the package's own fresh stores (`src/testing.ts`). */
export { freshSchemaName, isolatedPgliteClient as isolatedPglite, sharedPglite } from "../../src/testing.ts"
