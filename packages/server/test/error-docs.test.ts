import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ACCESS_TOKEN_REASONS, ERROR_REASONS, ERROR_TYPES, SUBSCRIPTION_PAUSE_REASONS, VALIDATION_FAILED_REASON } from "@paykit/core"
import { APP_RESTRICTED_REASON, PROTOCOL_REASONS } from "@paykit/http"
import { AVAILABLE_REFUND_AMOUNT_INSUFFICIENT, FX_AMOUNT_OUT_OF_RANGE, NO_FEE_RULE, PAYOUT_AMOUNT_OUT_OF_RANGE } from "@paykit/money"
import { SANDBOX_ONLY_REASON } from "../src/index.ts"
import { api, json, startServer, type TestServer } from "./harness.ts"

/**
 * Every error's `documentation_url` is a real page: `/docs`, with an anchor per reason and type.
 * The reasons the code can emit are read from its source (`reason: "..."`, a guard's reason, a
 * refusal's) and from the named reason constants, so a new reason without its entry fails here.
 */

const PACKAGES = join(import.meta.dirname, "..", "..")

const sourceFiles = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [])

const REASON_PATTERNS = [/reason: "([a-z_]+)"/g, /guard(?:<[^>(]*>)?\(\s*"[^"]+",\s*"([a-z_]+)"/g, /invalid\("([a-z_]+)"/g]

const reasonsInSource = (): ReadonlySet<string> => {
  const found = new Set<string>()
  for (const pkg of readdirSync(PACKAGES)) {
    let files: ReadonlyArray<string> = []
    try {
      files = sourceFiles(join(PACKAGES, pkg, "src"))
    } catch {
      continue
    }
    for (const file of files) {
      const text = readFileSync(file, "utf8")
      for (const pattern of REASON_PATTERNS) for (const m of text.matchAll(pattern)) if (m[1] !== undefined) found.add(m[1])
    }
  }
  return found
}

const NAMED_REASONS = [
  ...Object.values(PROTOCOL_REASONS),
  ...ACCESS_TOKEN_REASONS,
  // The subscription machine's pause guards name these (the fuzz test met one without a docs anchor).
  ...Object.values(SUBSCRIPTION_PAUSE_REASONS),
  VALIDATION_FAILED_REASON,
  AVAILABLE_REFUND_AMOUNT_INSUFFICIENT,
  FX_AMOUNT_OUT_OF_RANGE,
  NO_FEE_RULE,
  PAYOUT_AMOUNT_OUT_OF_RANGE,
  SANDBOX_ONLY_REASON,
  APP_RESTRICTED_REASON
]

describe("error documentation", () => {
  let server: TestServer
  let page: string
  beforeAll(async () => {
    server = await startServer()
    const response = await fetch(`${server.url}/docs`)
    expect(response.status).toBe(200)
    page = await response.text()
  })
  afterAll(async () => {
    await server.close()
  })

  it("catalogues every reason the code can emit", () => {
    const emitted = new Set([...reasonsInSource(), ...NAMED_REASONS])
    expect(emitted.size).toBeGreaterThan(80)
    const missing = [...emitted].filter((r) => !Object.hasOwn(ERROR_REASONS, r))
    expect(missing).toEqual([])
  })

  it("serves an anchor for every reason and every type on /docs", () => {
    for (const reason of Object.keys(ERROR_REASONS)) expect(page, reason).toContain(`id="${reason}"`)
    for (const type of Object.keys(ERROR_TYPES)) expect(page, type).toContain(`id="type-${type}"`)
  })

  it("points documentation_url of real errors at those anchors", async () => {
    const token = server.boot.accessToken ?? ""
    for (const [response, reason] of [
      [await api(server.url, token, "/payments/PM%00"), "resource_not_found"],
      [await api(server.url, token, "/payments?limit=0"), "validation_failed"],
      [await api(server.url, "nope", "/payments"), "access_token_not_found"],
      [await api(server.url, token, "/nowhere"), "path_not_found"]
    ] as const) {
      const error = (await json(response))["error"] as { readonly documentation_url: string }
      // Absolute: the server's public URL (here its listening address) and the docs page.
      expect(error.documentation_url).toBe(`${server.url}/docs#${reason}`)
      const [url, anchor] = error.documentation_url.split("#")
      expect((await fetch(url ?? "")).status).toBe(200)
      expect(page).toContain(`id="${anchor}"`)
    }
  })
})
