import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ERROR_REASONS, PAGE_SIZE_MAX } from "@paykit/core"
import { SCENARIO_NAMES } from "@paykit/engine"
import { SOURCES_FILE, sourcesModule, SPEC_FILE } from "../../../scripts/reference-sources.ts"
import { sandboxDocument } from "./reference-document.ts"

/**
 * The reference as a developer lives in it: `redocly lint` (the repository's redocly.yaml) finds
 * no error and no warning; every operation has a summary and a description, every field and
 * parameter a description; the protocol's headers are declared; each operation lists its own
 * errors; nothing of the Schema library's internals shows (no "Infinity", no ±2^53 bounds).
 */

const ROOT = fileURLToPath(new URL("../../../", import.meta.url))

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

interface Parameter { readonly name: string; readonly in: string; readonly required?: boolean; readonly description?: string; readonly schema?: Json }
interface Operation {
  readonly summary?: string
  readonly description?: string
  readonly parameters?: ReadonlyArray<Parameter>
  readonly requestBody?: Json
  readonly responses: Readonly<Record<string, Json>>
}
type Paths = Readonly<Record<string, Readonly<Record<string, Operation>>>>

/** Every object property below `schema` without a description, by its JSON pointer. */
const undescribed = (schema: unknown, pointer: string): ReadonlyArray<string> => {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => undescribed(s, `${pointer}/${i}`))
  if (!isObject(schema)) return []
  const own = isObject(schema["properties"])
    ? Object.entries(schema["properties"]).flatMap(([name, property]) =>
      isObject(property) && typeof property["description"] === "string" && property["description"] !== "" ? [] : [`${pointer}/properties/${name}`]
    )
    : []
  return [...own, ...Object.entries(schema).filter(([key]) => key !== "examples").flatMap(([key, value]) => typeof value === "object" ? undescribed(value, `${pointer}/${key}`) : [])]
}

