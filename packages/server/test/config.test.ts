import { ConfigProvider, Effect, Exit, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { connectPortOf, DEFAULT_DATA_DIR, DEFAULT_PORT, serverConfig } from "../src/index.ts"

const read = (env: Record<string, string>) =>
  Effect.runSyncExit(Effect.provide(serverConfig, ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))))

const value = (env: Record<string, string>) => {
  const exit = read(env)
  if (Exit.isFailure(exit)) throw new Error(`config refused: ${String(exit.cause)}`)
  return exit.value
}

describe("the environment", () => {
  it("defaults: port 8000 on loopback, sandbox, PGlite in ./.paykit/data, a random token", () => {
    const config = value({})
    expect(config.port).toBe(DEFAULT_PORT)
    expect(config.host).toBe("127.0.0.1")
    expect(config.mode).toBe("sandbox")
    expect(config.database).toEqual({ _tag: "Pglite", dataDir: DEFAULT_DATA_DIR })
    expect(Option.isNone(config.sandboxToken)).toBe(true)
  })

  it("PORT, PAYKIT_DATA_DIR, PAYKIT_MODE, PAYKIT_SANDBOX_TOKEN", () => {
    const config = value({ PORT: "9001", PAYKIT_DATA_DIR: "/var/lib/paykit", PAYKIT_MODE: "live", PAYKIT_SANDBOX_TOKEN: "a-token-of-enough-length" })
    expect(config.port).toBe(9001)
    expect(config.mode).toBe("live")
    expect(config.database).toEqual({ _tag: "Pglite", dataDir: "/var/lib/paykit" })
    expect(Option.map(config.sandboxToken, Redacted.value)).toEqual(Option.some("a-token-of-enough-length"))
  })

  it("PAYKIT_BANK: sandbox by default, or files; anything else refused", () => {
    expect(value({}).bank).toBe("sandbox")
    expect(value({ PAYKIT_BANK: "files" }).bank).toBe("files")
    for (const bank of ["file", "ebics", "SANDBOX"]) expect(Exit.isFailure(read({ PAYKIT_BANK: bank })), bank).toBe(true)
  })

  it("DATABASE_URL picks PostgreSQL over any data directory, and is kept redacted", () => {
    const config = value({ DATABASE_URL: "postgresql://u:secret@db/paykit", PAYKIT_DATA_DIR: "/ignored" })
    expect(config.database._tag).toBe("Postgres")
    expect(JSON.stringify(config.database)).not.toContain("secret")
    expect(value({ DATABASE_URL: "  " }).database._tag).toBe("Pglite")
  })

  it("PAYKIT_DB_SCHEMA: the schema of the tables, on PGlite or PostgreSQL; absent, none (the connection's search path)", () => {
    expect(value({ PAYKIT_DB_SCHEMA: "payments" }).database).toEqual({ _tag: "Pglite", dataDir: DEFAULT_DATA_DIR, schema: "payments" })
    const postgres = value({ DATABASE_URL: "postgresql://db/app", PAYKIT_DB_SCHEMA: "paykit" }).database
    expect(postgres).toMatchObject({ _tag: "Postgres", schema: "paykit" })
    expect("schema" in value({ DATABASE_URL: "postgresql://db/app" }).database).toBe(false)
    for (const schema of ["Paykit", "pg_paykit", "paykit; DROP TABLE events", "1paykit", "a".repeat(64)]) {
      expect(Exit.isFailure(read({ PAYKIT_DB_SCHEMA: schema })), schema).toBe(true)
    }
  })

  it("refuses a bad port, an unknown mode and a short or spaced sandbox token", () => {
    for (const env of [{ PORT: "eighty" }, { PORT: "70000" }, { PAYKIT_MODE: "production" }, { PAYKIT_SANDBOX_TOKEN: "short" }, { PAYKIT_SANDBOX_TOKEN: "has a space in the middle of it" }]) {
      expect(Exit.isFailure(read(env)), JSON.stringify(env)).toBe(true)
    }
  })

  it("PAYKIT_PUBLIC_URL: an http(s) URL, absent by default (the listening address is used)", () => {
    expect(value({}).publicUrl).toBeUndefined()
    expect(value({ PAYKIT_PUBLIC_URL: "https://pay.example.com/paykit" }).publicUrl).toBe("https://pay.example.com/paykit")
    for (const url of ["pay.example.com", "ftp://pay.example.com", "https://pay.example.com/?a=1", "https://pay.example.com/#x", "https://u:p@pay.example.com"]) {
      expect(Exit.isFailure(read({ PAYKIT_PUBLIC_URL: url })), url).toBe(true)
    }
  })

  it("PAYKIT_CONNECT_PORT (default the API's port + 1; 0 any free port) and PAYKIT_CONNECT_URL", () => {
    expect(connectPortOf(value({}))).toBe(DEFAULT_PORT + 1)
    expect(connectPortOf(value({ PORT: "9001" }))).toBe(9002)
    expect(connectPortOf(value({ PORT: "9001", PAYKIT_CONNECT_PORT: "7000" }))).toBe(7000)
    expect(connectPortOf(value({ PAYKIT_CONNECT_PORT: "0" }))).toBe(0)
    expect(value({ PAYKIT_CONNECT_URL: "https://connect.example.com" }).connectUrl).toBe("https://connect.example.com")
    for (const env of [{ PAYKIT_CONNECT_PORT: "70000" }, { PAYKIT_CONNECT_PORT: "x" }, { PAYKIT_CONNECT_URL: "connect.example.com" }]) {
      expect(Exit.isFailure(read(env)), JSON.stringify(env)).toBe(true)
    }
  })
})
