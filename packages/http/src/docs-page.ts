import type { OpenApi } from "effect/http-api"
import { API_VERSION, ERROR_REASONS, ERROR_TYPES } from "@paykit/core"
import { SCENARIO_CATALOGUE, SCENARIO_NAMES } from "@paykit/engine"
import { DOCS_SCRIPT, DOCS_STYLE } from "./docs-assets.ts"
import { clientSample, curlSample } from "./openapi/samples.ts"
import { REFERENCE_SOURCES } from "./openapi/reference-sources.ts"
import { operationAnchor } from "./reference.ts"
import { testValuesContent } from "./test-values.ts"

/**
 * The human docs page: every operation of the OpenAPI document (`openApiDocument`, what
 * `/openapi.json` answers) with its parameters, body fields, response fields and the error statuses
 * it can answer with their reasons, a curl and a `gocardless-nodejs` sample, each under its own
 * anchor, grouped by resource with a sidebar; the events' causes, the scenario simulators, and
 * the error catalogue, each reason under its own anchor (the fragment of `documentation_url`).
 * Each operation's body is a closed `<details>`, so the first screen is its summaries, not
 * 400,000 pixels of tables. Self-contained HTML (no CDN); the one script adds the search over
 * operations, fields, events, scenarios and reasons, and opens the operation a link names: the
 * page works without it.
 */

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

type Json = Readonly<Record<string, unknown>>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const METHODS = ["get", "post", "put", "patch", "delete"] as const

/** A field of a body or a response: its dotted name, type, whether required, its limits. */
interface Field {
  readonly name: string
  readonly type: string
  readonly required: boolean
  readonly limits: string
  readonly description: string
}

/** Schemas are nested at most this deep on the page: deeper objects are named, not expanded. */
const MAX_DEPTH = 4

const LIMIT_KEYS = ["minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems", "pattern", "format"] as const

/** Reads a schema through the document's `components.schemas`. */
const resolverOf = (spec: OpenApi.OpenAPISpec) => {
  const components: Json = isObject(spec.components?.schemas) ? spec.components.schemas : {}
  const resolve = (schema: unknown, seen: ReadonlySet<string> = new Set()): Json => {
    if (!isObject(schema)) return {}
    const ref = schema["$ref"]
    if (typeof ref !== "string") return schema
    const name = ref.replace("#/components/schemas/", "")
    return seen.has(name) ? {} : resolve(components[name], new Set([...seen, name]))
  }
  return resolve
}

/** The alternatives of a union (`anyOf`/`oneOf`) other than `null`, or the schema alone. */
const alternatives = (schema: Json): ReadonlyArray<unknown> => {
  const union = schema["anyOf"] ?? schema["oneOf"]
  return Array.isArray(union) ? union : [schema]
}

const typeOf = (schema: Json, resolve: (s: unknown) => Json): string => {
  const parts = alternatives(schema).map((alternative) => {
    const s = resolve(alternative)
    if (Array.isArray(s["enum"])) return `one of ${s["enum"].map((v) => JSON.stringify(v)).join(", ")}`
    if ("const" in s) return JSON.stringify(s["const"])
    if (s["type"] === "array") return `array of ${typeOf(resolve(s["items"]), resolve)}`
    return typeof s["type"] === "string" ? s["type"] : Array.isArray(s["type"]) ? s["type"].join(" or ") : "any"
  })
  return [...new Set(parts)].join(" or ")
}

const limitsOf = (schema: Json, resolve: (s: unknown) => Json): string =>
  alternatives(schema).flatMap((alternative) => {
    const s = resolve(alternative)
    return LIMIT_KEYS.filter((key) => key in s).map((key) => `${key} ${String(s[key])}`)
  }).join(", ")

/** The object schema among a field's alternatives, to expand its own fields. */
const objectOf = (schema: Json, resolve: (s: unknown) => Json): Json | undefined =>
  alternatives(schema).map((alternative) => resolve(alternative)).find((s) => isObject(s["properties"]))

/** Every field of an object schema, nested objects flattened to dotted names. */
const fieldsOf = (schema: Json, resolve: (s: unknown) => Json, prefix = "", depth = 0): ReadonlyArray<Field> => {
  const object = objectOf(schema, resolve)
  if (object === undefined || depth > MAX_DEPTH) return []
  const properties = isObject(object["properties"]) ? object["properties"] : {}
  const required = new Set(Array.isArray(object["required"]) ? object["required"].map(String) : [])
  return Object.entries(properties).flatMap(([key, value]) => {
    const field = resolve(value)
    const name = `${prefix}${key}`
    const description = isObject(value) && typeof value["description"] === "string" ? value["description"] : typeof field["description"] === "string" ? field["description"] : ""
    const own: Field = { name, type: typeOf(field, resolve), required: required.has(key), limits: limitsOf(field, resolve), description }
    return [own, ...fieldsOf(field, resolve, `${name}.`, depth + 1)]
  })
}

