import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { unsafeLocalDate } from "@paykit/core"
import { type Collection, FileFormatError, sepaFiles, type SubmissionItem, sepaText } from "../src/index.ts"
import { collectionArb, mandateInstructionArb, sepaCollectionArb, sepaDebtorArb } from "./arbitraries.ts"
import { PAIN_008_XSD_ABSENT, PAIN_008_XSD_PATH, pain008SchemaErrors } from "./iso-schema.ts"
import { mustWrite, readPain008, sepaHeaderFor, sorted, writePain008 } from "./sepa-helpers.ts"

const example: Collection = {
  kind: "collection",
  payment: "PM0000000000A1",
  amount: 1091,
  currency: "EUR",
  charge_date: unsafeLocalDate("2026-12-01"),
  sequence: "first",
  mandate: "MD0000000000A1",
  mandate_reference: "ACME-0001",
  mandate_signed_on: unsafeLocalDate("2026-11-01"),
  authorisation_source: "web",
  debtor: { account_holder_name: "Jane Doe", iban: "NL91ABNA0417164300", bic: "ABNANL2A" },
  remittance: "Invoice 12"
}

const collections = fc.array(sepaCollectionArb, { minLength: 1, maxLength: 25 }).map(sorted)
const cutsArb = fc.array(fc.nat(), { maxLength: 8 })

/** The sequence a file states: a re-presentation goes as a recurring collection. */
const statedSequence = (c: Collection) => (c.sequence === "represented" ? "recurring" : c.sequence)

