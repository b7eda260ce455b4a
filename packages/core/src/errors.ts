import { Effect, Schema, type SchemaIssue } from "effect"
import { issueMessages } from "./issue-messages.ts"
import { VALIDATION_ERRORS_LISTED_MAX } from "./limits.ts"

/**
 * The one error model of the engine. Every rule failure is one of these typed values; the HTTP
 * adapter renders them 1:1 onto the specification's error body with `renderError`.
 */

/** One item of a `validation_failed` error: which field, why, and where in the request. */
export const FieldError = Schema.Struct({
  field: Schema.String,
  message: Schema.String,
  request_pointer: Schema.String,
  reason: Schema.String
})
export type FieldError = typeof FieldError.Type

/** The reason given to field errors that carry no more specific one. */
export const VALIDATION_FAILED_REASON = "validation_failed"

export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  errors: Schema.Array(FieldError)
}) {
  override get message(): string {
    return "Validation failed"
  }
}

/** The reasons of a 401 for a bad access token (spec: Authentication). */
export const ACCESS_TOKEN_REASONS = ["access_token_not_found", "access_token_revoked", "access_token_not_active"] as const
export type AccessTokenReason = (typeof ACCESS_TOKEN_REASONS)[number]

export class InvalidState extends Schema.TaggedError<InvalidState>()("InvalidState", {
  reason: Schema.String,
  message: Schema.String,
  links: Schema.optionalKey(Schema.Record(Schema.String, Schema.String))
}) {}

export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  resource: Schema.String,
  id: Schema.String
}) {
  override get message(): string {
    return `Resource not found: ${this.resource} ${this.id}`
  }
}

/**
 * Misuse of the API: a bad or revoked token (status 401, with one of `ACCESS_TOKEN_REASONS`), a
 * malformed body or header (400), a route that does not exist (404), and the like.
 */
export class InvalidApiUsage extends Schema.TaggedError<InvalidApiUsage>()("InvalidApiUsage", {
  reason: Schema.String,
  message: Schema.String,
  status: Schema.Literals([400, 401, 404, 405, 406, 408, 409, 410, 413, 415, 431])
}) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  reason: Schema.String,
  message: Schema.String
}) {}

export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  limit: Schema.Int,
  /** Epoch milliseconds at which the window resets. */
  resetAtMillis: Schema.Number
}) {
  override get message(): string {
    return `Rate limit exceeded: ${this.limit} requests per minute`
  }
}

/** The reason of a `FeatureNotInstalled` answer (its anchor on the docs page). */
export const FEATURE_NOT_INSTALLED_REASON = "feature_not_installed"

/**
 * A feature whose optional npm packages the embedding app has not installed (the engine loads
 * them on first use): the answer names the packages to install, the rest of the engine works.
 */
export class FeatureNotInstalled extends Schema.TaggedError<FeatureNotInstalled>()("FeatureNotInstalled", {
  feature: Schema.String,
  packages: Schema.Array(Schema.String)
}) {
  override get message(): string {
    const what = this.packages.length === 1 ? "package" : "packages"
    return `${this.feature} need the optional ${what} ${this.packages.join(", ")}, not installed here: npm install ${this.packages.join(" ")}`
  }
}

/**
 * The storage failed: the database could not be reached or refused a statement (a connection lost,
 * a serialization failure, a deadlock, a constraint the rules should have kept, a table missing).
 * `retryable` says whether sending the same operation again may succeed: serialization failures,
 * deadlocks, lock and statement timeouts and lost connections are; the rest is not. Nothing the
 * failed operation wrote was kept (its writes are one transaction). `operation` names what the
 * store was doing (`insert creditors`, `commit`, `connect`); `cause` is the driver's error, for
 * logs, never for the API's answer.
 */
export class StorageError extends Schema.TaggedError<StorageError>()("StorageError", {
  operation: Schema.String,
  retryable: Schema.Boolean,
  cause: Schema.Defect()
}) {
  override get message(): string {
    return `Storage failed (${this.operation})${this.retryable ? ", retryable" : ""}: ${describeCause(this.cause)}`
  }
}

const describeCause = (cause: unknown): string =>
  cause instanceof Error ? cause.message : typeof cause === "string" ? cause : "unknown cause"

/**
 * An insert reused an id that already exists: a conflict on an id the caller chose, else a bug in
 * the id generator (a store re-used by a process whose generator starts again where another's did).
 */
export class DuplicateId extends Schema.TaggedError<DuplicateId>()("DuplicateId", {
  resource: Schema.String,
  id: Schema.String
}) {
  override get message(): string {
    return `${this.resource} ${this.id} exists already`
  }
}

/** What any operation that reads or writes storage can fail with besides its rules' errors. */
export type StorageFailure = StorageError | DuplicateId

