import { existsSync, readFileSync } from "node:fs"
import { Schema } from "effect"
import type { RecordedExample } from "@paykit/http"

/**
 * The reference's examples (`ApiExamples`): calls the tests recorded through a server
 * (`test/reference-examples.test.ts`), shipped with the package beside `src/` and `dist/`, so one
 * path serves both.
 */
export const EXAMPLES_FILE = new URL("../reference-examples.json", import.meta.url)

const RecordedExamples = Schema.Array(Schema.Struct({
  method: Schema.String,
  path: Schema.String,
  called: Schema.String,
  request: Schema.optional(Schema.Unknown),
  status: Schema.Number,
  response: Schema.optional(Schema.Unknown)
}))

/** The recorded examples; none when the file is absent (a checkout before the first recording). */
export const loadExamples = (): ReadonlyArray<RecordedExample> =>
  existsSync(EXAMPLES_FILE) ? Schema.decodeUnknownSync(RecordedExamples)(JSON.parse(readFileSync(EXAMPLES_FILE, "utf8"))) : []