describe("pain.008 written for SEPA Core collections", () => {
  it("reads back, in chunks cut anywhere, as the collections written", () => {
    fc.assert(fc.property(collections, cutsArb, (items, cuts) => {
      const read = readPain008(mustWrite(writePain008(sepaHeaderFor(items), items)), cuts)
      if (read instanceof FileFormatError) throw new Error(`${read.location}: ${read.message}`)
      expect(read.items.map((r) => ({
        target: r.target,
        mandate_reference: r.mandate_reference,
        amount: r.amount,
        charge_date: r.charge_date,
        sequence: r.sequence,
        debtor: r.debtor
      }))).toEqual(items.map((c) => ({
        target: { by: "end_to_end", id: c.payment },
        mandate_reference: c.mandate_reference,
        amount: c.amount,
        charge_date: c.charge_date,
        sequence: statedSequence(c),
        debtor: { ...c.debtor, account_holder_name: sepaText(c.debtor.account_holder_name, 70) }
      })))
      expect(read.facts).toEqual({
        id: "BS000000000001",
        processing_date: items.map((c) => c.charge_date).sort()[0],
        originator: { name: "Acme GmbH", scheme_identifier: "DE98ZZZ09999999999" },
        item_count: items.length,
        total_amount: items.reduce((sum, c) => sum + c.amount, 0)
      })
    }))
  })

  it("puts a run of collections of one sequence type and collection date in one batch, and a new batch at each change", () => {
    fc.assert(fc.property(collections, (items) => {
      const read = readPain008(mustWrite(writePain008(sepaHeaderFor(items), items)))
      if (read instanceof FileFormatError) throw new Error(read.message)
      const runs = items.map((c, i) => {
        const previous = items[i - 1]
        return previous === undefined || statedSequence(previous) !== statedSequence(c) || previous.charge_date !== c.charge_date
      })
      const starts = read.items.map((r, i) => i === 0 || r.batch !== read.items[i - 1]?.batch)
      expect(starts).toEqual(runs)
      expect(read.items.every((r) => /^\/Document\/CstmrDrctDbtInitn\/PmtInf(\[\d+\])?\/DrctDbtTxInf(\[\d+\])?$/.test(r.location) && r.batch?.startsWith("BS000000000001-"))).toBe(true)
    }))
  })

  it.skipIf(PAIN_008_XSD_PATH === undefined)(
    `is valid against the ISO 20022 schema, whatever the names, references and remittance text${PAIN_008_XSD_PATH === undefined ? ` (${PAIN_008_XSD_ABSENT})` : ""}`,
    async () => {
      const anyText = fc.string({ unit: "binary", minLength: 1, maxLength: 200 }).filter((s) => sepaText(s, 70) !== "")
      const wild = fc.record({
        collection: sepaCollectionArb,
        name: anyText,
        remittance: fc.option(fc.string({ unit: "binary", maxLength: 300 }), { nil: null }),
        reference: fc.stringMatching(/^[A-Za-z0-9 &/<>"'_.-]{1,60}$/).filter((s) => /[A-Za-z0-9]/.test(s))
      }).map(({ collection, name, remittance, reference }): Collection => ({
        ...collection,
        mandate_reference: reference,
        remittance,
        debtor: { ...collection.debtor, account_holder_name: name }
      }))
      await fc.assert(fc.asyncProperty(fc.array(wild, { minLength: 1, maxLength: 12 }).map(sorted), async (items) => {
        expect(await pain008SchemaErrors(mustWrite(writePain008(sepaHeaderFor(items), items)))).toEqual([])
      }), { numRuns: 15 })
    }
  )

  it.skipIf(PAIN_008_XSD_PATH === undefined)(
    `the schema check refuses a file the schema does not allow${PAIN_008_XSD_PATH === undefined ? ` (${PAIN_008_XSD_ABSENT})` : ""}`,
    async () => {
      const valid = mustWrite(writePain008(sepaHeaderFor([example]), [example]))
      expect(await pain008SchemaErrors(valid)).toEqual([])
      expect(await pain008SchemaErrors(valid.replace("<SeqTp>FRST</SeqTp>", "<SeqTp>ONCE</SeqTp>"))).not.toEqual([])
      expect(await pain008SchemaErrors(valid.replace("<Nm>Jane Doe</Nm>", `<Nm>${"J".repeat(141)}</Nm>`))).not.toEqual([])
    }
  )

  it("transliterates to SEPA's character set and cuts names to 70 characters", () => {
    expect(sepaText("Zoë Müller & Söhne — Straße", 70)).toBe("Zoe Muller + Sohne - Strasse")
    expect(sepaText("王小明", 70)).toBe("???")
    expect(sepaText(`  ${"A".repeat(80)}  `, 70)).toHaveLength(70)
    expect(sepaText("line\nbreak\t and  tab", 70)).toBe("line break and tab")
  })

  it("escapes what XML reserves", () => {
    fc.assert(fc.property(sepaCollectionArb, fc.string({ maxLength: 40 }), (c, remittance) => {
      const item = { ...c, remittance: `<${remittance}&"'>` }
      const read = readPain008(mustWrite(writePain008(sepaHeaderFor([item]), [item])))
      expect(read).not.toBeInstanceOf(FileFormatError)
    }))
  })
})

describe("a pain.008 writer refuses", () => {
  const one = (c: Collection): ReadonlyArray<SubmissionItem> => [c]
  const failure = (items: ReadonlyArray<SubmissionItem>, header = sepaHeaderFor(items)): FileFormatError => {
    const got = writePain008(header, items)
    if (!(got instanceof FileFormatError)) throw new Error("written")
    return got
  }

  it("a mandate instruction (a SEPA mandate travels with its first collection), naming the mandate", () => {
    expect(sepaFiles.submission.mandateActions).toEqual([])
    fc.assert(fc.property(mandateInstructionArb, sepaCollectionArb, (mandate, c) => {
      const got = failure([{ ...mandate, debtor: c.debtor }, c])
      expect(got.message).toContain(mandate.mandate)
      expect(got.message).toContain("first collection")
    }))
  })

  it("totals that differ from the header's promise", () => {
    fc.assert(fc.property(sepaCollectionArb, fc.integer({ min: 1, max: 100 }), (c, more) => {
      expect(failure(one(c), { ...sepaHeaderFor(one(c)), total_amount: c.amount + more }).location).toBe("/Document/CstmrDrctDbtInitn/GrpHdr")
      expect(failure(one(c), { ...sepaHeaderFor(one(c)), item_count: 1 + more }).message).toContain("promised")
    }))
  })

  it("an empty submission, another currency than EUR, and a payer without an IBAN", () => {
    expect(failure([]).message).toContain("at least one collection")
    fc.assert(fc.property(collectionArb, (c) => {
      expect(failure(one(c)).message).toContain("EUR")
    }))
    fc.assert(fc.property(sepaCollectionArb, sepaDebtorArb, (c, debtor) => {
      const { iban: _iban, ...noIban } = debtor
      expect(failure(one({ ...c, debtor: noIban })).location).toBe("/Document/CstmrDrctDbtInitn/PmtInf/DrctDbtTxInf")
    }))
  })

  it("a creditor without a SEPA creditor identifier or an IBAN", () => {
    fc.assert(fc.property(sepaCollectionArb, (c) => {
      const header = sepaHeaderFor(one(c))
      expect(failure(one(c), { ...header, originator: { ...header.originator, scheme_identifier: "" } }).message).toContain("creditor identifier")
      expect(failure(one(c), { ...header, originator: { ...header.originator, account: { account_holder_name: "Acme" } } }).message).toContain("IBAN")
    }))
  })
})
