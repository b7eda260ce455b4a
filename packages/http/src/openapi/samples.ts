import { API_VERSION } from "@paykit/core"
import { REFERENCE_SOURCES } from "./reference-sources.ts"

/**
 * The request samples of `/docs`: a curl command and a `gocardless-nodejs` call per operation,
 * the body the recorded example's (`reference-examples.ts`) where there is one. The client's
 * method for an operation is read from the client's own code (`REFERENCE_SOURCES.client`, by
 * `scripts/reference-sources.ts`); an operation the client has no method for says so.
 */

const CLIENT_METHODS: Readonly<Record<string, string>> = REFERENCE_SOURCES.client

/** `/payments/{id}` → `/payments/{id}` with every parameter written `{id}`, as the client table keys them. */
const clientKey = (method: string, path: string): string => `${method.toUpperCase()} ${path.replace(/\{[A-Za-z_]+\}/g, "{id}")}`

interface SampleOperation {
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string }>
}

/** A shell-quoted string: `'...'` with each `'` closed, escaped and reopened. */
const shellQuoted = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

export const curlSample = (base: string, method: string, path: string, op: SampleOperation, body: unknown): string => {
  const headers = (op.parameters ?? []).filter((p) => p.in === "header").map((p) =>
    p.name === "GoCardless-Version" ? `-H "GoCardless-Version: ${API_VERSION}"` : p.name === "Idempotency-Key" ? `-H "Idempotency-Key: $(uuidgen)"` : `-H "${p.name}: ..."`
  )
  return [
    `curl -X ${method.toUpperCase()} "${base === "" ? "$PAYKIT_URL" : base}${path}"`,
    `-H "Authorization: Bearer $PAYKIT_ACCESS_TOKEN"`,
    ...headers,
    ...(body === undefined ? [] : [`-H "Content-Type: application/json"`, `-d ${shellQuoted(JSON.stringify(body))}`])
  ].join(" \\\n  ")
}

/** The call's arguments: the path's identifiers, then the body's attributes (below its resource key or `data`). */
const clientArguments = (path: string, body: unknown): string => {
  const ids = [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => `"${m[1] === "id" ? "ID" : (m[1] ?? "").toUpperCase()}"`)
  const attributes = typeof body === "object" && body !== null && !Array.isArray(body) && Object.keys(body).length === 1 ? Object.values(body)[0] : body
  return [...ids, ...(attributes === undefined ? [] : [JSON.stringify(attributes, null, 2)])].join(", ")
}

export const clientSample = (method: string, path: string, body: unknown): string => {
  const call = CLIENT_METHODS[clientKey(method, path)]
  if (call === undefined) return `// gocardless-nodejs has no method for ${method.toUpperCase()} ${path}: call it over HTTP (the curl sample).`
  return [
    `import { GoCardlessClient } from "gocardless-nodejs"`,
    ``,
    `// The client has no base URL option: point it at this server (docs/http.md).`,
    `const client = new GoCardlessClient(process.env.PAYKIT_ACCESS_TOKEN)`,
    `client._api._baseUrl = process.env.PAYKIT_URL`,
    `const answer = await client.${call}(${clientArguments(path, body)})`
  ].join("\n")
}