const fieldTable = (fields: ReadonlyArray<Field>): string =>
  fields.length === 0
    ? "<p>None.</p>"
    : `<table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${
      fields.map((f) =>
        `<tr><td><code>${escapeHtml(f.name)}</code></td><td>${escapeHtml(f.type)}${f.limits === "" ? "" : `<br><small>${escapeHtml(f.limits)}</small>`}</td><td>${f.required ? "yes" : "no"}</td><td>${escapeHtml(f.description)}</td></tr>`
      ).join("")
    }</tbody></table>`

const jsonSchemaOf = (content: unknown): unknown => {
  if (!isObject(content)) return undefined
  const json = content["application/json"]
  return isObject(json) ? json["schema"] : undefined
}

/** The example recorded from a real call on a body or response (`reference-examples.ts`), if any. */
const recordedOf = (content: unknown): { readonly summary: string; readonly value: unknown } | undefined => {
  const json = isObject(content) ? content["application/json"] : undefined
  const examples = isObject(json) ? json["examples"] : undefined
  const recorded = isObject(examples) ? examples["recorded"] : undefined
  return isObject(recorded) ? { summary: String(recorded["summary"] ?? ""), value: recorded["value"] } : undefined
}

const exampleBlock = (title: string, content: unknown): string => {
  const recorded = recordedOf(content)
  return recorded === undefined
    ? ""
    : `<h4>${escapeHtml(title)}</h4><p><small>${escapeHtml(recorded.summary)}</small></p><pre><code>${escapeHtml(JSON.stringify(recorded.value, null, 2))}</code></pre>`
}

interface Operation {
  readonly operationId?: string
  readonly summary?: string
  readonly description?: string
  readonly tags?: ReadonlyArray<string>
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string; readonly required?: boolean; readonly schema?: unknown; readonly description?: string }>
  readonly requestBody?: { readonly content?: unknown }
  readonly responses?: Readonly<Record<string, { readonly description?: string; readonly content?: unknown; readonly "x-paykit-reasons"?: ReadonlyArray<string> }>>
  readonly "x-paykit-extension"?: boolean
}

