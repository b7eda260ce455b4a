export * from "./app-routes.ts"
export * from "./apps.ts"
export * from "./store.ts"
