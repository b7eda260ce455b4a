import type { OpenApi } from "effect/http-api"
import { API_VERSION, ERROR_REASONS, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "@paykit/core"
import { IDEMPOTENCY_KEY_MAX_LENGTH } from "../idempotency.ts"
import type { Route } from "../routes.ts"
import { type DescriptionSource, fieldText, singularWords } from "./field-text.ts"
import { operationErrors } from "./operation-errors.ts"
import { operationDescription, operationKind, operationSummary } from "./operation-text.ts"

/**
 * The OpenAPI document as a developer reads it, refined from what `OpenApi.fromApi` derives from
 * the routes' Schemas: every operation with a summary and a description, every field and
 * parameter with a description (`field-text.ts` says where each comes from), the headers of the
 * protocol declared (`GoCardless-Version`, `Idempotency-Key`, `Location`, `RateLimit-*`), each
 * operation's own errors with their reasons (`operation-errors.ts`), and the Schema's internals
 * replaced by what the wire carries (amounts are integers in minor units, not "number or
 * Infinity"; no ±2^53 bounds on integers; `limit` with its real bounds).
 */

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const MAX_SAFE = Number.MAX_SAFE_INTEGER

/** How many descriptions came from each source, for the docs and the tests. */
export type DescriptionCounts = Record<DescriptionSource, number>

/** A schema with what the Schema library adds for itself removed: safe-integer bounds, one-member unions. */
const cleanSchema = (schema: Json): Json => {
  const out: Json = isLeakedNumber(schema) ? asInteger(schema, false) : { ...schema }
  if (out["minimum"] === -MAX_SAFE) delete out["minimum"]
  if (out["maximum"] === MAX_SAFE) delete out["maximum"]
  const union = out["anyOf"]
  if (Array.isArray(union) && union.length === 1 && isObject(union[0])) {
    delete out["anyOf"]
    return { ...union[0], ...out }
  }
  return out
}

const isNonFinite = (schema: unknown): boolean => isObject(schema) && Array.isArray(schema["enum"]) && schema["enum"].includes("Infinity")

/**
 * Whether a schema is the encoded side of a `Schema.Number` (`number`, or the strings "Infinity",
 * "-Infinity", "NaN"): amounts, counts and intervals, which the API reads as integers.
 */
const isLeakedNumber = (schema: Json): boolean => {
  const union = schema["anyOf"]
  return Array.isArray(union) && union.some((s) => isObject(s) && s["type"] === "number") && union.some(isNonFinite)
}

/** An integer, or its decimal string where the Schema takes strings too (the spec: a field typed "string | integer" accepts either). */
const DIGITS = { type: "string", pattern: "^-?[0-9]+$" }

/** The wire form of a leaked number: an integer, or its digits; the other alternatives (a duration's string) kept. */
const asInteger = (schema: Json, positive: boolean): Json => {
  const union = Array.isArray(schema["anyOf"]) ? schema["anyOf"] : []
  const integer = { type: "integer", ...(positive ? { minimum: 1 } : {}) }
  const rest = union.filter((s) => !isNonFinite(s) && !(isObject(s) && s["type"] === "number"))
    .map((s) => isObject(s) && s["type"] === "string" && s["pattern"] === undefined && s["enum"] === undefined ? DIGITS : s)
  const { anyOf: _replaced, ...own } = schema
  return rest.length === 0 ? { ...own, ...integer } : { ...own, anyOf: [integer, ...rest] }
}

/** A component that is a leaked number: an amount in minor units, or a whole number. */
const integerComponent = (name: string, schema: Json): Json => ({
  ...asInteger(schema, name.startsWith("Positive")),
  description: name.includes("Amount")
    ? "An amount in the lowest denomination of the currency (pence, cents): an integer, or its decimal string (the official client sends strings)."
    : "A whole number, or its decimal string."
})

interface Walk {
  readonly resolve: (schema: unknown) => Json
  readonly counts: DescriptionCounts
}

const shapeOf = (schema: Json, resolve: (s: unknown) => Json) => {
  const alternatives = Array.isArray(schema["anyOf"]) ? schema["anyOf"].map(resolve) : [resolve(schema)]
  const main = alternatives.find((s) => s["type"] !== "null") ?? {}
  const values = main["enum"]
  return {
    ...(Array.isArray(values) ? { enum: values } : {}),
    ...(typeof main["type"] === "string" ? { type: main["type"] } : {})
  }
}

/** Every property of `schema` (and below) described, `path` its dotted names under `resource`. */
const describeSchema = (schema: unknown, resource: string, path: ReadonlyArray<string>, walk: Walk): unknown => {
  if (Array.isArray(schema)) return schema.map((s) => describeSchema(s, resource, path, walk))
  if (!isObject(schema)) return schema
  const out = cleanSchema(schema)
  for (const key of ["items", "additionalProperties"] as const) {
    if (isObject(out[key])) out[key] = describeSchema(out[key], resource, path, walk)
  }
  if (Array.isArray(out["anyOf"])) out["anyOf"] = out["anyOf"].map((s) => describeSchema(s, resource, path, walk))
  if (isObject(out["properties"])) {
    out["properties"] = Object.fromEntries(Object.entries(out["properties"]).map(([name, property]) => {
      const inner = describeSchema(property, resource, [...path, name], walk)
      if (!isObject(inner) || typeof inner["description"] === "string") return [name, inner]
      const text = fieldText(resource, [...path, name], shapeOf(inner, walk.resolve))
      walk.counts[text.source]++
      return [name, { ...inner, description: text.text }]
    }))
  }
  return out
}

/** The envelope's key (`{"payments": {...}}`) and its content: fields are described under the resource they belong to. */
const describeEnvelope = (schema: unknown, fallbackKey: string, walk: Walk): unknown => {
  const resolved = walk.resolve(schema)
  const properties = isObject(resolved["properties"]) ? Object.keys(resolved["properties"]) : []
  const key = properties.find((p) => p !== "meta" && p !== "linked" && p !== "data") ?? fallbackKey
  return describeSchema(schema, key, [], walk)
}

const mapContent = (content: unknown, f: (schema: unknown) => unknown): unknown => {
  if (!isObject(content) || !isObject(content["application/json"])) return content
  const json = content["application/json"]
  return { ...content, "application/json": { ...json, schema: f(json["schema"]) } }
}

const VERSION_HEADER = {
  name: "GoCardless-Version",
  in: "header",
  required: true,
  description: `The version of the API the request is written against: this server serves ${API_VERSION}. Missing: 400 \`missing_version_header\`; another: 400 \`version_not_found\`.`,
  schema: { type: "string", enum: [API_VERSION] }
}

const IDEMPOTENCY_HEADER = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description: "A key of your choosing for this creation: a retry with the same key answers what the first created instead of creating it again (409 `idempotent_creation_conflict` names it). The official client sends one of its own when none is given.",
  schema: { type: "string", minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH }
}

