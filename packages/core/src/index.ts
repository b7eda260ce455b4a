/**
 * @paykit/core: the domain kernel shared by every paykit package. Identifiers, money, calendar
 * dates and timestamps, metadata and references, country codes, the limits of the specification
 * and the one error model.
 */
export * from "./ascii-letters.ts"
export * from "./countries.ts"
export * from "./dates.ts"
export * from "./decode.ts"
export * from "./error-reasons.ts"
export * from "./errors.ts"
export * from "./ids.ts"
export * from "./input-text.ts"
export * from "./issue-messages.ts"
export * from "./limits.ts"
export * from "./metadata.ts"
export * from "./money.ts"
export * from "./organisation-id.ts"
export * from "./reference.ts"
export * from "./schemes.ts"
export * from "./stepping-clock.ts"
