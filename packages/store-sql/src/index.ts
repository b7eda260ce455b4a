export * as PgliteClient from "./pglite-client.ts"