const parameterTable = (op: Operation, resolve: (s: unknown) => Json): string => {
  const parameters = op.parameters ?? []
  if (parameters.length === 0) return ""
  const rows = parameters.map((p) => {
    const schema = resolve(p.schema)
    const limits = limitsOf(schema, resolve)
    return `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${escapeHtml(typeOf(schema, resolve))}${limits === "" ? "" : `<br><small>${escapeHtml(limits)}</small>`}</td><td>${p.required === true ? "yes" : "no"}</td><td>${escapeHtml(p.description ?? "")}</td></tr>`
  }).join("")
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`
}

const reasonLinks = (reasons: ReadonlyArray<string>): string =>
  reasons.map((r) => `<a href="#${escapeHtml(r)}"><code>${escapeHtml(r)}</code></a>`).join(", ")

const errorList = (errors: ReadonlyArray<readonly [string, { readonly description?: string; readonly "x-paykit-reasons"?: ReadonlyArray<string> }]>): string =>
  errors.length === 0
    ? ""
    : `<h4>Errors</h4><table><thead><tr><th>Status</th><th>Reasons</th></tr></thead><tbody>${
      errors.map(([status, response]) => `<tr><td><code>${escapeHtml(status)}</code></td><td>${reasonLinks(response["x-paykit-reasons"] ?? [])}</td></tr>`).join("")
    }</tbody></table>`

/** What the search finds an operation by: its method, path, summary, tags and field names. */
const searchTextOf = (method: string, path: string, op: Operation, fields: ReadonlyArray<Field>): string =>
  `${method} ${path} ${op.summary ?? ""} ${(op.tags ?? []).join(" ")} ${(op.parameters ?? []).map((p) => p.name).join(" ")} ${fields.map((f) => f.name).join(" ")}`.toLowerCase()

const METHOD_CLASS: Readonly<Record<string, string>> = { get: "get", post: "post", put: "put", patch: "put", delete: "delete" }

const operationSection = (method: string, path: string, op: Operation, resolve: (s: unknown) => Json, base: string): { readonly html: string; readonly search: string } => {
  const responses = Object.entries(op.responses ?? {})
  const success = responses.filter(([status]) => status.startsWith("2"))
  const errors = responses.filter(([status]) => !status.startsWith("2"))
  const bodyFields = op.requestBody === undefined ? [] : fieldsOf(resolve(jsonSchemaOf(op.requestBody.content)), resolve)
  const body = op.requestBody === undefined
    ? method === "get" ? "" : "<h4>Body fields</h4><p>None: it takes no body.</p>"
    : `<h4>Body fields</h4>${fieldTable(bodyFields)}${exampleBlock("Example request", op.requestBody.content)}`
  const answers = success.map(([status, response]) =>
    `<h4>Response ${escapeHtml(status)} fields</h4>${fieldTable(fieldsOf(resolve(jsonSchemaOf(response.content)), resolve))}${exampleBlock(`Example response ${status}`, response.content)}`
  ).join("")
  const anchor = operationAnchor(method, path)
  const extension = op["x-paykit-extension"] === true ? ` <span class="tag">paykit extension</span>` : ""
  const example = recordedOf(op.requestBody?.content)
  const samples = `<h4>Request samples</h4><div class="samples"><figure><figcaption>curl</figcaption><pre><code>${escapeHtml(curlSample(base, method, path, op, example?.value))}</code></pre></figure>` +
    `<figure><figcaption>gocardless-nodejs</figcaption><pre><code>${escapeHtml(clientSample(method, path, example?.value))}</code></pre></figure></div>`
  const search = searchTextOf(method, path, op, bodyFields)
  return {
    search,
    html: `<section class="op" id="${escapeHtml(anchor)}" data-search="${escapeHtml(search)}"><details><summary><span class="method ${METHOD_CLASS[method] ?? ""}">${method.toUpperCase()}</span> <code>${method.toUpperCase()} ${escapeHtml(path)}</code> <span class="summary">${escapeHtml(op.summary ?? "")}</span>${extension}</summary>
${op.description === undefined ? "" : op.description.split("\n\n").map((p) => `<p>${escapeHtml(p)}</p>`).join("")}${samples}${parameterTable(op, resolve)}${body}${answers}${errorList(errors)}</details></section>`
  }
}

/** The error types, each under the anchor `type-<type>`. */
const errorTypeRows = (): string =>
  Object.entries(ERROR_TYPES).map(([type, meaning]) =>
    `<tr id="type-${escapeHtml(type)}"><td><code>${escapeHtml(type)}</code></td><td>${escapeHtml(meaning)}</td></tr>`
  ).join("")

/** Every reason under its own anchor: the fragment of the `documentation_url` of its errors. */
const reasonRows = (): string =>
  Object.entries(ERROR_REASONS).map(([reason, entry]) =>
    `<tr id="${escapeHtml(reason)}"><td><code>${escapeHtml(reason)}</code></td><td><a href="#type-${escapeHtml(entry.type)}"><code>${escapeHtml(entry.type)}</code></a></td><td>${escapeHtml(entry.meaning)}</td></tr>`
  ).join("")

const EVENT_CAUSES: Readonly<Record<string, { readonly origin: string; readonly description: string }>> = REFERENCE_SOURCES.events

/** The causes of the events the engine records, each under the anchor `event-<cause>`. */
const eventRows = (): string =>
  Object.entries(EVENT_CAUSES).map(([cause, entry]) =>
    `<tr id="event-${escapeHtml(cause)}"><td><code>${escapeHtml(cause)}</code></td><td>${escapeHtml(entry.origin)}</td><td>${escapeHtml(entry.description)}</td></tr>`
  ).join("")

/** The scenario simulators, each under the anchor `scenario-<name>`. */
const scenarioRows = (): string =>
  SCENARIO_NAMES.map((name) => {
    const entry: { readonly collection: string; readonly startsFrom?: ReadonlyArray<string> } = SCENARIO_CATALOGUE[name]
    const from = entry.startsFrom === undefined ? "" : entry.startsFrom.map((s) => `<code>${escapeHtml(s)}</code>`).join(", ")
    return `<tr id="scenario-${escapeHtml(name)}"><td><code>${escapeHtml(name)}</code></td><td><code>${escapeHtml(entry.collection)}</code></td><td>${from}</td></tr>`
  }).join("")

/** The search's entries beyond the operations: each a label, where it is, and its kind. */
const catalogueEntries = (): ReadonlyArray<readonly [string, string, string]> => [
  ...Object.keys(EVENT_CAUSES).map((cause) => [cause, `#event-${cause}`, "event"] as const),
  ...SCENARIO_NAMES.map((name) => [name, `#scenario-${name}`, "scenario"] as const),
  ...Object.keys(ERROR_REASONS).map((reason) => [reason, `#${reason}`, "error reason"] as const)
]

