import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { MANDATE_PDF_URL_LIFE_MS } from "@paykit/core"
import { validateMandatePdfCreate } from "@paykit/validation"
import { Customers, MandatePdfs, Mandates, Simulator } from "../src/index.ts"
import { ORG, runEngine, setUpPayer } from "./fixtures.ts"

/**
 * The mandate PDFs use cases on the in-memory engine: the PDF is drawn once, when asked for, and
 * kept until its link expires; at `expires_at` due work erases it (the payer's details with it).
 */

const request = (body: unknown) => Effect.orDie(Effect.fromResult(validateMandatePdfCreate(body)))

const pdfText = (bytes: Uint8Array | null): string => Buffer.from(bytes ?? new Uint8Array()).toString("latin1")

describe("mandate PDFs", () => {
  it("draws the PDF once, at creation: the record holds its bytes and each read answers them", async () => {
    const r = await runEngine(Effect.gen(function*() {
      yield* setUpPayer(ORG)
      const pdfs = yield* MandatePdfs
      const created = yield* pdfs.create(ORG, yield* request({ scheme: "bacs", given_name: "Ada", family_name: "Lovelace" }), ["en"])
      return { created, first: yield* pdfs.get(ORG, created.id), second: yield* pdfs.get(ORG, created.id) }
    }))
    expect(pdfText(r.created.pdf).startsWith("%PDF-")).toBe(true)
    expect(r.first.pdf).toEqual(r.created.pdf)
    expect(r.second.pdf).toEqual(r.created.pdf)
  })

  it("erases the PDF at expires_at (due work), not before", async () => {
    const r = await runEngine(Effect.gen(function*() {
      yield* setUpPayer(ORG)
      const pdfs = yield* MandatePdfs
      const simulator = yield* Simulator
      const created = yield* pdfs.create(ORG, yield* request({ scheme: "bacs", given_name: "Ada", family_name: "Lovelace" }), ["en"])
      yield* simulator.advanceBy(MANDATE_PDF_URL_LIFE_MS - 1000)
      const before = yield* pdfs.get(ORG, created.id)
      yield* simulator.advanceBy(1000)
      const after = yield* pdfs.get(ORG, created.id)
      return { before, after }
    }))
    expect(r.before.pdf).not.toBeNull()
    expect(r.after.pdf).toBeNull()
  })

  it("a removed customer's (cancelled) mandate has no form: refused on links.mandate", async () => {
    const fields = await runEngine(Effect.gen(function*() {
      const { customer, mandate } = yield* setUpPayer(ORG)
      yield* (yield* Mandates).cancel(ORG, mandate.id)
      yield* (yield* Customers).remove(ORG, customer.id)
      const refused = yield* Effect.flip((yield* MandatePdfs).create(ORG, yield* request({ links: { mandate: mandate.id } }), ["en"]))
      return refused._tag === "ValidationFailed" ? refused.errors.map((e) => e.field) : [refused._tag]
    }))
    expect(fields).toEqual(["links.mandate"])
  })
})
