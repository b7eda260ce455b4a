import type { OpenApi } from "effect/http-api"
import { API_VERSION, ERROR_REASONS, ERROR_TYPES } from "@paykit/core"
import { operationAnchor } from "./reference.ts"
import { testValuesContent } from "./test-values.ts"

/**
 * The human docs page: every operation of the OpenAPI document (`openApiDocument`, what
 * `/openapi.json` answers) with its parameters, body fields, response fields and the error statuses
 * it can answer, each under its own anchor (its operation id), and the error catalogue, each
 * reason under its own anchor (the fragment of `documentation_url`). Self-contained HTML (no CDN);
 * the one script only adds the search box: the page works without it.
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
    const own: Field = { name, type: typeOf(field, resolve), required: required.has(key), limits: limitsOf(field, resolve) }
    return [own, ...fieldsOf(field, resolve, `${name}.`, depth + 1)]
  })
}

const fieldTable = (fields: ReadonlyArray<Field>): string =>
  fields.length === 0
    ? "<p>None.</p>"
    : `<table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Limits</th></tr></thead><tbody>${
      fields.map((f) =>
        `<tr><td><code>${escapeHtml(f.name)}</code></td><td>${escapeHtml(f.type)}</td><td>${f.required ? "yes" : "no"}</td><td>${escapeHtml(f.limits)}</td></tr>`
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
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string; readonly required?: boolean; readonly schema?: unknown }>
  readonly requestBody?: { readonly content?: unknown }
  readonly responses?: Readonly<Record<string, { readonly description?: string; readonly content?: unknown }>>
  readonly "x-paykit-extension"?: boolean
}

const parameterTable = (op: Operation, resolve: (s: unknown) => Json): string => {
  const parameters = op.parameters ?? []
  if (parameters.length === 0) return ""
  const rows = parameters.map((p) => {
    const schema = resolve(p.schema)
    return `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${escapeHtml(typeOf(schema, resolve))}</td><td>${p.required === true ? "yes" : "no"}</td><td>${escapeHtml(limitsOf(schema, resolve))}</td></tr>`
  }).join("")
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Limits</th></tr></thead><tbody>${rows}</tbody></table>`
}

const operationSection = (method: string, path: string, op: Operation, resolve: (s: unknown) => Json): string => {
  const responses = Object.entries(op.responses ?? {})
  const success = responses.filter(([status]) => status.startsWith("2"))
  const errors = responses.filter(([status]) => !status.startsWith("2"))
  const body = op.requestBody === undefined
    ? method === "get" ? "" : "<h4>Body fields</h4><p>None: it takes no body.</p>"
    : `<h4>Body fields</h4>${fieldTable(fieldsOf(resolve(jsonSchemaOf(op.requestBody.content)), resolve))}${exampleBlock("Example request", op.requestBody.content)}`
  const answers = success.map(([status, response]) =>
    `<h4>Response ${escapeHtml(status)} fields</h4>${fieldTable(fieldsOf(resolve(jsonSchemaOf(response.content)), resolve))}${exampleBlock(`Example response ${status}`, response.content)}`
  ).join("")
  const errorList = errors.length === 0
    ? ""
    : `<h4>Errors</h4><ul>${errors.map(([status, response]) => `<li><code>${escapeHtml(status)}</code> ${escapeHtml(response.description ?? "")}</li>`).join("")}</ul><p>Their reasons are in <a href="#errors">the error catalogue</a>.</p>`
  const anchor = operationAnchor(method, path)
  const extension = op["x-paykit-extension"] === true ? ` <small>(paykit extension)</small>` : ""
  return `<section class="op" id="${escapeHtml(anchor)}" data-search="${escapeHtml(`${method} ${path} ${(op.tags ?? []).join(" ")}`.toLowerCase())}">
<h3><a href="#${escapeHtml(anchor)}"><code>${method.toUpperCase()} ${escapeHtml(path)}</code></a>${extension}</h3>
${op.description === undefined ? "" : `<p>${escapeHtml(op.description)}</p>`}${parameterTable(op, resolve)}${body}${answers}${errorList}</section>`
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

/** Hides the operations that do not match what is typed; shown only when scripts run. */
const SEARCH_SCRIPT = `<script>(()=>{const box=document.getElementById("search");const input=box.querySelector("input");box.hidden=false;
input.addEventListener("input",()=>{const q=input.value.trim().toLowerCase();for(const s of document.querySelectorAll("section.op")){s.hidden=q!==""&&!s.dataset.search.includes(q)}})})()</script>`

export const renderDocsPage = (spec: OpenApi.OpenAPISpec): string => {
  const resolve = resolverOf(spec)
  const sections: Array<string> = []
  const index: Array<string> = []
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const op: Operation | undefined = (item as Partial<Record<typeof method, Operation>>)[method]
      if (op === undefined) continue
      sections.push(operationSection(method, path, op, resolve))
      index.push(`<li><a href="#${escapeHtml(operationAnchor(method, path))}"><code>${method.toUpperCase()} ${escapeHtml(path)}</code></a></li>`)
    }
  }
  const servers = (spec.servers ?? []).map((s) => `<code>${escapeHtml(s.url)}</code>`).join(", ")
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(spec.info.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%;margin-bottom:.5rem}td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}section.op{border-top:2px solid #ccc;margin-top:1.5rem}details ul{columns:2}</style></head>
<body><h1>${escapeHtml(spec.info.title)}</h1>
<p>Version <code>${escapeHtml(spec.info.version)}</code>${servers === "" ? "" : `, served at ${servers}`}. Send <code>Authorization: Bearer &lt;token&gt;</code>, <code>GoCardless-Version: ${API_VERSION}</code>, and on creating POSTs an <code>Idempotency-Key</code>. Bodies are JSON wrapped in the resource key. The machine-readable document is <a href="/openapi.json">/openapi.json</a>.</p>
<search id="search" hidden><label>Search endpoints <input type="search" placeholder="payments, POST, sandbox"></label></search>
<details><summary>All endpoints</summary><ul>${index.join("")}</ul></details>
<h2 id="endpoints">Endpoints</h2>${sections.join("\n")}
<h2 id="test-values">Sandbox test values</h2>${testValuesContent().markup}
<h2 id="errors">Errors</h2><p>Every error has the body <code>{"error": {"code", "type", "message", "errors": [{"reason", "message", "field", "request_pointer", "links"}], "documentation_url", "request_id"}}</code>; the request id is also the <code>X-Request-Id</code> header.</p>
<h3>Types</h3><table><thead><tr><th>Type</th><th>Meaning</th></tr></thead><tbody>${errorTypeRows()}</tbody></table>
<h3>Reasons</h3><p>Each error's <code>documentation_url</code> points at its reason below.</p>
<table><thead><tr><th>Reason</th><th>Type</th><th>Meaning</th></tr></thead><tbody>${reasonRows()}</tbody></table>${SEARCH_SCRIPT}</body></html>`
}