export const isStorageFailure = (u: unknown): u is StorageFailure => u instanceof StorageError || u instanceof DuplicateId

/**
 * A storage fault or a taken id that a rule let through as a defect, typed again. Rules `orDie`
 * what their own invariants rule out (a linked resource missing, a lost race they never expect);
 * a storage failure met on such a path is still the storage's, and the caller can retry a
 * retryable one, so every operation's boundary types it (the engine's unit of work, its simulator).
 */
export const typedStorageFailures = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | StorageFailure, R> =>
  Effect.catchDefect(effect, (defect) => isStorageFailure(defect) ? Effect.fail(defect) : Effect.die(defect))

export type PaykitError =
  | ValidationFailed
  | InvalidState
  | NotFound
  | InvalidApiUsage
  | Forbidden
  | RateLimited
  | FeatureNotInstalled
  | StorageError
  | DuplicateId

/**
 * What an engine operation on stored resources can fail with: a bad command, a refused move, a
 * missing resource, and the storage's own failures (`StorageFailure`).
 */
export type OperationError = ValidationFailed | InvalidState | NotFound | StorageFailure

export const isPaykitError = (u: unknown): u is PaykitError =>
  u instanceof ValidationFailed || u instanceof InvalidState || u instanceof NotFound ||
  u instanceof InvalidApiUsage || u instanceof Forbidden || u instanceof RateLimited || u instanceof FeatureNotInstalled ||
  isStorageFailure(u)

// ---------------------------------------------------------------------------------------------
// Building validation errors

