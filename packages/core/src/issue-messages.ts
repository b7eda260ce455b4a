import { type SchemaAST, SchemaIssue } from "effect"

/**
 * Schema's issues as English about the field, for people: "must be a positive integer", "must be
 * one of bacs, sepa_core", "is required". Schema's own formatter names types by their identifier
 * ("Expected PositiveInteger", "Expected Metadata | null", "Missing key"); the API never shows
 * those. A field's own `message` annotation, when it has one, is used as it is.
 */

export interface IssueMessage {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

export const REQUIRED_MESSAGE = "is required"
export const INVALID_MESSAGE = "is invalid"
export const UNKNOWN_FIELD_MESSAGE = "is not a known field"

type Annotations = { readonly [key: string]: unknown } | undefined

const stringAnnotation = (annotations: Annotations, key: string): string | undefined => {
  const value = annotations?.[key]
  return typeof value === "string" ? value : undefined
}

/** The `expected` of the first check that has one: checks say best what a refined type wants. */
const expectedOfChecks = (checks: SchemaAST.Checks | undefined): string | undefined => {
  for (const check of checks ?? []) {
    const expected = stringAnnotation(check.annotations, "expected")
    if (expected !== undefined) return expected
  }
  return undefined
}

const literalsOf = (ast: SchemaAST.AST): ReadonlyArray<string> | undefined => {
  if (ast._tag === "Literal") return [String(ast.literal)]
  if (ast._tag === "Enum") return ast.enums.map(([, v]) => String(v))
  if (ast._tag !== "Union") return undefined
  const all: Array<string> = []
  for (const member of ast.types) {
    const literals = literalsOf(member)
    if (literals === undefined) return undefined
    all.push(...literals)
  }
  return all
}

/** What a value of `ast` is, as a noun phrase: "a string", "one of bacs, sepa_core", "an object or null". */
export const describeAst = (ast: SchemaAST.AST): string => {
  const expected = expectedOfChecks(ast.checks)
  if (expected !== undefined) return expected
  const literals = literalsOf(ast)
  if (literals !== undefined) return literals.length === 1 ? `${literals[0]}` : `one of ${literals.join(", ")}`
  switch (ast._tag) {
    case "String":
    case "TemplateLiteral":
      return "a string"
    case "Number":
      return "a number"
    case "Boolean":
      return "true or false"
    case "Null":
      return "null"
    case "Objects":
    case "ObjectKeyword":
      return "an object"
    case "Arrays":
      return "a list"
    case "Suspend":
      return describeAst(ast.thunk())
    case "Union":
      return [...new Set(ast.types.map(describeAst))].join(" or ")
    default:
      return "a valid value"
  }
}

const ownMessage = (issue: SchemaIssue.Leaf): string | undefined => {
  const annotations: Annotations = "annotations" in issue && issue.annotations !== undefined
    ? issue.annotations
    : "ast" in issue
    ? issue.ast.annotations
    : undefined
  const key = issue._tag === "MissingKey" ? "messageMissingKey" : issue._tag === "UnexpectedKey" ? "messageUnexpectedKey" : "message"
  return stringAnnotation(annotations, key)
}

const leafMessage = (issue: SchemaIssue.Leaf): string => {
  const own = ownMessage(issue)
  if (own !== undefined) return own
  switch (issue._tag) {
    case "InvalidType":
      return `must be ${describeAst(issue.ast)}`
    case "MissingKey":
      return REQUIRED_MESSAGE
    case "UnexpectedKey":
      return UNKNOWN_FIELD_MESSAGE
    case "InvalidValue": {
      const expected = stringAnnotation(issue.annotations, "expected")
      return expected === undefined ? INVALID_MESSAGE : `must be ${expected}`
    }
    case "Forbidden":
      return INVALID_MESSAGE
    case "OneOf":
      return "matches more than one of the accepted forms"
  }
}

/**
 * A refinement's message for everything below it: its own, else its failure's own; a bare
 * failure (`InvalidValue`) without one says what was expected. Undefined lets the issues below
 * speak for themselves (a refinement of a struct that names its fields).
 */
const filterMessage = (issue: SchemaIssue.Filter): string | undefined => {
  const inner = issue.issue
  const own = stringAnnotation(issue.filter.annotations, "message") ??
    (inner._tag === "InvalidValue" || inner._tag === "InvalidType" ? ownMessage(inner) : undefined)
  if (own !== undefined || inner._tag !== "InvalidValue") return own
  const expected = stringAnnotation(inner.annotations, "expected") ?? stringAnnotation(issue.filter.annotations, "expected")
  return expected === undefined ? INVALID_MESSAGE : `must be ${expected}`
}

/** Every failing field of `issue` with its message; `override` is a refinement's message for all below it. */
export const issueMessages = (
  issue: SchemaIssue.Issue,
  path: ReadonlyArray<PropertyKey> = [],
  override?: string
): ReadonlyArray<IssueMessage> => {
  switch (issue._tag) {
    case "Filter":
      return issueMessages(issue.issue, path, override ?? filterMessage(issue))
    case "Encoding":
      return issueMessages(issue.issue, path, override)
    case "Pointer":
      return issueMessages(issue.issue, [...path, ...issue.path], override)
    case "Composite":
      return issue.issues.flatMap((i) => issueMessages(i, path, override))
    case "AnyOf":
      return issue.issues.length > 0
        ? issue.issues.flatMap((i) => issueMessages(i, path, override))
        : [{ path, message: override ?? stringAnnotation(issue.ast.annotations, "message") ?? `must be ${describeAst(issue.ast)}` }]
    default:
      return [{ path, message: override ?? leafMessage(issue) }]
  }
}
