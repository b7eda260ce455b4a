import { SchemaIssue } from "effect"
import type { HttpApiError } from "effect/http-api"
import { type FieldError, InvalidApiUsage, type PaykitError, validationFailed } from "@paykit/core"
import { PROTOCOL_REASONS } from "./error-response.ts"

/**
 * Decoding failures that HttpApi raises before a handler runs (path, query and body), turned into
 * the API's errors: a body that is not JSON is a 400, anything that is JSON but the wrong shape is
 * a 422 naming each field with its JSON pointer (for a body, the pointer starts at the resource key
 * and the field is the path below it, as the real API reports them).
 */

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const keyOf = (p: PropertyKey | { readonly key: PropertyKey }): string => String(typeof p === "object" ? p.key : p)

const escape = (s: string): string => s.replace(/~/g, "~0").replace(/\//g, "~1")

export const INVALID_JSON_MESSAGE = "Expected a valid JSON body"

export const fromHttpApiSchemaError = (error: HttpApiError.HttpApiSchemaError): PaykitError => {
  const issues = formatter(error.cause.issue).issues
  if (error.kind === "Payload" && issues.some((i) => i.message === INVALID_JSON_MESSAGE)) {
    return new InvalidApiUsage({ status: 400, reason: PROTOCOL_REASONS.invalidJson, message: "The request body is not valid JSON" })
  }
  const isBody = error.kind === "Payload" || error.kind === "Body"
  const items: Array<FieldError> = issues.map((issue) => {
    const path = (issue.path ?? []).map(keyOf)
    const fieldPath = isBody ? path.slice(1) : path
    return {
      field: fieldPath.join("."),
      message: issue.message,
      request_pointer: path.length === 0 ? "" : path.map((s) => `/${escape(s)}`).join(""),
      reason: "validation_failed"
    }
  })
  return validationFailed(items)
}
