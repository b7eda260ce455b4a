import { OpenApi } from "effect/http-api"
import { PaykitApi } from "./api.ts"

/**
 * The human docs page: every endpoint of the OpenAPI document with its parameters and statuses,
 * and the error catalogue. Self-contained HTML (no scripts, no CDN) derived from the same document
 * as `/openapi.json`.
 */

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

interface Operation {
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string }>
  readonly responses?: Readonly<Record<string, unknown>>
}

const ERROR_CATALOGUE: ReadonlyArray<readonly [string, string, string]> = [
  ["400", "invalid_api_usage", "missing_version_header, version_not_found, invalid_content_type, invalid_document_structure, idempotency_key_too_long"],
  ["401", "invalid_api_usage", "access_token_not_found, access_token_revoked, access_token_not_active"],
  ["403", "invalid_api_usage", "insufficient_permissions (a read_only token on a write)"],
  ["404", "invalid_api_usage", "resource_not_found, path_not_found"],
  ["409", "invalid_state", "idempotent_creation_conflict (links.conflicting_resource_id), conflict"],
  ["422", "validation_failed / invalid_state", "validation_failed with field and request_pointer; state reasons of the engine"],
  ["429", "invalid_api_usage", "rate_limit_exceeded, with RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset"],
  ["500", "gocardless", "internal_server_error: a defect, never bad input; quote the request_id"]
]

export const renderDocsPage = (): string => {
  const spec = OpenApi.fromApi(PaykitApi)
  const rows: Array<string> = []
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of ["get", "post", "put", "delete"] as const) {
      const op: Operation | undefined = (item as Partial<Record<typeof method, Operation>>)[method]
      if (op === undefined) continue
      const params = (op.parameters ?? []).map((p) => `${p.name} (${p.in})`).join(", ")
      const statuses = Object.keys(op.responses ?? {}).join(" ")
      rows.push(
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(params)}</td><td>${statuses}</td></tr>`
      )
    }
  }
  const errors = ERROR_CATALOGUE.map(([status, type, reasons]) =>
    `<tr><td>${status}</td><td><code>${escapeHtml(type)}</code></td><td>${escapeHtml(reasons)}</td></tr>`
  ).join("")
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(spec.info.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}</style></head>
<body><h1>${escapeHtml(spec.info.title)}</h1>
<p>Version <code>${escapeHtml(spec.info.version)}</code>. Send <code>Authorization: Bearer &lt;token&gt;</code>, <code>GoCardless-Version: 2015-07-06</code>, and on creating POSTs an <code>Idempotency-Key</code>. Bodies are JSON wrapped in the resource key. The machine-readable document is <a href="/openapi.json">/openapi.json</a>.</p>
<h2>Endpoints</h2><table><thead><tr><th>Method</th><th>Path</th><th>Parameters</th><th>Statuses</th></tr></thead><tbody>${rows.join("")}</tbody></table>
<h2 id="errors">Errors</h2><p>Every error has the body <code>{"error": {"code", "type", "message", "errors": [{"reason", "message", "field", "request_pointer", "links"}], "documentation_url", "request_id"}}</code>; the request id is also the <code>X-Request-Id</code> header.</p>
<table><thead><tr><th>Status</th><th>Type</th><th>Reasons</th></tr></thead><tbody>${errors}</tbody></table></body></html>`
}
