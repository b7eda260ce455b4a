import { ConfigProvider, Effect, Exit, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { decodeSecretKey, DEFAULT_DATA_DIR, keyFromDirectory, serverConfig, WEBHOOK_SECRET_KEY_FILE } from "../src/index.ts"

const read = (env: Record<string, string>) =>
  Effect.runSyncExit(Effect.provide(serverConfig, ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))))

const dirs: Array<string> = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe("webhook configuration", () => {
  it("PAYKIT_WEBHOOK_URL with PAYKIT_WEBHOOK_SECRET names the sandbox endpoint; the secret stays redacted", () => {
    const exit = read({ PAYKIT_WEBHOOK_URL: "http://127.0.0.1:4000/hooks", PAYKIT_WEBHOOK_SECRET: "a-secret-of-enough-length" })
    if (Exit.isFailure(exit)) throw new Error(String(exit.cause))
    const endpoint = exit.value.webhooks?.endpoint
    expect(Option.map(endpoint ?? Option.none(), (e) => [e.url, Redacted.value(e.secret)])).toEqual(Option.some(["http://127.0.0.1:4000/hooks", "a-secret-of-enough-length"]))
    expect(JSON.stringify(exit.value.webhooks)).not.toContain("a-secret-of-enough-length")
    expect(exit.value.webhooks?.keyDir).toBe(DEFAULT_DATA_DIR)
  })

  it("a URL without a secret, or a secret too short, is refused at start", () => {
    expect(Exit.isFailure(read({ PAYKIT_WEBHOOK_URL: "http://127.0.0.1:4000/hooks" }))).toBe(true)
    expect(Exit.isFailure(read({ PAYKIT_WEBHOOK_URL: "http://127.0.0.1:4000/hooks", PAYKIT_WEBHOOK_SECRET: "short" }))).toBe(true)
  })

  it("the secret key: 64 hex digits or base64 of 32 bytes, nothing else", () => {
    const key = randomBytes(32)
    expect(Buffer.from(decodeSecretKey(key.toString("hex")) ?? []).equals(key)).toBe(true)
    expect(Buffer.from(decodeSecretKey(key.toString("base64")) ?? []).equals(key)).toBe(true)
    expect(decodeSecretKey(randomBytes(16).toString("hex"))).toBeUndefined()
  })

  it("without one, the key file is made once in the data directory, readable by its owner only, and read back after", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "paykit-key-")), "data")
    dirs.push(dir)
    const first = keyFromDirectory(dir)
    const file = join(dir, WEBHOOK_SECRET_KEY_FILE)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readFileSync(file, "utf8")).toMatch(/^[0-9a-f]{64}$/)
    expect(keyFromDirectory(dir)).toEqual(first)
  })
})