const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": { description: "Requests allowed per minute in this endpoint's rate-limit group.", schema: { type: "integer" } },
  "RateLimit-Remaining": { description: "Requests left in the current minute.", schema: { type: "integer" } },
  "RateLimit-Reset": { description: "Seconds until the current window resets.", schema: { type: "integer" } }
}

const RANGE = /^(.+)\[(gt|gte|lt|lte)\]$/

const RANGE_WORDS: Readonly<Record<string, string>> = { gt: "after", gte: "at or after", lt: "before", lte: "at or before" }

/** A query parameter's schema and description: typed by its name and by the resource's field of the same name. */
const queryParameter = (parameter: Json, resource: string, item: Json, walk: Walk): Json => {
  const name = String(parameter["name"])
  const range = RANGE.exec(name)
  if (name === "limit") {
    return { ...parameter, description: `Number of items on a page: 1 to ${PAGE_SIZE_MAX}, ${PAGE_SIZE_DEFAULT} when not given.`, schema: { type: "integer", minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT } }
  }
  if (name === "before" || name === "after") {
    return { ...parameter, description: `Cursor: the items ${name} this one (an id from \`meta.cursors.${name}\` of a page).`, schema: { type: "string" } }
  }
  if (range !== null) {
    const field = range[1] ?? ""
    const format = field.endsWith("_at") ? "date-time" : "date"
    return { ...parameter, description: `Only items whose \`${field}\` is ${RANGE_WORDS[range[2] ?? ""] ?? ""} this ${format === "date" ? "date (YYYY-MM-DD)" : "ISO 8601 date-time"}.`, schema: { type: "string", format } }
  }
  if (name.includes("[")) {
    return { ...parameter, description: `Only items whose \`${name.slice(0, name.indexOf("["))}\` has this value under that key.`, schema: { type: "string" } }
  }
  const properties = isObject(item["properties"]) ? item["properties"] : {}
  const own = properties[name] === undefined ? {} : shapeOf(walk.resolve(properties[name]), walk.resolve)
  const nested = Object.keys(properties).length > 0 && isObject(walk.resolve(properties[name])["properties"])
  const text = nested
    ? { text: `Range filter on \`${name}\`: send its bounds as \`${name}[gt]\`, \`${name}[gte]\`, \`${name}[lt]\` or \`${name}[lte]\`.`, source: "derived" as const }
    : fieldText(resource, [name], own)
  walk.counts[text.source]++
  const schema = own.enum !== undefined ? { type: "string", enum: own.enum } : own.type === "boolean" ? { type: "boolean" } : { type: "string" }
  return { ...parameter, description: `Filter: ${text.text}`, schema }
}

