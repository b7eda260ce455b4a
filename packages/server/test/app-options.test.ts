import { ConfigProvider, Effect } from "effect"
import { describe, expect, it } from "vitest"
import { appOptionsOf, environmentOf, serverConfig } from "../src/index.ts"

/**
 * `npm start` runs `createPaykitApp` with the environment's settings as options (`appOptionsOf`),
 * and the app reads its options back as that environment (`environmentOf`): every setting the
 * server reads must survive the round trip, or `npm start` would quietly drop it.
 */

const configOf = (env: Record<string, string>) =>
  Effect.runSync(Effect.provide(serverConfig, ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))))

/** The settings `appOptionsOf` carries (the listeners' PORT, HOST and PAYKIT_CONNECT_PORT stay with `main.ts`). */
const CASES: ReadonlyArray<Record<string, string>> = [
  { PAYKIT_MODE: "sandbox", PAYKIT_BANK: "files", PAYKIT_DATA_DIR: "/var/lib/paykit" },
  {
    PAYKIT_MODE: "live",
    DATABASE_URL: "postgresql://paykit:secret@db.internal:5432/paykit",
    PAYKIT_DB_SCHEMA: "payments",
    PAYKIT_CITUS: "off",
    PAYKIT_CITUS_ROUTING: "off",
    PAYKIT_PUBLIC_URL: "https://pay.example.com",
    PAYKIT_CONNECT_URL: "https://connect.example.com",
    PAYKIT_WEBHOOK_SECRET_KEY: "ab".repeat(32),
    PAYKIT_EVENT_RETENTION_DAYS: "30",
    PAYKIT_WORKER_POLL_MS: "500",
    PAYKIT_WORKER_LEASE_MS: "20000"
  },
  {
    PAYKIT_SANDBOX_TOKEN: "sandbox_round_trip_token_0001",
    PAYKIT_ADMIN_SECRET: "an-admin-secret-of-enough-length",
    PAYKIT_WEBHOOK_URL: "http://127.0.0.1:9000/hooks",
    PAYKIT_WEBHOOK_SECRET: "round-trip-webhook-secret-0001",
    PAYKIT_DATA_DIR: "./data"
  }
]

/** What the server fills in when the environment is silent: its defaults, and the listener's address as the public URL. */
const FILLED_IN = ["PAYKIT_MODE", "PAYKIT_BANK", "PAYKIT_DATA_DIR", "PAYKIT_EVENT_RETENTION_DAYS", "PAYKIT_REQUEST_LOG", "PAYKIT_PUBLIC_URL"]

describe("the server's settings as createPaykitApp's options", () => {
  it.each(CASES)("come back as the same environment: %o", (env) => {
    const config = configOf(env)
    const back: Readonly<Record<string, string | undefined>> = environmentOf(appOptionsOf(config, config.publicUrl ?? "http://127.0.0.1:8000"))
    for (const [name, value] of Object.entries(env)) expect(back[name], name).toBe(value)
    // Nothing the environment left out is added, but for the defaults the server fills in.
    const added = Object.entries(back).flatMap(([name, value]) => value === undefined || name in env ? [] : [name])
    for (const name of added) expect(FILLED_IN, name).toContain(name)
    // Read again, it is the same configuration.
    expect(configOf(Object.fromEntries(Object.entries(back).flatMap(([name, value]) => value === undefined ? [] : [[name, value]])))).toEqual(configOf({ ...env, PAYKIT_PUBLIC_URL: config.publicUrl ?? "http://127.0.0.1:8000" }))
  })

  it("without PAYKIT_DB_SCHEMA keeps the connection's search path (schema null), where an embedder's default is paykit", () => {
    expect(appOptionsOf(configOf({}), "http://127.0.0.1:8000").schema).toBe(null)
    expect(environmentOf(appOptionsOf(configOf({}), "http://127.0.0.1:8000"))["PAYKIT_DB_SCHEMA"]).toBeUndefined()
    expect(environmentOf({})["PAYKIT_DB_SCHEMA"]).toBe("paykit")
  })
})
