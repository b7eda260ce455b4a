/**
 * @paykit/server: the runnable composition of paykit. The engine on SQL storage (embedded PGlite or
 * PostgreSQL), the HTTP API with SQL-backed access tokens and idempotency, the sandbox clock and
 * the sandbox-only endpoints. `npm start` runs `src/main.ts`.
 */
export * from "./advance.ts"
export * from "./bootstrap.ts"
export * from "./config.ts"
export * from "./data-dir-lock.ts"
export * from "./migrations/index.ts"
export * from "./organisations.ts"
export * from "./paykit-app.ts"
export * from "./root-page.ts"
export * from "./schema-move.ts"
export * from "./due-work.ts"
export * from "./sandbox-routes.ts"
export * from "./server.ts"
export * from "./server-log.ts"
export * from "./sql-access-tokens.ts"
export * from "./sql-idempotency.ts"
export * from "./sql-rate-limit.ts"
export * from "./webhook-setup.ts"
export * from "./oauth/index.ts"
export * from "./clock-lock.ts"
export * from "./key-check.ts"
export * from "./health.ts"
export * from "./metrics.ts"
