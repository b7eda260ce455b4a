import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FileFormatError, type ReportEntry, type ReportHeader, schemeFilesFor, type ReportFormat } from "@paykit/bank-files"
import { type Timestamp, unsafeLocalDate } from "@paykit/core"
import { PAIN_008_XSD_ABSENT, PAIN_008_XSD_PATH, pain008SchemaErrors } from "../../bank-files/test/iso-schema.ts"
import { nodeNacha } from "../../bank-files/test/nacha-support.ts"
import { api, bacsMandate, json, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * The files bank's journey as a user meets it (docs/bank-rails.md, "The files bank"): a sandbox
 * server with `PAYKIT_BANK=files`, mandates and payments on SEPA Core, ACH and Bacs made with the
 * official client (the sandbox creditor collects on every scheme at once), the sandbox clock
 * advanced day by day until each scheme's collections are submitted; each file downloaded with
 * plain fetch and read by an independent reader (the ISO XSD through xmllint for pain.008,
 * @midlandsbank/node-nacha for NACHA); a return report (pain.002, NACHA returns) naming one
 * payment posted back, which fails it with the scheme's code and mapped cause; the same report
 * again answered 200 with nothing changed; the payments no report names confirmed only by the
 * settlement rule on their charge dates.
 */

type Json = Record<string, unknown>

const HEADERS = { "gocardless-version": "2015-07-06" }

/** A report as a bank would write it, with the format's own writer. */
const writeReport = (scheme: string, format: ReportFormat, header: Omit<ReportHeader, "scheme" | "format">, entries: ReadonlyArray<Omit<ReportEntry, "scheme" | "format" | "location">>): string => {
  const family = schemeFilesFor(scheme).reports.find((r) => r.format === format)
  if (family === undefined) throw new Error(`no writer of ${format}`)
  const writer = family.writer({ ...header, scheme, format })
  const body = writer.begin() + entries.map((e) => writer.entry({ ...e, scheme, format, location: "" })).join("")
  const end = writer.end()
  if (end instanceof FileFormatError) throw new Error(`${end.location}: ${end.message}`)
  return body + end
}

describe("the files bank's journey over HTTP", () => {
  let server: TestServer
  let client: GoCardlessClient
  let token = ""
  let creditor = ""

  const auth = () => ({ ...HEADERS, authorization: `Bearer ${token}` })
  const get = async (path: string) => json(await fetch(`${server.url}${path}`, { headers: auth() }))
  const postReport = (body: string, format: string) =>
    fetch(`${server.url}/bank_reports?format=${format}&name=return-${format}`, { method: "POST", headers: { ...auth(), "content-type": "text/plain" }, body })
  const advanceOneDay = async () => {
    const response = await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by: "P1D" } })
    expect(response.status).toBe(200)
  }
  const clock = async () => String(((await get("/sandbox/simulator/clock"))["simulator_clock"] as Json)["now"]).slice(0, 10)
  const eventsOf = async (payment: string) =>
    (await client.events.list({ payment, limit: "500" } as never)).events.map((e) => ({ action: String(e.action), details: e.details as unknown as Json })).reverse()
  /** The submission of `scheme` carrying collections, once made. */
  const collectionsOf = async (scheme: string): Promise<Json | undefined> =>
    ((await get(`/bank_submissions?scheme=${scheme}`))["bank_submissions"] as ReadonlyArray<Json>).find((s) => (s["total_amount"] as number) > 0)
  const fileOf = async (id: string) => {
    const response = await fetch(`${server.url}/bank_submissions/${id}/file`, { headers: auth() })
    expect(response.status).toBe(200)
    return { type: response.headers.get("content-type") ?? "", text: await response.text() }
  }

  beforeAll(async () => {
    server = await startServer({ bank: "files" })
    token = server.boot.accessToken ?? ""
    client = localClient(token, server.url)
    creditor = server.boot.creditor ?? ""
  }, 60_000)
  afterAll(async () => {
    await server.close()
  })

  it("the sandbox creditor collects on every direct-debit scheme at once", async () => {
    const found = await client.creditors.find(creditor)
    const active = (found.scheme_identifiers ?? []).filter((s) => s.status === "active").map((s) => String(s.scheme))
    expect(active).toEqual(expect.arrayContaining(["bacs", "sepa", "ach", "becs", "becs_nz", "pad", "autogiro", "betalingsservice"]))
  })

  it("SEPA, ACH and Bacs collections submitted as files, a posted return failing one, the unreported settled by their deadline", { timeout: 240_000 }, async () => {
    const customer = async (country: string, account: Json) => {
      const made = await client.customers.create({ email: "erika@example.com", given_name: "Erika", family_name: "Mustermann", country_code: country } as never)
      const bank = await client.customerBankAccounts.create({ account_holder_name: "Erika Mustermann", country_code: country, ...account, links: { customer: made.id } } as never)
      return bank.id ?? ""
    }
    const sepaMandate = (await client.mandates.create({ scheme: "sepa_core", links: { customer_bank_account: await customer("DE", { iban: "DE89370400440532013000" }), creditor } } as never)).id ?? ""
    const achMandate = (await client.mandates.create({
      scheme: "ach", payer_ip_address: "203.0.113.9",
      links: { customer_bank_account: await customer("US", { bank_code: "026009593", account_number: "123456789", account_type: "checking" }), creditor }
    } as never)).id ?? ""
    const bacs = await bacsMandate(client, creditor)
    const pay = async (mandate: string, amount: number, currency: string) => (await client.payments.create({ amount, currency, links: { mandate } } as never))
    // Amounts ending in 91 fail in the sandbox bank; the files bank invents nothing, so they settle unless a report says otherwise.
    const sepaReturned = await pay(sepaMandate, 2591, "EUR")
    const sepaKept = await pay(sepaMandate, 1500, "EUR")
    const achReturned = await pay(achMandate, 4200, "USD")
    const achKept = await pay(achMandate, 1291, "USD")
    const bacsKept = await pay(bacs, 1091, "GBP")

    const handled = new Set<string>()
    const lastCharge = [sepaKept, achKept, bacsKept].map((p) => String(p.charge_date)).sort().at(-1) ?? ""
    for (let day = 0; day < 20 && handled.size < 3; day++) {
      await advanceOneDay()
      const sepa = handled.has("sepa") ? undefined : await collectionsOf("sepa_core")
      if (sepa !== undefined) {
        handled.add("sepa")
        expect(sepa).toMatchObject({ file_format: "pain.008.001.02", item_count: 2, total_amount: 4091, currency: "EUR", links: { creditor } })
        expect((await client.payments.find(sepaReturned.id ?? "")).status).toBe("submitted")
        const file = await fileOf(String(sepa["id"]))
        expect(file.type).toMatch(/^application\/xml/)
        if (PAIN_008_XSD_PATH === undefined) console.warn(PAIN_008_XSD_ABSENT)
        else expect(await pain008SchemaErrors(file.text)).toEqual([])
        const batch = file.text.split("<PmtInf>").find((part) => part.includes(`<EndToEndId>${sepaReturned.id ?? ""}</EndToEndId>`))
        const pmtInfId = /<PmtInfId>([^<]+)<\/PmtInfId>/.exec(batch ?? "")?.[1] ?? ""
        expect(pmtInfId).not.toBe("")
        const report = writeReport("sepa_core", "pain.002.001.03", {
          id: "PAIN002-RETURN-1", created_at: new Date().toISOString() as Timestamp, report_date: unsafeLocalDate(String(sepa["processing_date"])),
          originator: { creditor, name: "Sandbox Creditor Ltd", scheme_identifier: "DE98ZZZ09999999999", account: { account_holder_name: "Sandbox Creditor Ltd" } }, currency: "EUR"
        }, [{ kind: "collection_returned", target: { by: "end_to_end", id: sepaReturned.id ?? "" }, code: "AM04", amount: 2591, currency: "EUR", submission: String(sepa["id"]), batch: pmtInfId }])
        const posted = await postReport(report, "pain.002.001.03")
        expect(posted.status).toBe(201)
        expect((await json(posted))["bank_reports"]).toMatchObject({ format: "pain.002.001.03", entry_count: 1, matched_count: 1, unmatched_count: 0, duplicate_count: 0 })
        const failed = await client.payments.find(sepaReturned.id ?? "")
        expect(failed.status).toBe("failed")
        const events = await eventsOf(sepaReturned.id ?? "")
        expect(events.at(-1)).toMatchObject({ action: "failed", details: { origin: "bank", cause: "insufficient_funds", reason_code: "AM04" } })
        const again = await postReport(report, "pain.002.001.03")
        expect(again.status).toBe(200)
        expect(await eventsOf(sepaReturned.id ?? "")).toEqual(events)
      }
      const ach = handled.has("ach") ? undefined : await collectionsOf("ach")
      if (ach !== undefined) {
        handled.add("ach")
        expect(ach).toMatchObject({ file_format: "nacha", total_amount: 5491, currency: "USD" })
        const file = await fileOf(String(ach["id"]))
        expect(file.type).toMatch(/^text\/plain/)
        const parsed = nodeNacha.from(file.text).data
        const entries = parsed.batches.flatMap((b) => b.entries)
        const returned = entries.find((e) => e.identificationNumber.trim() === achReturned.id)
        expect(returned).toMatchObject({ amount: 4200, dfiAccount: expect.stringMatching(/^123456789\s*$/) })
        expect(entries.find((e) => e.identificationNumber.trim() === achKept.id)?.amount).toBe(1291)
        const odfi = parsed.file.origin.trim()
        const report = writeReport("ach", "nacha_returns", {
          // Returned today (the sandbox clock's day): effective at once, before the charge date's settlement.
          id: "RETURNS-1", created_at: new Date().toISOString() as Timestamp, report_date: unsafeLocalDate(await clock()),
          originator: { creditor, name: "Sandbox Creditor Ltd", scheme_identifier: "1234567890", account: { account_holder_name: "Sandbox Creditor Ltd", routing_number: odfi } }, currency: "USD"
        }, [{
          kind: "collection_returned", target: { by: "end_to_end", id: achReturned.id ?? "" }, code: "R01", amount: 4200, currency: "USD",
          debtor: { account_holder_name: "Erika Mustermann", routing_number: "026009593", account_number: "123456789", account_type: "checking" },
          scheme_reference: String(returned?.traceNumber ?? "").padStart(15, "0")
        }, {
          // An amount other than the one submitted: flagged on its entry, not applied.
          kind: "collection_returned", target: { by: "end_to_end", id: achKept.id ?? "" }, code: "R01", amount: 1300, currency: "USD",
          debtor: { account_holder_name: "Erika Mustermann", routing_number: "026009593", account_number: "123456789", account_type: "checking" },
          scheme_reference: String(entries.find((e) => e.identificationNumber.trim() === achKept.id)?.traceNumber ?? "").padStart(15, "0")
        }])
        const posted = await postReport(report, "nacha_returns")
        expect(posted.status, JSON.stringify(await json(posted.clone()))).toBe(201)
        const id = String(((await json(posted))["bank_reports"] as Json)["id"])
        const detail = (await get(`/bank_reports/${id}`))["bank_reports"] as Json
        expect(detail).toMatchObject({ entry_count: 2, matched_count: 1, mismatched_count: 1, unmatched_count: 0 })
        expect(detail["entries"]).toEqual([
          expect.objectContaining({ reference: achReturned.id, outcome: "applied", matched: true, flags: [], reason_code: "R01", links: expect.objectContaining({ payment: achReturned.id }) }),
          expect.objectContaining({ reference: achKept.id, outcome: "amount_mismatch", matched: true, flags: ["amount_mismatch"], amount: 1300 })
        ])
        expect((await client.payments.find(achReturned.id ?? "")).status).toBe("failed")
        expect((await eventsOf(achReturned.id ?? "")).at(-1)).toMatchObject({ action: "failed", details: { origin: "bank", cause: "insufficient_funds", reason_code: "R01" } })
        expect((await postReport(report, "nacha_returns")).status).toBe(200)
      }
      const bacsFile = handled.has("bacs") ? undefined : await collectionsOf("bacs")
      if (bacsFile !== undefined) {
        handled.add("bacs")
        const file = await fileOf(String(bacsFile["id"]))
        expect(file.text.startsWith("VOL1")).toBe(true)
        expect(file.text).toContain("UTL1")
      }
    }
    expect([...handled].sort()).toEqual(["ach", "bacs", "sepa"])
    // Nothing reported on the others: each is submitted until its charge date, then confirmed by the settlement rule alone
    // on that date's daily run (06:00 UTC): the clock goes on until the date is past the last charge date, whatever the hour.
    for (let day = 0; day < 10 && (await clock()) <= lastCharge; day++) await advanceOneDay()
    for (const kept of [sepaKept, achKept, bacsKept]) {
      const events = await eventsOf(kept.id ?? "")
      expect(events.map((e) => e.action), String(kept.id)).toEqual(expect.arrayContaining(["submitted", "confirmed"]))
      expect(events.map((e) => e.action)).not.toContain("failed")
    }
    expect((await client.payments.find(sepaReturned.id ?? "")).status).toBe("failed")
    expect((await client.payments.find(achReturned.id ?? "")).status).toBe("failed")
  })
})
