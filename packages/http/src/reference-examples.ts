import { Context } from "effect"
import type { OpenApi } from "effect/http-api"

/**
 * Examples of the reference taken from real calls: each a request the official client sent
 * through a server in the tests and the server's answer, ids and timestamps as they came
 * (`packages/server/test/reference-examples.test.ts` records them; the server ships the file).
 * `/openapi.json` carries them as `examples` of each operation's request body and 2xx response,
 * and `/docs` shows them.
 */
export interface RecordedExample {
  /** The operation: its method and path as the route table declares it (`/payments/:id`). */
  readonly method: string
  readonly path: string
  /** The path as it was called, its query included. */
  readonly called: string
  readonly request?: unknown
  readonly status: number
  readonly response?: unknown
}

/** The examples the reference shows; none unless the server provides them. */
export const ApiExamples = Context.Reference<ReadonlyArray<RecordedExample>>("@paykit/http/ApiExamples", { defaultValue: () => [] })

/** `/payments/:id` as the document writes it: `/payments/{id}`. */
export const documentPath = (path: string): string => path.replace(/:([A-Za-z_]+)/g, "{$1}")

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** `content` with its JSON media type given `examples` (`{ recorded: { summary, value } }`). */
const withExample = (content: unknown, summary: string, value: unknown): unknown => {
  if (!isObject(content) || !isObject(content["application/json"])) return { "application/json": { examples: { recorded: { summary, value } } } }
  return { ...content, "application/json": { ...content["application/json"], examples: { recorded: { summary, value } } } }
}

const exampleOperation = (operation: Json, example: RecordedExample): Json => {
  const summary = `${example.method} ${example.called} in the tests, answered ${example.status}`
  const requestBody = isObject(operation["requestBody"]) && example.request !== undefined
    ? { requestBody: { ...operation["requestBody"], content: withExample(operation["requestBody"]["content"], summary, example.request) } }
    : {}
  const responses = isObject(operation["responses"]) ? operation["responses"] : {}
  // The recorded status's answer; one the declaration does not list (a creation answering 201 or 200) goes on its first 2xx.
  const status = String(example.status) in responses ? String(example.status) : Object.keys(responses).find((code) => code.startsWith("2")) ?? ""
  const answered = responses[status]
  const withResponse = isObject(answered) && example.response !== undefined
    ? { responses: { ...responses, [status]: { ...answered, content: withExample(answered["content"], summary, example.response) } } }
    : {}
  return { ...operation, ...requestBody, ...withResponse }
}

/** The document with each recorded example on its operation (the first recorded for it). */
export const withExamples = (spec: OpenApi.OpenAPISpec, examples: ReadonlyArray<RecordedExample>): OpenApi.OpenAPISpec => {
  const paths: Json = { ...spec.paths }
  for (const example of examples) {
    const path = documentPath(example.path)
    const item = paths[path]
    const method = example.method.toLowerCase()
    if (!isObject(item) || !isObject(item[method])) continue
    paths[path] = { ...item, [method]: exampleOperation(item[method], example) }
  }
  return { ...spec, paths: paths as OpenApi.OpenAPISpec["paths"] }
}