const escapePointerSegment = (s: string): string => s.replace(/~/g, "~0").replace(/\//g, "~1")

/** A JSON pointer (RFC 6901) below the resource key, e.g. `/subscriptions/metadata`. */
export const requestPointer = (root: string, path: ReadonlyArray<PropertyKey>): string =>
  [root, ...path.map(String)].map(escapePointerSegment).map((s) => `/${s}`).join("")

/** The field name the real API reports: the path joined by dots (`links.mandate`). */
export const fieldName = (path: ReadonlyArray<PropertyKey>): string => path.map(String).join(".")

/** One field error at `path` below `root` (the resource key of the request body). */
export const fieldError = (
  root: string,
  path: ReadonlyArray<PropertyKey>,
  message: string,
  reason: string = VALIDATION_FAILED_REASON
): FieldError => ({ field: fieldName(path), message, request_pointer: requestPointer(root, path), reason })

export const validationFailed = (errors: ReadonlyArray<FieldError>): ValidationFailed =>
  new ValidationFailed({ errors: [...errors] })

/** A single-field `ValidationFailed`. */
export const invalidField = (
  root: string,
  path: ReadonlyArray<PropertyKey>,
  message: string,
  reason?: string
): ValidationFailed => validationFailed([fieldError(root, path, message, reason)])

/**
 * A field error another use case reported under `fromRoot`, moved to where the caller gave that
 * field: below `toRoot` at `toPath` (pointer and dotted field name both). Errors under any other
 * root are left as they are.
 */
export const movedFieldError = (fromRoot: string, toRoot: string, toPath: ReadonlyArray<string>) => (e: FieldError): FieldError => {
  const from = `/${escapePointerSegment(fromRoot)}`
  if (e.request_pointer !== from && !e.request_pointer.startsWith(`${from}/`)) return e
  return {
    ...e,
    request_pointer: `${requestPointer(toRoot, toPath)}${e.request_pointer.slice(from.length)}`,
    field: [...toPath, ...(e.field === "" ? [] : [e.field])].join(".")
  }
}

/** A `ValidationFailed` with its field errors moved as `movedFieldError` does; any other error as it is. */
export const movedFieldErrors = <E>(error: E, fromRoot: string, toRoot: string, toPath: ReadonlyArray<string>): E | ValidationFailed =>
  error instanceof ValidationFailed ? new ValidationFailed({ errors: error.errors.map(movedFieldError(fromRoot, toRoot, toPath)) }) : error

/**
 * Turns a Schema decoding issue into a `ValidationFailed` whose items name each failing field and
 * its JSON pointer below `root`, with a message for people (`issueMessages`). Every input is
 * decoded by a Schema; this is the one place where Schema's issues become the API's errors.
 */
export const fromSchemaIssue = (root: string, issue: SchemaIssue.Issue): ValidationFailed =>
  validationFailed(issueMessages(issue).map((i) => fieldError(root, i.path, i.message)))

// ---------------------------------------------------------------------------------------------
// Rendering

export interface ErrorItemBody {
  readonly reason: string
  readonly message: string
  readonly field?: string
  readonly request_pointer?: string
  readonly links?: Readonly<Record<string, string>>
  readonly metadata?: Readonly<Record<string, unknown>>
}

export interface ErrorBody {
  readonly error: {
    readonly code: number
    readonly type: "validation_failed" | "invalid_state" | "invalid_api_usage" | "gocardless"
    readonly message: string
    readonly errors: ReadonlyArray<ErrorItemBody>
    readonly documentation_url: string
    readonly request_id: string
  }
}

/** Reasons of `invalid_state` that the real API answers with 409 Conflict rather than 422. */
export const CONFLICT_REASONS: ReadonlySet<string> = new Set(["idempotent_creation_conflict", "conflict"])

/** The page every `documentation_url` points into (`error-reasons.ts` lists what it holds); the reason is the fragment. */
export const DOCUMENTATION_PATH = "/docs"

export interface RenderOptions {
  readonly requestId: string
  /** Base of `documentation_url`; the reason is appended as a fragment. */
  readonly documentationBase?: string
}

/** The HTTP status an error is answered with. */
export const httpStatusOf = (error: PaykitError): number => {
  switch (error._tag) {
    case "ValidationFailed":
      return 422
    case "InvalidState":
      return CONFLICT_REASONS.has(error.reason) ? 409 : 422
    case "NotFound":
      return 404
    case "InvalidApiUsage":
      return error.status
    case "Forbidden":
      return 403
    case "RateLimited":
      return 429
    case "FeatureNotInstalled":
      // Not Implemented: this server lacks the feature; the request itself is well formed.
      return 501
    case "StorageError":
      // Nothing was kept (one transaction): a retryable fault is the service briefly unavailable.
      return error.retryable ? 503 : 500
    case "DuplicateId":
      // Every id the API hands out is the engine's own: a taken one is the server's fault.
      return 500
  }
}

/** A 422's message: its one error, or how many there are, with how many are not listed (past `VALIDATION_ERRORS_LISTED_MAX`). */
const validationMessage = (errors: ReadonlyArray<FieldError>): string => {
  const [only] = errors
  if (errors.length === 1 && only !== undefined) return `${only.field === "" ? "Request" : only.field} ${only.message}`.trim()
  const unlisted = errors.length - VALIDATION_ERRORS_LISTED_MAX
  return unlisted > 0
    ? `Validation failed: ${errors.length} errors, the first ${VALIDATION_ERRORS_LISTED_MAX} listed and ${unlisted} more not listed`
    : "Validation failed"
}

/** Renders any engine error as the specification's error body. */
export const renderError = (error: PaykitError, options: RenderOptions): ErrorBody => {
  const base = options.documentationBase ?? DOCUMENTATION_PATH
  const code = httpStatusOf(error)
  const body = (
    type: ErrorBody["error"]["type"],
    message: string,
    errors: ReadonlyArray<ErrorItemBody>,
    anchor: string
  ): ErrorBody => ({
    error: {
      code,
      type,
      message,
      errors,
      documentation_url: `${base}#${anchor}`,
      request_id: options.requestId
    }
  })
  switch (error._tag) {
    case "ValidationFailed": {
      const listed = error.errors.slice(0, VALIDATION_ERRORS_LISTED_MAX)
      return body(
        "validation_failed",
        validationMessage(error.errors),
        listed.map((e) => ({ field: e.field, message: e.message, request_pointer: e.request_pointer, reason: e.reason })),
        "validation_failed"
      )
    }
    case "InvalidState":
      return body(
        "invalid_state",
        error.message,
        [{ reason: error.reason, message: error.message, ...(error.links === undefined ? {} : { links: error.links }) }],
        error.reason
      )
    case "NotFound":
      return body("invalid_api_usage", error.message, [{ reason: "resource_not_found", message: error.message }], "resource_not_found")
    case "InvalidApiUsage":
      return body("invalid_api_usage", error.message, [{ reason: error.reason, message: error.message }], error.reason)
    case "Forbidden":
      return body("invalid_api_usage", error.message, [{ reason: error.reason, message: error.message }], error.reason)
    case "RateLimited":
      return body("invalid_api_usage", error.message, [{ reason: "rate_limit_exceeded", message: error.message }], "rate_limit_exceeded")
    case "FeatureNotInstalled":
      return body("gocardless", error.message, [{ reason: FEATURE_NOT_INSTALLED_REASON, message: error.message }], FEATURE_NOT_INSTALLED_REASON)
    case "StorageError":
    case "DuplicateId": {
      // The cause stays in the server's log: the answer says only whether to retry.
      const [reason, message] = code === 503
        ? ["service_unavailable", "The service is unavailable: retry later"]
        : ["internal_server_error", "Internal server error"]
      return body("gocardless", message, [{ reason, message }], reason)
    }
  }
}
