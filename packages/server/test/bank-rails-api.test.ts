import { createHash } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BANK_REPORT_BODY_MAX_BYTES, issueAccessToken } from "@paykit/http"
import { EXIT, type Io } from "../src/cli/args.ts"
import { runCli } from "../src/cli/run.ts"
import { api, bacsMandate, json, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * The bank rails over HTTP (paykit's own extension, docs/bank-rails.md) on a sandbox server: the
 * day's submission listed, filtered and its file served as its exact bytes; the sandbox bank's
 * report listed with its entries and file; the same bytes posted again answered 200 with the same
 * report and nothing applied; bad reports refused 422 naming where (413 past the size limit) with
 * nothing recorded; another organisation sees none of it, and a report naming this organisation's
 * payment, posted there, matches nothing; a read-only token cannot post.
 */

type Json = Record<string, unknown>

/** A pain.002 of the wrong version: its namespace is pain.002.001.02's. */
const WRONG_NAMESPACE = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.02"><CstmrPmtStsRpt><GrpHdr><MsgId>R1</MsgId><CreDtTm>2026-01-05T10:00:00</CreDtTm></GrpHdr></CstmrPmtStsRpt></Document>
`

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

const post = (server: TestServer, token: string, bytes: Uint8Array | string, query = "") =>
  fetch(`${server.url}/bank_reports${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06", "content-type": "application/octet-stream" },
    body: bytes
  })

/** A request declaring a body of `length` bytes, sent without it: refused before a byte is read. */
const declaring = (url: string, token: string, length: number) =>
  new Promise<{ readonly status: number; readonly body: string }>((resolve, reject) => {
    const req = request(`${url}/bank_reports`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06", "content-length": String(length) }
    }, (res) => {
      let body = ""
      res.on("data", (chunk: Buffer) => (body += String(chunk)))
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, body })
        req.destroy()
      })
    })
    req.on("error", reject)
    req.flushHeaders()
  })

