import type { Route } from "../routes.ts"
import { singularWords } from "./field-text.ts"
import { REFERENCE_SOURCES } from "./reference-sources.ts"

/**
 * The summary and description of an operation, made from its route (its method, its path, its
 * name in the room) and, where the API reference has a row for it in its endpoint tables, that
 * row's words. A route added to a room is described by the same rules, with nothing to write.
 */

const SPEC_OPERATIONS: Readonly<Record<string, { readonly text: string }>> = REFERENCE_SOURCES.operations

const words = (name: string): string => name.replace(/_/g, " ")
const capitalised = (s: string): string => `${s.charAt(0).toUpperCase()}${s.slice(1)}`
const article = (noun: string): string => /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`

/** What an operation does, read from its method and path. */
export type OperationKind =
  | { readonly _tag: "List"; readonly key: string }
  | { readonly _tag: "Get"; readonly key: string }
  | { readonly _tag: "Create"; readonly key: string }
  | { readonly _tag: "Update"; readonly key: string }
  | { readonly _tag: "Action"; readonly key: string; readonly action: string }
  | { readonly _tag: "Other"; readonly key: string }

export const operationKind = (route: Pick<Route, "method" | "path">): OperationKind => {
  const parts = route.path.split("/").slice(1)
  const key = parts[0] ?? ""
  const withId = parts.length === 2 && (parts[1] ?? "").startsWith(":")
  if (route.method === "GET" && parts.length === 1) return { _tag: "List", key }
  if (route.method === "GET" && withId) return { _tag: "Get", key }
  if (route.method === "POST" && parts.length === 1) return { _tag: "Create", key }
  if (route.method === "PUT" && withId) return { _tag: "Update", key }
  if (route.method === "POST" && parts.length === 4 && parts[2] === "actions") return { _tag: "Action", key, action: parts[3] ?? "" }
  return { _tag: "Other", key }
}

/** The last fixed segment of a path (`/creditors/:id/payout_holds` → "payout holds"). */
const lastSegment = (path: string): string => words(path.split("/").filter((p) => p !== "" && !p.startsWith(":")).at(-1) ?? "")

export const operationSummary = (route: Route): string => {
  const kind = operationKind(route)
  const one = singularWords(kind.key)
  switch (kind._tag) {
    case "List": return `List ${words(kind.key)}`
    case "Get": return `Get ${article(one)}`
    case "Create": return `Create ${article(one)}`
    case "Update": return `Update ${article(one)}`
    case "Action": return `${capitalised(words(kind.action))} ${article(one)}`
    case "Other": {
      const verb = route.method === "GET" ? "Get" : route.method === "DELETE" ? "Delete" : route.method === "PUT" ? "Set" : "Post"
      const target = lastSegment(route.path)
      return route.path.includes("/:") ? `${verb} the ${target} of ${article(one)}` : `${verb} ${target}`
    }
  }
}

const generatedDescription = (route: Route): string => {
  const kind = operationKind(route)
  const one = singularWords(kind.key)
  switch (kind._tag) {
    case "List":
      return `Returns a cursor-paginated list of the organisation's ${words(kind.key)}. Page with \`before\`, \`after\` and \`limit\`; any query parameter not listed is refused with 400 \`invalid_filters\`.`
    case "Get": return `Retrieves the ${one} with the given ID.`
    case "Create":
      return `Creates ${article(one)}.${route.idempotent ? " Send an `Idempotency-Key` header: a retry with the same key does not create it twice, and a new request with a used key answers 409 `idempotent_creation_conflict` naming what it created." : ""}`
    case "Update": return `Updates the ${one}: only the fields sent change.`
    case "Action": return `Runs the \`${kind.action}\` action on the ${one}, which its status must allow (otherwise 422 with the reason).`
    case "Other": return `${operationSummary(route)}.`
  }
}

/** The description: the reference's own row when it has one, the route's own words (annotations), then what the route's shape says. */
export const operationDescription = (route: Route, documentPath: string, declared: string | undefined): string => {
  const spec = SPEC_OPERATIONS[`${route.method} ${documentPath}`]
  const parts = [
    declared,
    generatedDescription(route),
    spec === undefined ? undefined : `From the API reference: ${spec.text}`
  ]
  return parts.filter((p): p is string => p !== undefined && p !== "").join("\n\n")
}
