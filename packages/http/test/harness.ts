import { Effect, Layer, ManagedRuntime } from "effect"
import { GoCardlessClient } from "gocardless-nodejs"
import { HttpServer } from "effect/http"
import { HostedPagesBaseUrl, HostedPagesKey, type KeyedPage, keyedPageUrl } from "@paykit/engine"
import { checkingAnswers, makeAnswerLog } from "./answers.ts"
import {
  AccessTokens,
  apiDispatcher,
  IdempotencyStore,
  inMemoryApiEngine,
  issueAccessToken,
  makeHttpAppWith,
  paykitRoutes,
  RateLimiter,
  RequestLog,
  serveHttpApp,
  serverUrl,
  silentRequestLog
} from "../src/index.ts"

/** Where the hosted pages (bank authorisation links) are served in tests. */
export const HOSTED_PAGES = "https://pay.paykit.example"

/** The key of the payer pages' URLs in tests. */
const PAGES_KEY = new Uint8Array(32).fill(7)

/** A payer's page URL as the test server hands it out (under `HOSTED_PAGES`, with its page key). */
export const payerPageUrl = (page: KeyedPage, organisation: string, id: string): string => keyedPageUrl(HOSTED_PAGES, PAGES_KEY, page, { organisation, id })

/**
 * The whole stack in-process on a random port, over the in-memory store. Every answer of the API
 * is decoded with its route's declared Schema (answers.ts); `close` fails when one did not decode.
 */
export const startServer = async () => {
  const ports = Layer.mergeAll(AccessTokens.layerMemory, IdempotencyStore.layerMemory, RateLimiter.layerMemory)
  const engine = inMemoryApiEngine()
  const answers = makeAnswerLog()
  const app = makeHttpAppWith(apiDispatcher(checkingAnswers(paykitRoutes, answers)))
  const layer = serveHttpApp(app, { port: 0, host: "127.0.0.1" }).pipe(
    Layer.provideMerge(ports),
    Layer.provideMerge(engine),
    Layer.provide(Layer.succeed(RequestLog, silentRequestLog)),
    // Configuration the engine reads when called: the bank authorisation links must carry it.
    Layer.provide(Layer.mergeAll(Layer.succeed(HostedPagesBaseUrl, HOSTED_PAGES), Layer.succeed(HostedPagesKey, PAGES_KEY)))
  )
  const runtime = ManagedRuntime.make(layer)
  const url = await runtime.runPromise(Effect.flatMap(HttpServer.HttpServer, () => serverUrl))
  const token = (organisation: string, scope: "read_write" | "read_only" = "read_write", id = `AT_${organisation}_${scope}`) =>
    runtime.runPromise(issueAccessToken({ id, organisation, scope }))
  const close = async () => {
    await runtime.dispose()
    if (answers.problems.length > 0) throw new Error(`answers that do not decode with their declared Schema:\n${answers.problems.join("\n")}`)
  }
  /** Runs an engine effect in the server's runtime, whose layer provides every service the engine needs. */
  const run = <A, E, R>(effect: Effect.Effect<A, E, R>) => runtime.runPromise(effect as Effect.Effect<A, E, never>)
  return { runtime, url, token, answers, close, run }
}

export type TestServer = Awaited<ReturnType<typeof startServer>>

/**
 * The official client pointed at a local server. It has no base URL option; its environment picks
 * one of two hosts, and this is the one line that points it elsewhere (documented in docs/http.md).
 */
export const localClient = (token: string, url: string): GoCardlessClient => {
  const client = new GoCardlessClient(token)
  ;(client as unknown as { _api: { _baseUrl: string } })._api._baseUrl = url
  return client
}

/** The error a client call fails with (the test fails if it succeeds). */
export const failure = async (call: Promise<unknown>): Promise<unknown> => {
  const outcome = await call.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }))
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`)
  return outcome.error
}
