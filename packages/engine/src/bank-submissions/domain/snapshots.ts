import { Schema } from "effect"
import { SubmissionItemSchema } from "@paykit/bank-files"

/** A queued item's sealed snapshot: the `SubmissionItem` of @paykit/bank-files, as JSON. */
export const SnapshotJson = Schema.fromJsonString(SubmissionItemSchema)
