import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MANDATE_PDF_URL_LIFE_MS } from "@paykit/core"
import { pdfText } from "../../engine/test/pdf-text.ts"
import { api, fulfilledMandateRequest, json, localClient, SERVER_DATABASES, type TestServer } from "./harness.ts"

/**
 * `POST /mandate_pdfs` as a user meets it: the official client asks for a form, the answer's signed
 * URL serves the PDF (read back with PDF.js), in the language asked for, until it expires on
 * the organisation's clock; a mandate's form shows its bank details censored; a mandate with
 * other details is the spec's 422.
 */

const fetchPdf = async (url: string) => {
  const response = await fetch(url)
  return { status: response.status, type: response.headers.get("content-type"), bytes: new Uint8Array(await response.arrayBuffer()) }
}

for (const [database, start] of SERVER_DATABASES) {
  describe(`mandate PDFs over HTTP (${database})`, () => {
    let server: TestServer
    let token: string
    beforeAll(async () => {
      server = await start()
      token = server.boot.accessToken ?? ""
    }, 60_000)
    afterAll(() => server.close())

    it("the official client's mandatePdfs.create answers a signed URL that serves the form, valid 10 minutes", { timeout: 60_000 }, async () => {
      const client = localClient(token, server.url)
      const answer = await client.mandatePdfs.create({
        iban: "DE89370400440532013000", account_holder_name: "Jan Kowalski", given_name: "Łukasz", family_name: "Żółkiewski",
        address_line1: "ul. Długa 5", city: "Gdańsk", postal_code: "80-831", mandate_reference: "REF-PL-0001"
      }, undefined, { "Accept-Language": "pl, de;q=0.8, en;q=0.5" })
      const url = new URL(answer.url ?? "")
      expect(url.origin).toBe(server.url)
      expect(url.pathname).toMatch(/^\/pages\/OR[0-9A-Z]+\/mandate_pdfs\/MPD[0-9A-Z]{12}$/)
      expect(Date.parse(answer.expires_at ?? "") - Date.now()).toBeGreaterThan(MANDATE_PDF_URL_LIFE_MS - 60_000)
      expect(Date.parse(answer.expires_at ?? "") - Date.now()).toBeLessThanOrEqual(MANDATE_PDF_URL_LIFE_MS)

      const pdf = await fetchPdf(url.toString())
      expect(pdf.status).toBe(200)
      expect(pdf.type).toBe("application/pdf")
      const text = await pdfText(pdf.bytes)
      // Polish is no SEPA language: the next the caller accepts, German, is the form's.
      for (const words of ["SEPA-Lastschriftmandat", "Gläubiger-Identifikationsnummer", "Łukasz Żółkiewski", "ul. Długa 5", "DE89370400440532013000", "REF-PL-0001", "Jan Kowalski", "Erstattung"]) {
        expect(text).toContain(words)
      }
    })

    it("a blank Bacs form, a changed signature or another PDF's id are refused, and the link expires on the organisation's clock", { timeout: 60_000 }, async () => {
      const created = await api(server.url, token, "/mandate_pdfs", { method: "POST", body: { mandate_pdfs: { scheme: "bacs" } } })
      expect(created.status).toBe(201)
      const { url } = (await json(created))["mandate_pdfs"] as { url: string }
      const text = await pdfText((await fetchPdf(url)).bytes)
      expect(text).toContain("Instruction to your bank or building society to pay by Direct Debit")
      expect(text).toContain("The Direct Debit Guarantee")

      const tampered = new URL(url)
      tampered.searchParams.set("expires", String(Number(tampered.searchParams.get("expires")) + 60_000))
      expect((await fetchPdf(tampered.toString())).status).toBe(403)
      const other = new URL(url)
      other.pathname = other.pathname.replace(/MPD[0-9A-Z]{12}$/, "MPD000000000000")
      expect((await fetchPdf(other.toString())).status).toBe(403)

      const advanced = await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by: "PT11M" } })
      expect(advanced.status).toBe(200)
      const expired = await fetchPdf(url)
      expect(expired.status).toBe(403)
      expect(Buffer.from(expired.bytes).toString("utf8")).toContain("expired")
    })

    it("an existing mandate's form shows its payer and censored bank details; a mandate with other details is 422", { timeout: 60_000 }, async () => {
      const client = localClient(token, server.url)
      const { mandate } = await fulfilledMandateRequest(client)
      const answer = await client.mandatePdfs.create({ links: { mandate } })
      const text = await pdfText((await fetchPdf(answer.url ?? "")).bytes)
      expect(text).toContain("Ada Lovelace")
      expect(text).toContain("••••11")
      expect(text).not.toContain("55779911")

      const refused = await api(server.url, token, "/mandate_pdfs", { method: "POST", body: { mandate_pdfs: { links: { mandate }, iban: "GB33BUKB20201555555555" } } })
      expect(refused.status).toBe(422)
      const error = (await json(refused))["error"] as { type: string; errors: ReadonlyArray<{ message: string; field: string }> }
      expect(error.type).toBe("validation_failed")
      expect(error.errors).toEqual([expect.objectContaining({ field: "links.mandate", message: "Cannot provide both a mandate and other details" })])
    })

    it("the official client's create with a reused idempotency key answers a fresh PDF each time", { timeout: 60_000 }, async () => {
      const client = localClient(token, server.url)
      const first = await client.mandatePdfs.create({ scheme: "bacs", given_name: "Ada", family_name: "Lovelace" }, "pdf-key-reused")
      const second = await client.mandatePdfs.create({ scheme: "bacs", given_name: "Grace", family_name: "Hopper" }, "pdf-key-reused")
      expect(second.url).not.toBe(first.url)
      expect(await pdfText((await fetchPdf(first.url ?? "")).bytes)).toContain("Ada Lovelace")
      expect(await pdfText((await fetchPdf(second.url ?? "")).bytes)).toContain("Grace Hopper")
    })

    it("a removed customer's mandate has no form: 422 on links.mandate", { timeout: 60_000 }, async () => {
      const client = localClient(token, server.url)
      const { mandate } = await fulfilledMandateRequest(client)
      const customer = (await client.mandates.find(mandate)).links?.customer ?? ""
      await client.mandates.cancel(mandate)
      await client.customers.remove(customer)
      const refused = await api(server.url, token, "/mandate_pdfs", { method: "POST", body: { mandate_pdfs: { links: { mandate } } } })
      expect(refused.status).toBe(422)
      const error = (await json(refused))["error"] as { errors: ReadonlyArray<{ field: string }> }
      expect(error.errors.map((e) => e.field)).toEqual(["links.mandate"])
    })

    it("free text is capped, control characters and a malformed IP address refused, each on its field", async () => {
      const errorsOf = async (body: unknown) => {
        const response = await api(server.url, token, "/mandate_pdfs", { method: "POST", body: { mandate_pdfs: body } })
        expect(response.status).toBe(422)
        return ((await json(response))["error"] as { errors: ReadonlyArray<{ field: string }> }).errors.map((e) => e.field)
      }
      expect(await errorsOf({ scheme: "bacs", address_line1: "x".repeat(900) })).toEqual(["address_line1"])
      expect(await errorsOf({ scheme: "bacs", given_name: "Ada\nLovelace" })).toEqual(["given_name"])
      expect(await errorsOf({ scheme: "ach", account_type: "checking", payer_ip_address: "1.2.3.4 and I agree to anything" })).toEqual(["payer_ip_address"])
    })

    it("bad input answers the spec's errors: an ACH form without account_type, a scheme with no form, another organisation's mandate", async () => {
      const errorsOf = async (body: unknown) => {
        const response = await api(server.url, token, "/mandate_pdfs", { method: "POST", body: { mandate_pdfs: body } })
        expect(response.status).toBe(422)
        return ((await json(response))["error"] as { errors: ReadonlyArray<{ field: string }> }).errors.map((e) => e.field)
      }
      expect(await errorsOf({ scheme: "ach" })).toEqual(["account_type"])
      expect(await errorsOf({ scheme: "faster_payments" })).toEqual(["scheme"])
      expect(await errorsOf({ links: { mandate: "MD000000000000" } })).toEqual(["links.mandate"])
      expect(await errorsOf({ scheme: "bacs", account_holder_name: "A name much longer than 18" })).toEqual(["account_holder_name"])
    })
  })
}
