import SwaggerParser from "@apidevtools/swagger-parser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BANK_RAILS_TAG, type EndpointDeclaration, operationAnchor, PAYKIT_EXTENSION_TAG, PAYKIT_ROUTES } from "@paykit/http"
import { OAUTH_APP_ROUTES } from "../src/oauth/app-routes.ts"
import { SANDBOX_ROUTES } from "../src/sandbox-routes.ts"
import { SCENARIO_ROUTES } from "../src/scenario-routes.ts"
import { api, json, startServer, type TestServer } from "./harness.ts"

/**
 * The reference a sandbox server serves: `/openapi.json` documents every route of its route
 * tables (the API's rooms, the sandbox's, the scenario simulators', OAuth apps'), names the
 * server at `PAYKIT_PUBLIC_URL` and is a valid OpenAPI 3.1 document; `/docs` renders each
 * operation under its anchor, a POST with its body fields.
 */

const PUBLIC_URL = "https://sandbox.paykit.test"

interface Operation {
  readonly tags: ReadonlyArray<string>
  readonly requestBody?: unknown
  readonly "x-paykit-extension"?: boolean
}
interface Document {
  readonly openapi: string
  readonly servers?: ReadonlyArray<{ readonly url: string }>
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>
}

const TABLES: ReadonlyArray<ReadonlyArray<EndpointDeclaration<never>>> = [PAYKIT_ROUTES, SANDBOX_ROUTES, SCENARIO_ROUTES, OAUTH_APP_ROUTES]
const EXTENSIONS = new Set<ReadonlyArray<EndpointDeclaration<never>>>([SANDBOX_ROUTES, OAUTH_APP_ROUTES])
/** paykit's own routes among the API's rooms (a creditor's held payouts: docs/money.md). */
const OWN_API_PATHS: ReadonlySet<string> = new Set([
  "/creditors/{id}/payout_holds",
  // The bank rails (docs/bank-rails.md), tagged `paykit: bank rails` as well.
  "/bank_submissions", "/bank_submissions/{id}", "/bank_submissions/{id}/file",
  "/bank_reports", "/bank_reports/{id}", "/bank_reports/{id}/entries", "/bank_reports/{id}/file"
])

/** `/payments/:id` as the document writes it: `/payments/{id}`. */
const documentPath = (path: string): string => path.replace(/:([A-Za-z_]+)/g, "{$1}")

describe("the API reference", () => {
  let server: TestServer
  let document: Document
  let page: string
  beforeAll(async () => {
    server = await startServer({ publicUrl: PUBLIC_URL })
    document = (await (await fetch(`${server.url}/openapi.json`)).json()) as Document
    page = await (await fetch(`${server.url}/docs`)).text()
  })
  afterAll(async () => {
    await server.close()
  })

  it("documents every route of the route tables, paykit's own tagged as extensions", () => {
    let count = 0
    for (const table of TABLES) {
      for (const { endpoint } of table) {
        const path = documentPath(endpoint.path)
        const operation = document.paths[path]?.[endpoint.method.toLowerCase()]
        expect(operation, `${endpoint.method} ${path} in /openapi.json`).toBeDefined()
        expect(page, `${endpoint.method} ${path} on /docs`).toContain(`id="${operationAnchor(endpoint.method, path)}"`)
        const extension = EXTENSIONS.has(table) || OWN_API_PATHS.has(path)
        expect(operation?.["x-paykit-extension"] === true, `${path} is an extension`).toBe(extension)
        expect(operation?.tags.includes(PAYKIT_EXTENSION_TAG), `${path} tagged`).toBe(extension)
        count++
      }
    }
    expect(count).toBeGreaterThan(120)
    expect(document.paths["/sandbox/simulator/advance"]?.["post"]?.requestBody).toBeDefined()
    expect(document.paths["/scenario_simulators/{type}/actions/run"]?.["post"]?.requestBody).toBeDefined()
  })

  it("tags the bank rails as paykit's own, described as not part of the GoCardless API", () => {
    const tags = (document as unknown as { readonly tags: ReadonlyArray<{ readonly name: string; readonly description?: string }> }).tags
    expect(tags.find((tag) => tag.name === BANK_RAILS_TAG)?.description).toMatch(/not part of the GoCardless API/)
    for (const [path, item] of Object.entries(document.paths).filter(([path]) => path.startsWith("/bank_submissions") || path.startsWith("/bank_reports"))) {
      for (const operation of Object.values(item)) expect(operation.tags, path).toEqual(expect.arrayContaining([BANK_RAILS_TAG, PAYKIT_EXTENSION_TAG]))
    }
    expect(page).toContain(BANK_RAILS_TAG)
  })

  it("names the server at its public URL and validates as OpenAPI 3.1", async () => {
    expect(document.openapi).toMatch(/^3\.1\./)
    expect(document.servers).toEqual([{ url: PUBLIC_URL }])
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined()
  })

  it("shows every POST's body fields on /docs", () => {
    const sections = page.split('<section class="op"').slice(1)
    const posts = sections.filter((section) => section.includes("<code>POST "))
    expect(posts.length).toBeGreaterThan(60)
    for (const section of posts) {
      const title = /<code>(POST [^<]+)<\/code>/.exec(section)?.[1] ?? "?"
      expect(section, title).toContain("<h4>Body fields</h4>")
    }
    const advance = sections.find((section) => section.includes("<code>POST /sandbox/simulator/advance</code>")) ?? ""
    for (const field of ["to", "by"]) expect(advance).toContain(`<td><code>${field}</code></td>`)
    const payments = sections.find((section) => section.includes("<code>POST /payments</code>")) ?? ""
    for (const field of ["payments", "payments.amount", "payments.currency", "payments.links.mandate"]) expect(payments, field).toContain(`<td><code>${field}</code></td>`)
  })

  it("makes documentation_url absolute at the public URL", async () => {
    const response = await api(server.url, server.boot.accessToken ?? "", "/payments/PM123")
    const error = (await json(response))["error"] as { readonly documentation_url: string }
    expect(error.documentation_url).toBe(`${PUBLIC_URL}/docs#resource_not_found`)
    expect(page).toContain(`id="resource_not_found"`)
  })
})
