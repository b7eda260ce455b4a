import { Schema } from "effect"
import { METADATA_MAX_KEY_LENGTH, METADATA_MAX_KEYS, METADATA_MAX_VALUE_LENGTH } from "./limits.ts"

/**
 * `metadata`: at most 3 keys, key names up to 50 characters, string values up to 500 characters.
 * Failures point at the offending key (`/resource/metadata/<key>`) or at `metadata` itself.
 */
export const Metadata = Schema.Record(Schema.String, Schema.String).check(
  Schema.makeFilter((m: Readonly<Record<string, string>>) => {
    const issues: Array<Schema.FilterIssue> = []
    const keys = Object.keys(m)
    if (keys.length > METADATA_MAX_KEYS) issues.push(`must have at most ${METADATA_MAX_KEYS} keys`)
    for (const key of keys) {
      if (key.length > METADATA_MAX_KEY_LENGTH) {
        issues.push({ path: [key], issue: `key names must be at most ${METADATA_MAX_KEY_LENGTH} characters` })
      }
      const value = m[key]
      if (value !== undefined && value.length > METADATA_MAX_VALUE_LENGTH) {
        issues.push({ path: [key], issue: `values must be at most ${METADATA_MAX_VALUE_LENGTH} characters` })
      }
    }
    return issues
  })
).annotate({ identifier: "Metadata" })
export type Metadata = typeof Metadata.Type

export const emptyMetadata: Metadata = {}

/**
 * The bodies that carry only metadata, shared by the actions that take one (mandate and customer
 * bank account updates, payment, subscription and billing request cancellations, billing request
 * fulfilment). The engine's services decode with this very Schema, so its catalogue of request
 * bodies shows what is checked.
 */
export const MetadataUpdateRequest = Schema.Struct({ metadata: Schema.optionalKey(Metadata) })
