import { OpenApi } from "effect/http-api"
import { API_VERSION, ERROR_REASONS, ERROR_TYPES } from "@paykit/core"
import { SANDBOX_AMOUNT_ENDINGS, SANDBOX_NAMES } from "@paykit/engine"
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

/** The sandbox bank's test values (docs/test-values.md has the whole table), from its own constants. */
const testValueRows = (): string =>
  [
    [`amount ending in ${SANDBOX_AMOUNT_ENDINGS.failure}, or holder name containing "${SANDBOX_NAMES.failure}"`, "the payment fails on its charge date"],
    [`amount ending in ${SANDBOX_AMOUNT_ENDINGS.lateFailure}, or holder name containing "${SANDBOX_NAMES.lateFailure}"`, "the payment is paid out, then fails 3 business days after its charge date"],
    [`amount ending in ${SANDBOX_AMOUNT_ENDINGS.chargeback}, or holder name containing "${SANDBOX_NAMES.chargeback}"`, "the payment is paid out, then charged back 5 business days after its charge date"],
    [`holder name containing "${SANDBOX_NAMES.mandateFailure}"`, "the mandate fails at submission"],
    [`creditor name containing "${SANDBOX_NAMES.payoutBounce}"`, "the creditor's first payout bounces"]
  ].map(([input, outcome]) => `<tr><td>${escapeHtml(input ?? "")}</td><td>${escapeHtml(outcome ?? "")}</td></tr>`).join("")

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
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(spec.info.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}</style></head>
<body><h1>${escapeHtml(spec.info.title)}</h1>
<p>Version <code>${escapeHtml(spec.info.version)}</code>. Send <code>Authorization: Bearer &lt;token&gt;</code>, <code>GoCardless-Version: ${API_VERSION}</code>, and on creating POSTs an <code>Idempotency-Key</code>. Bodies are JSON wrapped in the resource key. The machine-readable document is <a href="/openapi.json">/openapi.json</a>.</p>
<h2>Endpoints</h2><table><thead><tr><th>Method</th><th>Path</th><th>Parameters</th><th>Statuses</th></tr></thead><tbody>${rows.join("")}</tbody></table>
<h2 id="test-values">Sandbox test values</h2><p>In sandbox mode these inputs choose the bank's answer (the whole table is <code>docs/test-values.md</code> in the repository); the event of each outcome they cause ends its <code>details.description</code> with <code>(sandbox test value: ...)</code>.</p>
<table><thead><tr><th>Input</th><th>Outcome</th></tr></thead><tbody>${testValueRows()}</tbody></table>
<h2 id="errors">Errors</h2><p>Every error has the body <code>{"error": {"code", "type", "message", "errors": [{"reason", "message", "field", "request_pointer", "links"}], "documentation_url", "request_id"}}</code>; the request id is also the <code>X-Request-Id</code> header.</p>
<h3>Types</h3><table><thead><tr><th>Type</th><th>Meaning</th></tr></thead><tbody>${errorTypeRows()}</tbody></table>
<h3>Reasons</h3><p>Each error's <code>documentation_url</code> points at its reason below.</p>
<table><thead><tr><th>Reason</th><th>Type</th><th>Meaning</th></tr></thead><tbody>${reasonRows()}</tbody></table></body></html>`
}