/** The resource Schema of a list's items (its page's array), to type the list's filters by. */
const listItemOf = (responses: Json, key: string, walk: Walk): Json => {
  const ok = isObject(responses["200"]) ? responses["200"] : {}
  const content = isObject(ok["content"]) && isObject(ok["content"]["application/json"]) ? ok["content"]["application/json"] : {}
  const page = walk.resolve(content["schema"])
  const list = isObject(page["properties"]) ? walk.resolve(page["properties"][key]) : {}
  return walk.resolve(list["items"])
}

const reasonList = (reasons: ReadonlyArray<string>): string => reasons.map((r) => `\`${r}\``).join(", ")

const errorResponses = (route: Route, hasQuery: boolean, hasBody: boolean): Json =>
  Object.fromEntries([...operationErrors(route, hasQuery, hasBody)].map(([status, reasons]) => [String(status), {
    description: `Error: ${reasonList(reasons)}. Each reason is explained in the error catalogue of /docs.`,
    ...(status === 429 ? { headers: { ...RATE_LIMIT_HEADERS, "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } } } } : {}),
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    "x-paykit-reasons": reasons.filter((r) => r in ERROR_REASONS)
  }]))

/** The statuses every operation's declaration carries from the gateway (`ERROR_RESPONSES`), replaced by each operation's own. */
const GATEWAY_STATUSES: ReadonlySet<string> = new Set(["400", "401", "403", "404", "409", "422", "429"])

/**
 * Errors an endpoint declares of its own (a payout's items answer 410 when gone), kept, with the
 * reasons of the catalogue that name that status.
 */
const ownErrors = (responses: Json): Json =>
  Object.fromEntries(Object.entries(responses).filter(([status]) => !status.startsWith("2") && !GATEWAY_STATUSES.has(status)).map(([status, response]) => {
    const reasons = Object.entries(ERROR_REASONS).filter(([, entry]) => entry.meaning.includes(`(${status}`)).map(([reason]) => reason)
    return [status, { ...(isObject(response) ? response : {}), description: `Error: ${reasonList(reasons)}.`, "x-paykit-reasons": reasons }]
  }))

const pathParameter = (parameter: Json, resource: string): Json => {
  const name = String(parameter["name"])
  const description = name === "id" ? `ID of the ${singularWords(resource)}.` : `The ${name.replace(/_/g, " ")} of the ${singularWords(resource)}.`
  return { ...parameter, description }
}

const refineOperation = (route: Route, path: string, operation: Json, walk: Walk): Json => {
  const kind = operationKind(route)
  const declared = typeof operation["description"] === "string" ? operation["description"] : undefined
  const responses = isObject(operation["responses"]) ? operation["responses"] : {}
  const item = kind._tag === "List" ? listItemOf(responses, kind.key, walk) : {}
  const parameters = (Array.isArray(operation["parameters"]) ? operation["parameters"] : []).filter(isObject).map((p) =>
    p["in"] === "path" ? pathParameter(p, kind.key) : p["in"] === "query" ? queryParameter(p, kind.key, item, walk) : p
  )
  const hasQuery = parameters.some((p) => p["in"] === "query")
  const requestBody = isObject(operation["requestBody"]) ? operation["requestBody"] : undefined
  const success = Object.fromEntries(Object.entries(responses).filter(([status]) => status.startsWith("2")).map(([status, response]) => {
    const answer = isObject(response) ? response : {}
    const headers = {
      ...(status === "201" && kind._tag === "Create" ? { Location: { description: "The path of the resource created.", schema: { type: "string" } } } : {}),
      ...(route.rateLimit === undefined ? {} : RATE_LIMIT_HEADERS)
    }
    return [status, {
      ...answer,
      description: kind._tag === "List" ? `A page of ${kind.key.replace(/_/g, " ")}.` : `The ${singularWords(kind.key)}.`,
      ...(Object.keys(headers).length === 0 ? {} : { headers }),
      content: mapContent(answer["content"], (schema) => describeEnvelope(schema, kind.key, walk))
    }]
  }))
  return {
    ...operation,
    summary: operationSummary(route),
    description: operationDescription(route, path, declared),
    parameters: [
      ...(route.apiProtocol ? [VERSION_HEADER] : []),
      ...(route.idempotent ? [IDEMPOTENCY_HEADER] : []),
      ...parameters
    ],
    ...(requestBody === undefined ? {} : {
      requestBody: {
        ...requestBody,
        description: `The ${singularWords(kind.key)}'s attributes, wrapped in \`${kind.key}\` (or \`data\` for actions).`,
        content: mapContent(requestBody["content"], (schema) => describeEnvelope(schema, kind.key, walk))
      }
    }),
    responses: { ...success, ...ownErrors(responses), ...errorResponses(route, hasQuery, requestBody !== undefined) }
  }
}

const snake = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase()

const refineComponents = (schemas: Json, walk: Walk): Json =>
  Object.fromEntries(Object.entries(schemas).map(([name, schema]) => {
    if (isObject(schema) && isLeakedNumber(schema)) return [name, integerComponent(name, schema)]
    return [name, describeSchema(schema, `${snake(name)}s`, [], walk)]
  }))

const TAG_TEXT = (tag: string): string => `Endpoints of ${tag.replace(/_/g, " ")}.`

/** The document refined: `routes` are the routes it was made from (`documentedRoutes`). */
export const refineDocument = (spec: OpenApi.OpenAPISpec, routes: ReadonlyArray<Route>): { readonly spec: OpenApi.OpenAPISpec; readonly counts: DescriptionCounts } => {
  const components: Json = isObject(spec.components?.schemas) ? spec.components.schemas : {}
  const resolve = (schema: unknown): Json => {
    if (!isObject(schema)) return {}
    const ref = schema["$ref"]
    return typeof ref === "string" ? resolve(components[ref.replace("#/components/schemas/", "")]) : schema
  }
  const walk: Walk = { resolve, counts: { spec: 0, conventions: 0, glossary: 0, derived: 0 } }
  const paths: Json = { ...spec.paths }
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, "{$1}")
    const method = route.method.toLowerCase()
    const item = paths[path]
    if (!isObject(item) || !isObject(item[method])) continue
    paths[path] = { ...item, [method]: refineOperation(route, path, item[method], walk) }
  }
  const refined = {
    ...spec,
    info: { ...spec.info, license: { name: "MIT", identifier: "MIT" } },
    paths,
    components: {
      ...spec.components,
      schemas: refineComponents(components, walk),
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "`Authorization: Bearer <access token>`: a token of the organisation (minted by the server, or issued to a partner app by OAuth)." }
      }
    },
    tags: spec.tags.map((tag) => ({ ...tag, description: tag.description ?? TAG_TEXT(tag.name) }))
  }
  return { spec: refined as unknown as OpenApi.OpenAPISpec, counts: walk.counts }
}