describe("the bank rails' API on a sandbox server", () => {
  let server: TestServer
  let client: GoCardlessClient
  let token = ""
  let creditor = ""
  let failing = ""
  let collected = ""

  const get = async (path: string, bearer = token) => {
    const response = await api(server.url, bearer, path)
    return { status: response.status, body: await json(response) }
  }
  const advanceTo = async (day: string) => {
    const response = await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { to: `${day}T12:00:00Z` } })
    expect(response.status).toBe(200)
  }

  beforeAll(async () => {
    server = await startServer()
    token = server.boot.accessToken ?? ""
    client = localClient(token, server.url)
    creditor = server.boot.creditor ?? ""
    const mandate = await bacsMandate(client, creditor)
    // An amount ending in 91 fails on its charge date (docs/test-values.md); 1000 is collected.
    const payment = await client.payments.create({ amount: 1091, currency: "GBP", links: { mandate } } as never)
    failing = payment.id ?? ""
    collected = (await client.payments.create({ amount: 1000, currency: "GBP", links: { mandate } } as never)).id ?? ""
    await advanceTo(payment.charge_date ?? "")
  }, 120_000)
  afterAll(async () => {
    await server.close()
  })

  it("lists the day's submissions with their filters and serves each file as its exact bytes", async () => {
    const listed = await get("/bank_submissions?scheme=bacs")
    expect(listed.status).toBe(200)
    const submissions = listed.body["bank_submissions"] as ReadonlyArray<Json>
    const collections = submissions.find((s) => (s["total_amount"] as number) === 2091)
    expect(collections).toMatchObject({ scheme: "bacs", file_format: "bacs_standard18", item_count: 2, currency: "GBP", links: { creditor } })
    expect(String(collections?.["id"])).toMatch(/^BS[0-9A-Z]{12}$/)
    expect(collections).not.toHaveProperty("batch")
    expect(collections).not.toHaveProperty("originator")
    expect(listed.body["meta"]).toMatchObject({ limit: 50 })
    expect((await get("/bank_submissions?scheme=ach")).body["bank_submissions"]).toEqual([])
    expect((await get(`/bank_submissions?creditor=${creditor}`)).body["bank_submissions"]).toHaveLength(submissions.length)
    expect((await get("/bank_submissions?created_at[lt]=2001-01-01T00:00:00.000Z")).body["bank_submissions"]).toEqual([])
    expect((await get(`/bank_submissions?created_at[gte]=${String(collections?.["created_at"])}`)).body["bank_submissions"]).toContainEqual(collections)
    const first = await get("/bank_submissions?limit=1")
    expect(first.body["bank_submissions"]).toHaveLength(1)
    expect((await get("/bank_submissions?status=x")).status).toBe(400)

    const id = String(collections?.["id"])
    expect((await get(`/bank_submissions/${id}`)).body["bank_submissions"]).toEqual(collections)
    const file = await fetch(`${server.url}/bank_submissions/${id}/file`, { headers: { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06" } })
    expect(file.status).toBe(200)
    expect(file.headers.get("content-type")).toMatch(/^text\/plain/)
    expect(file.headers.get("content-disposition")).toContain(`${id}.`)
    const bytes = new Uint8Array(await file.arrayBuffer())
    expect(bytes.length).toBe(collections?.["file_size"])
    expect(sha256(bytes)).toBe(collections?.["file_sha256"])
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("VOL1")
    expect((await get("/bank_submissions/BS000000000000")).status).toBe(404)
    expect((await get("/bank_submissions/not-an-id/file")).status).toBe(404)
  })

  it("lists the sandbox bank's report with its entries and file; the same bytes posted again are that report and apply nothing", async () => {
    expect((await client.payments.find(failing)).status).toBe("failed")
    const reports = (await get("/bank_reports")).body["bank_reports"] as ReadonlyArray<Json>
    const arudd = reports.find((r) => r["format"] === "bacs_arudd")
    expect(arudd).toMatchObject({ source: "bank", entry_count: 1, matched_count: 1, unmatched_count: 0, duplicate_count: 0 })
    expect((await get("/bank_reports?format=bacs_arudd")).body["bank_reports"]).toContainEqual(arudd)
    const id = String(arudd?.["id"])
    const detail = (await get(`/bank_reports/${id}`)).body["bank_reports"] as Json
    expect(detail["entries"]).toEqual([expect.objectContaining({
      position: 0, kind: "collection_returned", code: "0", outcome: "applied", matched: true, flags: [], cause: "insufficient_funds", reason_code: "ARUDD-0",
      links: expect.objectContaining({ payment: failing })
    })])
    const entries = (await get(`/bank_reports/${id}/entries?limit=1`)).body
    expect(entries["bank_report_entries"]).toEqual(detail["entries"])

    const file = await fetch(`${server.url}/bank_reports/${id}/file`, { headers: { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06" } })
    expect(file.headers.get("content-type")).toMatch(/xml/)
    const bytes = new Uint8Array(await file.arrayBuffer())
    expect(sha256(bytes)).toBe(arudd?.["file_sha256"])

    const events = async () => (await client.events.list({ payment: failing, limit: "500" } as never)).events.length
    const before = await events()
    const again = await post(server, token, bytes)
    expect(again.status).toBe(200)
    expect((await json(again))["bank_reports"]).toMatchObject({ id, entry_count: 1, matched_count: 1 })
    expect(await events()).toBe(before)
    expect((await get("/bank_reports")).body["bank_reports"]).toHaveLength(reports.length)
  })

  it("refuses malformed, truncated, unknown and oversized reports naming where, recording nothing", async () => {
    const reports = async () => ((await get("/bank_reports")).body["bank_reports"] as ReadonlyArray<Json>).length
    const count = await reports()
    const arudd = ((await get("/bank_reports?format=bacs_arudd")).body["bank_reports"] as ReadonlyArray<Json>)[0]
    const file = await fetch(`${server.url}/bank_reports/${String(arudd?.["id"])}/file`, { headers: { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06" } })
    const text = await file.text()

    const refusals: ReadonlyArray<readonly [string, string, RegExp]> = [
      ["not a report", "", /line 1/],
      ["", "", /line 1/],
      [text.slice(0, Math.floor(text.length / 2)), "", /OriginatingAccountRecord \(line \d+\): not well-formed XML/],
      [WRONG_NAMESPACE, "?format=pain.002.001.03", /Document/],
      [text, "?format=nacha_returns", /line 1/]
    ]
    for (const [body, query, where] of refusals) {
      const refused = await post(server, token, body, query)
      expect(refused.status, `${body.slice(0, 40)} ${query}`).toBe(422)
      const error = (await json(refused))["error"] as { readonly type: string; readonly errors: ReadonlyArray<Json> }
      expect(error.type).toBe("validation_failed")
      expect(error.errors[0]).toMatchObject({ field: "file", reason: "bank_report_refused" })
      expect(String(error.errors[0]?.["message"])).toMatch(where)
    }
    expect((await post(server, token, text, "?format=swift_mt940")).status).toBe(422)
    expect((await post(server, token, text, "?colour=red")).status).toBe(400)

    const oversized = await declaring(server.url, token, BANK_REPORT_BODY_MAX_BYTES + 1)
    expect(oversized.status).toBe(413)
    expect(oversized.body).toContain(String(BANK_REPORT_BODY_MAX_BYTES))
    expect(await reports()).toBe(count)
  })

  it("keeps tenants apart: another organisation sees nothing, and this one's report posted there matches nothing", async () => {
    const made = await api(server.url, token, "/sandbox/organisations", { method: "POST", body: {} })
    expect(made.status).toBe(201)
    const other = String(((await json(made))["organisations"] as Json)["access_token"])
    const submission = ((await get("/bank_submissions")).body["bank_submissions"] as ReadonlyArray<Json>)[0]
    const report = ((await get("/bank_reports?format=bacs_arudd")).body["bank_reports"] as ReadonlyArray<Json>)[0]
    expect((await get("/bank_submissions", other)).body["bank_submissions"]).toEqual([])
    expect((await get("/bank_reports", other)).body["bank_reports"]).toEqual([])
    expect((await get(`/bank_submissions/${String(submission?.["id"])}`, other)).status).toBe(404)
    expect((await get(`/bank_submissions/${String(submission?.["id"])}/file`, other)).status).toBe(404)
    expect((await get(`/bank_reports/${String(report?.["id"])}`, other)).status).toBe(404)
    expect((await get(`/bank_reports/${String(report?.["id"])}/file`, other)).status).toBe(404)

    const bytes = await (await fetch(`${server.url}/bank_reports/${String(report?.["id"])}/file`, { headers: { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06" } })).arrayBuffer()
    const posted = await post(server, other, new Uint8Array(bytes))
    expect(posted.status).toBe(201)
    const theirs = (await json(posted))["bank_reports"] as Json
    expect(theirs).toMatchObject({ entry_count: 1, matched_count: 0, unmatched_count: 1 })
    expect(theirs["id"]).not.toBe(report?.["id"])
    const entries = ((await get(`/bank_reports/${String(theirs["id"])}`, other)).body["bank_reports"] as Json)["entries"]
    expect(entries).toEqual([expect.objectContaining({ outcome: "unmatched", matched: false, links: {} })])
    expect((await client.payments.find(collected)).status).not.toBe("failed")
  })

  it("takes reports only from read-write tokens, and answers reads to read-only ones", async () => {
    const readOnly = await server.runtime.runPromise(issueAccessToken({ id: "AT_bank_rails_ro", organisation: server.boot.organisation.id, scope: "read_only" }))
    expect((await post(server, readOnly, "x")).status).toBe(403)
    expect((await get("/bank_reports", readOnly)).status).toBe(200)
    expect((await post(server, "not-a-token", "x")).status).toBe(401)
  })

  it("paykit bank submissions, file and report speak to it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "paykit-bank-"))
    try {
      const paykit = async (...argv: ReadonlyArray<string>) => {
        const out: Array<string> = []
        const err: Array<string> = []
        const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), env: { PAYKIT_URL: server.url, PAYKIT_TOKEN: token } }
        return { code: await runCli(argv, io), out, err }
      }
      const listed = await paykit("bank", "submissions", "--scheme", "bacs")
      expect(listed.code, listed.err.join("\n")).toBe(EXIT.ok)
      const submission = ((await get("/bank_submissions?scheme=bacs")).body["bank_submissions"] as ReadonlyArray<Json>).find((s) => s["total_amount"] === 2091)
      const id = String(submission?.["id"])
      expect(listed.out.join("\n")).toContain(`${id}  bacs  bacs_standard18`)

      const out = join(dir, "submission.txt")
      const saved = await paykit("bank", "file", id, "--out", out)
      expect(saved.code, saved.err.join("\n")).toBe(EXIT.ok)
      expect(sha256(readFileSync(out))).toBe(submission?.["file_sha256"])

      const arudd = ((await get("/bank_reports?format=bacs_arudd")).body["bank_reports"] as ReadonlyArray<Json>)[0]
      const reportFile = join(dir, "arudd.xml")
      writeFileSync(reportFile, new Uint8Array(await (await fetch(`${server.url}/bank_reports/${String(arudd?.["id"])}/file`, { headers: { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06" } })).arrayBuffer()))
      const again = await paykit("bank", "report", reportFile, "--json")
      expect(again.code, again.err.join("\n")).toBe(EXIT.ok)
      expect(JSON.parse(again.out.join(""))).toMatchObject({ bank_reports: { id: arudd?.["id"], format: "bacs_arudd" } })
      expect((await paykit("bank", "report", reportFile)).out.join("")).toContain("received before: nothing applied")

      const broken = join(dir, "broken.txt")
      writeFileSync(broken, "101 not a nacha file\n")
      const refused = await paykit("bank", "report", broken, "--format", "nacha_returns")
      expect(refused.code).toBe(EXIT.failure)
      expect(refused.err.join("\n")).toMatch(/422 .*line 1/)
      expect((await paykit("bank", "shred")).code).toBe(EXIT.usage)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