/** A JSON text safe inside `<script>`: `<` escaped, so no `</script>` can close it. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, "\\u003c")

export const renderDocsPage = (spec: OpenApi.OpenAPISpec): string => {
  const resolve = resolverOf(spec)
  const base = spec.servers?.[0]?.url ?? ""
  const byTag = new Map<string, Array<string>>()
  const nav = new Map<string, Array<string>>()
  const index: Array<readonly [string, string, string, string]> = []
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const op: Operation | undefined = (item as Partial<Record<typeof method, Operation>>)[method]
      if (op === undefined) continue
      const tag = op.tags?.[0] ?? "other"
      const section = operationSection(method, path, op, resolve, base)
      const anchor = operationAnchor(method, path)
      byTag.set(tag, [...(byTag.get(tag) ?? []), section.html])
      nav.set(tag, [...(nav.get(tag) ?? []), `<li><a href="#${escapeHtml(anchor)}"><span class="method ${METHOD_CLASS[method] ?? ""}">${method.toUpperCase()}</span> ${escapeHtml(op.summary ?? path)}</a></li>`])
      index.push([`${method.toUpperCase()} ${path} ${op.summary ?? ""}`, `#${anchor}`, "operation", section.search])
    }
  }
  const resources = [...byTag].map(([tag, sections]) =>
    `<section class="resource" id="tag-${escapeHtml(tag.replace(/\W+/g, "-"))}"><h2>${escapeHtml(tag.replace(/_/g, " "))}</h2>${sections.join("\n")}</section>`
  ).join("\n")
  const sidebar = [...nav].map(([tag, links]) =>
    `<li><details><summary>${escapeHtml(tag.replace(/_/g, " "))}</summary><ul>${links.join("")}</ul></details></li>`
  ).join("")
  const searchIndex = [...index, ...catalogueEntries().map(([label, href, kind]) => [label, href, kind, label.toLowerCase()] as const)]
  const servers = (spec.servers ?? []).map((s) => `<code>${escapeHtml(s.url)}</code>`).join(", ")
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(spec.info.title)}</title>
<style>${DOCS_STYLE}</style></head>
<body><a class="skip" href="#main">Skip to the reference</a><div class="layout">
<nav class="sidebar" aria-label="Resources"><p class="brand">paykit API <small>${escapeHtml(spec.info.version)}</small></p>
<search id="search" hidden><label for="search-input">Search</label><input id="search-input" type="search" placeholder="operations, fields, events, scenarios, errors" autocomplete="off"><ul id="search-results" aria-live="polite"></ul></search>
<ul class="toc"><li><a href="#introduction">Introduction</a></li>${sidebar}<li><a href="#events">Events</a></li><li><a href="#scenarios">Scenario simulators</a></li><li><a href="#test-values">Sandbox test values</a></li><li><a href="#errors">Errors</a></li></ul></nav>
<main id="main"><h1 id="introduction">${escapeHtml(spec.info.title)}</h1>
<p>Version <code>${escapeHtml(spec.info.version)}</code>${servers === "" ? "" : `, served at ${servers}`}. Send <code>Authorization: Bearer &lt;token&gt;</code>, <code>GoCardless-Version: ${API_VERSION}</code>, and on creating POSTs an <code>Idempotency-Key</code>. Bodies are JSON wrapped in the resource key. The machine-readable document is <a href="/openapi.json">/openapi.json</a>. Each operation below opens on a click.</p>
<h2 id="endpoints" class="visually-hidden">Endpoints</h2>${resources}
<h2 id="events">Events</h2><p>The causes of the events the engine records (<code>details.cause</code>), with their origin and description.</p>
<table><thead><tr><th>Cause</th><th>Origin</th><th>Description</th></tr></thead><tbody>${eventRows()}</tbody></table>
<h2 id="scenarios">Scenario simulators</h2><p>Run one with <a href="#post-scenario_simulators-type-actions-run">the scenario simulators' run</a> (sandbox only); each starts from the statuses listed.</p>
<table><thead><tr><th>Scenario</th><th>Resource</th><th>Starts from</th></tr></thead><tbody>${scenarioRows()}</tbody></table>
<h2 id="test-values">Sandbox test values</h2>${testValuesContent().markup}
<h2 id="errors">Errors</h2><p>Every error has the body <code>{"error": {"code", "type", "message", "errors": [{"reason", "message", "field", "request_pointer", "links"}], "documentation_url", "request_id"}}</code>; the request id is also the <code>X-Request-Id</code> header.</p>
<h3>Types</h3><table><thead><tr><th>Type</th><th>Meaning</th></tr></thead><tbody>${errorTypeRows()}</tbody></table>
<h3>Reasons</h3><p>Each error's <code>documentation_url</code> points at its reason below.</p>
<table><thead><tr><th>Reason</th><th>Type</th><th>Meaning</th></tr></thead><tbody>${reasonRows()}</tbody></table></main></div>
<script type="application/json" id="search-index">${scriptJson(searchIndex)}</script><script>${DOCS_SCRIPT}</script></body></html>`
}
