/**
 * @paykit/http: the HTTP JSON API of the specification over the paykit engine, built with
 * `effect/http-api` so that routing and the OpenAPI document derive from the engine's Schemas.
 */
export * from "./access-tokens.ts"
export * from "./api.ts"
export * from "./app-fees.ts"
export * from "./app.ts"
export * from "./error-response.ts"
export * from "./gateway.ts"
export * from "./handlers.ts"
export * from "./endpoints.ts"
export * from "./idempotency.ts"
export * from "./query-params.ts"
export * from "./rate-limit.ts"
export * from "./read-handlers.ts"
export * from "./request-context.ts"
export * from "./request-log.ts"
export * from "./respond.ts"
export * from "./services.ts"
export * from "./wire.ts"
export * from "./write-handlers.ts"
