import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { VALIDATION_ERRORS_LISTED_MAX } from "@paykit/core"
import { REQUEST_BODY_MAX_FIELDS } from "@paykit/http"
import { api, json, startServer, type TestServer } from "./harness.ts"

/**
 * A body of many fields is refused by counting them in its text, before anything parses it: a form
 * post to the sign-in page (no login needed) or a JSON body past `REQUEST_BODY_MAX_FIELDS` is a
 * 413, and one within it is served as before. A 422 lists at most `VALIDATION_ERRORS_LISTED_MAX`
 * errors and says how many more there were.
 */

interface ErrorBody {
  readonly error: { readonly code: number; readonly message: string; readonly errors: ReadonlyArray<{ readonly reason: string; readonly field?: string }> }
}

const errorOf = async (response: Response): Promise<ErrorBody["error"]> => ((await json(response)) as unknown as ErrorBody).error

/** `a0=x&a1=x&...`: a form of `count` fields. */
const formOf = (count: number): string => Array.from({ length: count }, (_, i) => `a${i}=x`).join("&")

/** A JSON object of `count` unknown fields under the resource key. */
const jsonOf = (count: number, key = "creditors"): string =>
  `{"${key}":{${Array.from({ length: count }, (_, i) => `"unknown_${i}":1`).join(",")}}}`

const postForm = (url: string, body: string) =>
  fetch(`${url}/dashboard/sign_in`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" }, body })

const postJson = (url: string, token: string, body: string) =>
  fetch(`${url}/creditors`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06", "content-type": "application/json" },
    body
  })

describe("bodies of many fields", () => {
  let server: TestServer
  let token = ""
  beforeAll(async () => {
    server = await startServer()
    token = server.boot.accessToken ?? ""
  }, 60_000)
  afterAll(() => server.close())

  it("a form post past the limit is 413 before the page reads it; one at the limit reaches the page", async () => {
    const refused = await postForm(server.url, formOf(REQUEST_BODY_MAX_FIELDS + 1))
    expect(refused.status).toBe(413)
    const error = await errorOf(refused)
    expect(error.errors[0]?.reason).toBe("request_entity_too_large")
    expect(error.message).toContain(String(REQUEST_BODY_MAX_FIELDS))
    // The sign-in page itself answers a form without its CSRF token: it ran.
    const served = await postForm(server.url, formOf(REQUEST_BODY_MAX_FIELDS))
    expect(served.status).not.toBe(413)
    // The 400,000 fields (3.9 MB): refused by the count, which stops at the limit.
    expect((await postForm(server.url, formOf(400_000))).status).toBe(413)
  })

  it("a JSON body past the limit is 413 although what follows the limit is not JSON: it was counted, never parsed", async () => {
    const fields = jsonOf(REQUEST_BODY_MAX_FIELDS + 1)
    const unparsable = `${fields.slice(0, -2)},"tail": this is not JSON`
    const refused = await postJson(server.url, token, unparsable)
    expect(refused.status).toBe(413)
    expect((await errorOf(refused)).errors[0]?.reason).toBe("request_entity_too_large")
    // Within the limit the same text is parsed, and refused as the JSON it is not.
    const within = `${jsonOf(10).slice(0, -2)},"tail": this is not JSON`
    expect((await errorOf(await postJson(server.url, token, within))).errors[0]?.reason).toBe("invalid_document_structure")
    // Array elements count as fields too, at any depth.
    const elements = `{"creditors":{"name":"x","metadata":{"a":[${Array.from({ length: REQUEST_BODY_MAX_FIELDS }, () => "[1]").join(",")}]}}}`
    expect((await postJson(server.url, token, elements)).status).toBe(413)
    // Colons and commas inside strings are text, not fields.
    const inString = `{"creditors":{"name":"${":,".repeat(REQUEST_BODY_MAX_FIELDS)}"}}`
    expect((await postJson(server.url, token, inString)).status).toBe(422)
  })

  it(`a 422 lists at most ${VALIDATION_ERRORS_LISTED_MAX} errors and says how many more there were`, async () => {
    const count = VALIDATION_ERRORS_LISTED_MAX + 250
    const response = await postJson(server.url, token, jsonOf(count))
    expect(response.status).toBe(422)
    const error = await errorOf(response)
    expect(error.errors).toHaveLength(VALIDATION_ERRORS_LISTED_MAX)
    // Every unknown field and the required ones missing: all counted in the message.
    const [, total = "0", listed = "0", more = "0"] = /^Validation failed: (\d+) errors, the first (\d+) listed and (\d+) more not listed$/.exec(error.message) ?? []
    expect(Number(total)).toBeGreaterThanOrEqual(count)
    expect(Number(listed)).toBe(VALIDATION_ERRORS_LISTED_MAX)
    expect(Number(more)).toBe(Number(total) - VALIDATION_ERRORS_LISTED_MAX)
    // A few errors are all listed, as before.
    const few = await errorOf(await api(server.url, token, "/creditors", { method: "POST", body: { creditors: { colour: "red", size: 2 } } }))
    expect(few.message).toBe("Validation failed")
  })
})
