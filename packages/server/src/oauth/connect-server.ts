import { Context, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { apiDispatcher, type PageRoute, serveHttpApp, type ServeOptions } from "@paykit/http"
import type { ServerMode } from "../config.ts"
import { authorizeDecision, authorizePage } from "./consent.ts"
import { connectServices } from "./connect-services.ts"
import { accessToken, introspect, revoke } from "./protocol.ts"

/**
 * The connect server (`{connect_url}`): the OAuth endpoints on a listener of their own, in the
 * same process as the API and on the same stores. Its routes are pages of a dispatcher (no
 * bearer token, no `GoCardless-Version`), so its requests get the same ids, log lines, body
 * bounds and 500s as the API's.
 */

export const CONNECT_PATHS = {
  authorize: "/oauth/authorize",
  accessToken: "/oauth/access_token",
  introspect: "/oauth/introspect",
  revoke: "/oauth/revoke"
} as const

export const connectRoutes = (mode: ServerMode) =>
  Effect.map(connectServices(mode), (services): ReadonlyArray<PageRoute> => [
    { method: "GET", path: CONNECT_PATHS.authorize, page: authorizePage(services) },
    { method: "POST", path: CONNECT_PATHS.authorize, page: authorizeDecision(services) },
    { method: "POST", path: CONNECT_PATHS.accessToken, page: accessToken(services) },
    { method: "POST", path: CONNECT_PATHS.introspect, page: introspect(services) },
    { method: "POST", path: CONNECT_PATHS.revoke, page: revoke(services) }
  ])

/** Where the connect server listens and is reached. */
export class ConnectServer extends Context.Service<ConnectServer, {
  /** The listening address, on loopback for a wildcard host. */
  readonly url: string
  /** `PAYKIT_CONNECT_URL`, else `url`: the address apps send users to. */
  readonly publicUrl: string
}>()("@paykit/server/ConnectServer") {}

/**
 * The connect server's listener, started with the server and stopped with it. Built inside this
 * Layer so that its `HttpServer` and dispatcher stay its own and do not replace the API's.
 */
export const connectServerLayer = <A, E, R>(
  mode: ServerMode,
  listen: ServeOptions,
  publicUrl: string | undefined,
  pages: Layer.Layer<A, E, R>
) =>
  Layer.effect(ConnectServer, Effect.gen(function*() {
    const served = yield* Layer.build(serveHttpApp(apiDispatcher(connectRoutes(mode)).pipe(Layer.provide(pages)), listen))
    const server = Context.get(served, HttpServer.HttpServer)
    const address = server.address
    const url = address._tag === "UnixPathAddress" ? `http://unix:${address.path}` : `http://127.0.0.1:${address.port}`
    return ConnectServer.of({ url, publicUrl: publicUrl?.replace(/\/+$/, "") ?? url })
  }))