describe("the API reference's document", () => {
  let document: Json
  let paths: Paths
  beforeAll(() => {
    document = sandboxDocument() as unknown as Json
    paths = document["paths"] as Paths
  })
  const operations = (): ReadonlyArray<readonly [string, Operation]> =>
    Object.entries(paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const))

  describe("redocly lint", () => {
    const dir = mkdtempSync(join(tmpdir(), "paykit-lint-"))
    afterAll(() => rmSync(dir, { recursive: true, force: true }))
    it("reports no error and no warning with the repository's redocly.yaml", () => {
      const file = join(dir, "openapi.json")
      writeFileSync(file, JSON.stringify(document))
      const cli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js")
      let output: string
      try {
        output = execFileSync(process.execPath, [cli, "lint", file, "--config", join(ROOT, "redocly.yaml"), "--format", "json", "--max-problems", "10000"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
      } catch (error) {
        // redocly exits 1 when it finds errors; its report is still on stdout.
        output = String((error as { readonly stdout?: unknown }).stdout ?? "")
      }
      const problems = (JSON.parse(output) as { readonly problems: ReadonlyArray<{ readonly ruleId: string; readonly severity: string; readonly message: string; readonly location: ReadonlyArray<{ readonly pointer?: string }> }> }).problems
      expect(problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ""}: ${p.message}`)).toEqual([])
    }, 120_000)
  })

  it("gives every operation a summary and a description", () => {
    const missing = operations().filter(([, op]) => (op.summary ?? "") === "" || (op.description ?? "") === "").map(([name]) => name)
    expect(operations().length).toBeGreaterThan(160)
    expect(missing).toEqual([])
    expect(paths["/payments/{id}"]?.["get"]?.summary).toBe("Get a payment")
    expect(paths["/payments"]?.["get"]?.summary).toBe("List payments")
    expect(paths["/billing_requests/{id}/actions/fulfil"]?.["post"]?.description).toContain("From the API reference: `metadata`; when ready, fulfils")
  })

  it("describes every field of every body, answer and component, and every parameter", () => {
    const missing = [
      ...operations().flatMap(([name, op]) => [
        ...(op.parameters ?? []).filter((p) => (p.description ?? "") === "").map((p) => `${name} parameter ${p.name}`),
        ...undescribed(op.requestBody, `${name} requestBody`),
        ...undescribed(op.responses, `${name} responses`)
      ]),
      ...undescribed((document["components"] as Json)["schemas"], "components")
    ]
    expect(missing).toEqual([])
    const payment = (paths["/payments/{id}"]?.["get"]?.responses["200"] as { content: { "application/json": { schema: { properties: { payments: { properties: Json } } } } } })
      .content["application/json"].schema.properties.payments.properties
    expect((payment["amount"] as Json)["description"]).toContain("lowest denomination")
    const outbound = paths["/outbound_payments/{id}"]?.["get"]?.responses["200"] as { content: { "application/json": { schema: { properties: { outbound_payments: { properties: Json } } } } } }
    expect((outbound.content["application/json"].schema.properties.outbound_payments.properties["execution_date"] as Json)["description"])
      .toBe("Future date on which to send; when absent, sent as soon as possible (date).")
  })

  it("declares the protocol's headers and the bearer scheme", () => {
    for (const [name, op] of operations()) {
      if (name.includes("/sandbox/") || name.includes("/oauth_apps")) continue
      const version = op.parameters?.find((p) => p.name === "GoCardless-Version")
      expect(version, name).toMatchObject({ in: "header", required: true })
    }
    const create = paths["/payments"]?.["post"]
    expect(create?.parameters?.find((p) => p.name === "Idempotency-Key")).toMatchObject({ in: "header", required: false })
    expect(paths["/payments/{id}"]?.["get"]?.parameters?.some((p) => p.name === "Idempotency-Key")).toBe(false)
    expect((create?.responses["201"]?.["headers"] as Json)["Location"]).toBeDefined()
    expect(Object.keys((paths["/outbound_payments"]?.["post"]?.responses["201"]?.["headers"] as Json))).toEqual(expect.arrayContaining(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]))
    expect(((document["components"] as Json)["securitySchemes"] as Json)["bearer"]).toMatchObject({ type: "http", scheme: "bearer" })
  })

  it("lists each operation's own errors and reasons", () => {
    const reasons = (op: Operation | undefined, status: string): ReadonlyArray<string> => (op?.responses[status]?.["x-paykit-reasons"] as ReadonlyArray<string> | undefined) ?? []
    const get = paths["/payments/{id}"]?.["get"]
    expect(Object.keys(get?.responses ?? {})).toEqual(["200", "400", "401", "404"])
    expect(reasons(get, "404")).toEqual(["resource_not_found"])
    expect(reasons(get, "401")).toEqual(["access_token_not_found", "access_token_revoked", "access_token_not_active"])
    const create = paths["/payments"]?.["post"]
    expect(reasons(create, "422")).toEqual(expect.arrayContaining(["validation_failed", "mandate_is_inactive"]))
    expect(reasons(create, "409")).toContain("idempotent_creation_conflict")
    expect(reasons(create, "403")).toContain("insufficient_permissions")
    expect(reasons(paths["/payments"]?.["get"], "400")).toContain("invalid_filters")
    expect(reasons(paths["/payments/{id}/actions/cancel"]?.["post"], "422")).toContain("payment_not_pending_submission")
    expect(reasons(paths["/outbound_payments"]?.["post"], "429")).toEqual(["rate_limit_exceeded"])
    expect(paths["/payments"]?.["post"]?.responses["429"]).toBeUndefined()
    for (const [name, op] of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (status.startsWith("2")) continue
        for (const reason of response["x-paykit-reasons"] as ReadonlyArray<string>) expect(ERROR_REASONS, `${name} ${status} ${reason}`).toHaveProperty(reason)
      }
    }
  })

  it("shows no Schema internals: integers in minor units, limits with their real bounds", () => {
    const text = JSON.stringify(document)
    expect(text).not.toContain("Infinity")
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER))
    expect(text).not.toContain('"type":"number"')
    const body = paths["/payments"]?.["post"]?.requestBody as { content: { "application/json": { schema: { properties: { payments: { properties: Json } } } } } }
    const amount = body.content["application/json"].schema.properties.payments.properties["amount"] as Json
    const resolved = (document["components"] as { schemas: Json }).schemas[String(amount["$ref"]).replace("#/components/schemas/", "")] as Json
    expect((resolved["anyOf"] as ReadonlyArray<Json>)[0]).toEqual({ type: "integer", minimum: 1 })
    const limit = paths["/payments"]?.["get"]?.parameters?.find((p) => p.name === "limit")
    expect(limit?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: PAGE_SIZE_MAX })
    const status = paths["/payments"]?.["get"]?.parameters?.find((p) => p.name === "status")
    expect(status?.schema?.["enum"]).toContain("paid_out")
  })

  it("names the scenario simulators as an enum", () => {
    const type = paths["/scenario_simulators/{type}/actions/run"]?.["post"]?.parameters?.find((p) => p.name === "type")
    expect(type?.schema?.["enum"]).toEqual(SCENARIO_NAMES)
    expect(SCENARIO_NAMES).toContain("payment_paid_out")
  })

  it("explains invalid_filters as the unknown-parameter refusal that links to it", () => {
    expect(ERROR_REASONS["invalid_filters"]?.meaning).toMatch(/query parameter is not one the list takes/)
  })

  it.skipIf(!existsSync(SPEC_FILE))("reads its sources from the specification and the engine as they are now", () => {
    expect(readFileSync(SOURCES_FILE, "utf8"), "run scripts/reference-sources.ts").toBe(sourcesModule())
  }, 60_000)
})
