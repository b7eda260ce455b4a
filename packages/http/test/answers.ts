import { Effect, Exit, Schema } from "effect"
import { type ApiResponse, ErrorBody, type Route } from "../src/index.ts"

/**
 * Every answer checked against what its route declares: a success body must decode with the
 * route's success Schema (the one the OpenAPI document publishes), an error body with the API's
 * error Schema. The harness's server routes every answer of the API through here, so each test
 * that talks to it also checks the bodies it receives, whatever client it uses.
 */

const decoders = new WeakMap<Schema.Top, (input: unknown) => Exit.Exit<unknown, unknown>>()

/** The JSON codec of a declared Schema: the body on the wire is its JSON encoding. */
const decoderOf = (schema: Schema.Top) => {
  const known = decoders.get(schema)
  if (known !== undefined) return known
  // Strict: a served field the Schema does not declare is a difference between the two as well.
  // Response Schemas need no services to decode; the route keeps them as `Schema.Top`.
  const codec = Schema.toCodecJson(schema) as unknown as Schema.Codec<unknown, unknown>
  const decode = Schema.decodeUnknownExit(codec, { onExcessProperty: "error" })
  decoders.set(schema, decode)
  return decode
}

const parsed = (body: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, value: JSON.parse(body) as unknown }
  } catch {
    return { ok: false }
  }
}

/** What is wrong with an answer of `route`, or `undefined` when its body decodes with the Schema declared for it. */
export const answerProblem = (route: Route, status: number, body: string): string | undefined => {
  const where = `${route.method} ${route.path} answered ${status}`
  const json = parsed(body)
  if (!json.ok) return `${where} with a body that is not JSON`
  const schemas = status >= 200 && status < 300 ? route.success : [ErrorBody]
  if (schemas.length === 0) return `${where}, and the route declares no success Schema`
  const failures = schemas.map((schema) => decoderOf(schema)(json.value)).filter(Exit.isFailure)
  return failures.length < schemas.length ? undefined : `${where} with a body its Schema refuses: ${String(failures[0]?.cause)}`
}

/** The problems found so far and how many answers were checked. */
export interface AnswerLog {
  readonly problems: Array<string>
  checked: number
}

export const makeAnswerLog = (): AnswerLog => ({ problems: [], checked: 0 })

/** `routes` with every successful answer of their handlers checked into `log`. */
export const checkingAnswers = <E, R>(routes: Effect.Effect<ReadonlyArray<Route>, E, R>, log: AnswerLog) =>
  Effect.map(routes, (all) =>
    all.map((route): Route => ({
      ...route,
      handler: (request, caller) =>
        Effect.tap(route.handler(request, caller), (response: ApiResponse) =>
          Effect.sync(() => {
            log.checked++
            const problem = answerProblem(route, response.status, response.body)
            if (problem !== undefined) log.problems.push(problem)
          }))
    })))
