import { Schema } from "effect"
import { Metadata } from "@paykit/core"

/**
 * The bodies that carry only metadata, shared by the actions that take one (mandate and customer
 * bank account updates, payment, subscription and billing request cancellations, billing request
 * fulfilment). The services decode with these very Schemas, so the catalogue of request bodies
 * (`request-schemas.ts`) shows what is checked.
 */
export const MetadataUpdateRequest = Schema.Struct({ metadata: Schema.optionalKey(Metadata) })

