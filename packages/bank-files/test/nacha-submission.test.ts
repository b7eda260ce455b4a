import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { unsafeLocalDate } from "@paykit/core"
import { abaCheckDigit } from "@paykit/validation"
import {
  type Collection,
  FileFormatError,
  type MandateInstruction,
  nachaFiles,
  standardEntryClassOf,
  type SubmissionItem,
  type SubmittedItem
} from "../src/index.ts"
import { achCollectionArb, achItemArb, achMandateArb, achOriginator, mandateInstructionArb } from "./arbitraries.ts"
import { achHeaderFor, nodeNacha, nodeNachaCalculate, PADDING, readAll, sorted, writeSubmission } from "./nacha-support.ts"

const itemsArb = fc.array(achItemArb, { minLength: 1, maxLength: 25 })

const readSubmission = (text: string, cuts: ReadonlyArray<number> = []) => {
  const reader = nachaFiles.submission.reader()
  const items: Array<SubmittedItem> = []
  const got = readAll({ write: reader.write, end: () => [] }, text, cuts)
  if (got instanceof FileFormatError) return got
  items.push(...got)
  const end = reader.end()
  if (end instanceof FileFormatError) return end
  return { items: [...items, ...end.items], facts: end.facts }
}

/** What the file must say of an item, from the item itself (not from the writer). */
const expectedOf = (item: SubmissionItem) => ({
  kind: item.kind,
  target: { by: "end_to_end", id: item.kind === "collection" ? item.payment : item.mandate },
  mandate_reference: item.mandate_reference,
  debtor: item.debtor,
  ...(item.kind === "collection" ? { amount: item.amount, charge_date: item.charge_date } : { action: "setup" })
})

describe("ACH submissions written as NACHA files", () => {
  it("read back, in chunks cut anywhere, as the items written, in any order", () => {
    fc.assert(fc.property(itemsArb, fc.boolean(), fc.array(fc.nat(), { maxLength: 8 }), (drawn, sort, cuts) => {
      const items = sort ? sorted(drawn) : drawn
      const text = writeSubmission(items)
      const read = readSubmission(text, cuts)
      if (read instanceof FileFormatError) throw new Error(`${read.location}: ${read.message}`)
      expect(read.items.map(({ location: _l, scheme_reference: _s, ...rest }) => rest)).toEqual(items.map(expectedOf))
      expect(read.facts).toEqual({
        id: "BS0000000000AB",
        processing_date: "2026-12-01",
        originator: { name: "Acme Payments In", scheme_identifier: achOriginator.scheme_identifier },
        item_count: items.length,
        total_amount: achHeaderFor(items).total_amount
      })
      // Trace numbers: the ODFI's first 8 digits, then 1, 2, 3... in file order.
      expect(read.items.map((i) => i.scheme_reference)).toEqual(items.map((_, n) => `12100035${String(n + 1).padStart(7, "0")}`))
    }))
  })

  it("are read by node-nacha, an independent parser, with every field where the Rules put it and its own totals agreeing", () => {
    fc.assert(fc.property(itemsArb, (drawn) => {
      const items = sorted(drawn)
      const text = writeSubmission(items)
      const lines = text.split("\n").filter((l) => l !== "")
      expect(lines.every((l) => l.length === 94)).toBe(true)
      expect(lines.length % 10).toBe(0)

      const parsed = nodeNacha.from(text).data
      expect(parsed.file).toMatchObject({ destination: " 121000358", origin: " 121000358", creationDate: "261130", idModifier: "B", recordSize: "094", blockingFactor: "10" })
      const entries = parsed.batches.flatMap((b) => b.entries.map((e) => ({ batch: b, entry: e })))
      expect(entries).toHaveLength(items.length)
      entries.forEach(({ batch, entry }, i) => {
        const item = items[i]!
        const savings = item.debtor.account_type === "savings"
        expect(batch.entryClassCode).toBe(item.authorisation_source === "web" ? "WEB" : "PPD")
        expect(batch.companyId).toBe("1234567890")
        expect(batch.serviceClassCode).toBe(225)
        expect(batch.effectiveDate).toBe(item.kind === "collection" ? item.charge_date.replace(/^20(\d\d)-(\d\d)-(\d\d)$/, "$1$2$3") : "261201")
        expect(entry.transactionCode).toBe(item.kind === "collection" ? (savings ? "37" : "27") : (savings ? "38" : "28"))
        expect(`${String(entry.receivingDFIIdentification).padStart(8, "0")}${entry.checkDigit}`).toBe(item.debtor.routing_number)
        expect(entry.dfiAccount).toBe(item.debtor.account_number)
        expect(entry.amount).toBe(item.kind === "collection" ? item.amount : 0)
        expect(entry.identificationNumber).toBe(item.kind === "collection" ? item.payment : item.mandate)
        expect(entry.receivingCompanyName).toBe(item.debtor.account_holder_name)
        expect(entry.addendaIndicator).toBe("1")
        expect(String(entry.traceNumber)).toBe(`12100035${String(i + 1).padStart(7, "0")}`)
        expect(entry.addenda?.type).toBe("05")
        expect(entry.addenda?.info.slice(0, 35).trim()).toBe(item.mandate_reference)
        expect(entry.addenda?.entryNum).toBe(i + 1)
        if (batch.entryClassCode === "WEB") expect(entry.paymentTypeCode).toBe(item.kind === "collection" && item.sequence === "one_off" ? "S" : "R")
      })
      // node-nacha's own arithmetic over what it parsed: counts, entry hashes, totals and blocks.
      const calculated = nodeNachaCalculate({ ach: parsed })
      parsed.batches.forEach((batch, i) => expect(batch.footer).toMatchObject(calculated.batchFooters[i]!))
      const { lineCount: _, ...fileFooter } = calculated.footer
      expect(parsed.file.footer).toMatchObject(fileFooter)
      // And formatted back by node-nacha from its parse, the file is the same, record for record.
      const formatted = nodeNacha.from(text).to("ach").split("\n").filter((l) => l !== PADDING)
      expect(formatted).toEqual(lines.filter((l) => l !== PADDING))
    }), { numRuns: 50 })
  })

  it("start a batch for each run of one standard entry class and effective date", () => {
    const [web, paper] = fc.sample(achCollectionArb, { numRuns: 2, seed: 7 }).map((c, i) => ({ ...c, authorisation_source: i === 0 ? "web" as const : "paper" as const, charge_date: unsafeLocalDate("2026-12-02") }))
    const later = { ...web!, payment: "PM00000000000Z", charge_date: unsafeLocalDate("2026-12-09") }
    const parsed = nodeNacha.from(writeSubmission([web!, web!, paper!, later])).data
    expect(parsed.batches.map((b) => [b.entryClassCode, b.effectiveDate, b.entries.length, b.num])).toEqual([
      ["WEB", "261202", 2, 1],
      ["PPD", "261202", 1, 2],
      ["WEB", "261209", 1, 3]
    ])
    expect(standardEntryClassOf(paper!)).toBe("PPD")
  })

  it("name a setup's prenote by the mandate's id, with no amount", () => {
    const [mandate] = fc.sample(achMandateArb, { numRuns: 1, seed: 3 })
    const text = writeSubmission([mandate!])
    const entry = text.split("\n")[2]!
    expect(entry.slice(29, 39)).toBe("0000000000")
    expect(entry.slice(39, 54).trim()).toBe(mandate!.mandate)
  })
})

describe("the ACH writer refuses what a NACHA file cannot carry", () => {
  const [collection] = fc.sample(achCollectionArb, { numRuns: 1, seed: 1 }) as Array<Collection>
  const refusal = (items: ReadonlyArray<SubmissionItem>, header = achHeaderFor(items)) => {
    const writer = nachaFiles.submission.writer(header)
    writer.begin()
    items.forEach(writer.item)
    return writer.end()
  }

  it("a mandate cancellation or conversion: ACH has no such instruction", () => {
    const [instruction] = fc.sample(mandateInstructionArb.filter((m) => m.action !== "setup"), { numRuns: 1, seed: 2 }) as Array<MandateInstruction>
    const got = refusal([collection!, { ...instruction!, debtor: collection!.debtor }])
    expect(got).toBeInstanceOf(FileFormatError)
    expect((got as FileFormatError).location).toBe("item 2")
    expect((got as FileFormatError).message).toMatch(/no instruction to (cancel|convert)/)
    expect(nachaFiles.submission.mandateActions).toEqual(["setup"])
  })

  it.each([
    ["another currency", { currency: "EUR" }, /USD/],
    ["a routing number with a wrong check digit", { debtor: { account_holder_name: "A", routing_number: "121000359", account_number: "1234" } }, /check digit/],
    ["no routing number", { debtor: { account_holder_name: "A", account_number: "1234" } }, /no routing number/],
    ["an account number longer than 17", { debtor: { account_holder_name: "A", routing_number: "121000358", account_number: "1".repeat(18) } }, /account number/],
    ["an id longer than 15", { payment: "PM0000000000000001" }, /individual identification number/],
    ["a mandate reference longer than 35", { mandate_reference: "R".repeat(36) }, /mandate reference/],
    ["an amount of more than 10 digits", { amount: 10_000_000_000 }, /amount/]
  ])("%s", (_name, change, message) => {
    const item = { ...collection!, ...change } as Collection
    const got = refusal([item])
    expect(got).toBeInstanceOf(FileFormatError)
    expect((got as FileFormatError).message).toMatch(message)
  })

  it("a header whose promise the items do not keep, an empty submission, an originator without a routing number", () => {
    expect(refusal([collection!], { ...achHeaderFor([collection!]), item_count: 2 })).toBeInstanceOf(FileFormatError)
    expect((refusal([]) as FileFormatError).message).toMatch(/at least one entry/)
    const header = { ...achHeaderFor([collection!]), originator: { ...achOriginator, account: { account_holder_name: "Acme" } } }
    expect((refusal([collection!], header) as FileFormatError).message).toMatch(/originator's account has no routing number/)
  })
})

describe("reading a NACHA submission refuses a file that is not whole and right, naming the line", () => {
  const [a, b] = fc.sample(achCollectionArb, { numRuns: 2, seed: 11 }).map((c) => ({ ...c, authorisation_source: "paper" as const, charge_date: unsafeLocalDate("2026-12-02") }))
  const good = writeSubmission([a!, b!])
  const lines = good.split("\n").filter((l) => l !== "")
  // 1 file header, 2 batch header, 3/4 and 5/6 entries with addenda, 7 batch control, 8 file control, 9-10 padding.
  const edit = (n: number, change: (record: string) => string) => lines.map((l, i) => (i === n - 1 ? change(l) : l)).join("\n")
  const put = (record: string, from: number, text: string) => record.slice(0, from - 1) + text + record.slice(from - 1 + text.length)
  const errorOf = (text: string) => {
    const got = readSubmission(text)
    if (!(got instanceof FileFormatError)) throw new Error("the file was read")
    return got
  }

  it.each([
    ["a record one character short", 3, (l: string) => l.slice(0, 93), "line 3", /93 characters/],
    ["a wrong check digit", 3, (l: string) => put(l, 12, String((Number(l[11]) + 1) % 10)), "line 3", /check digit/],
    ["an amount the batch control does not hold", 3, (l: string) => put(l, 30, "0000000001"), "line 7", /total debit amount/],
    ["a batch control's entry hash changed", 7, (l: string) => put(l, 11, "0000000001"), "line 7", /entry hash/],
    ["a batch control's count changed", 7, (l: string) => put(l, 5, "000009"), "line 7", /entry\/addenda count/],
    ["a file control's debit total changed", 8, (l: string) => put(l, 32, "000000000001"), "line 8", /total debit amount/],
    ["a file control's block count changed", 8, (l: string) => put(l, 8, "000002"), "line 8", /block count/],
    ["a batch of another class", 2, (l: string) => put(l, 51, "CCD"), "line 2", /CCD/],
    ["an addenda of another entry", 4, (l: string) => put(l, 88, "0000009"), "line 4", /entry detail sequence number/],
    ["an entry whose trace does not ascend", 5, (l: string) => put(l, 80, "121000350000001"), "line 5", /ascend/],
    ["a priority code of 02", 1, (l: string) => put(l, 2, "02"), "line 1", /priority code/]
  ])("%s", (_name, n, change, location, message) => {
    const error = errorOf(edit(n, change))
    expect(error.location).toBe(location)
    expect(error.message).toMatch(message)
  })

  it("a file cut before its batch control, or before its file control, or empty", () => {
    expect(errorOf(lines.slice(0, 6).join("\n"))).toMatchObject({ location: "line 7", message: expect.stringMatching(/ends inside the batch of line 2/) })
    expect(errorOf(lines.slice(0, 7).join("\n"))).toMatchObject({ location: "line 8", message: expect.stringMatching(/without its file control/) })
    expect(errorOf("")).toMatchObject({ location: "line 1" })
  })

  it("a record after the file control that is not padding, and an addenda without its entry", () => {
    expect(errorOf(edit(9, () => "8".repeat(94)))).toMatchObject({ location: "line 9", message: expect.stringMatching(/padding/) })
    expect(errorOf(edit(3, () => lines[3]!))).toMatchObject({ location: "line 3", message: expect.stringMatching(/must follow an entry/) })
  })

  it("a prenote with an amount", () => {
    const [mandate] = fc.sample(achMandateArb, { numRuns: 1, seed: 5 })
    const text = writeSubmission([mandate!])
    const bad = text.split("\n").map((l, i) => (i === 2 ? put(l, 30, "0000000001") : i === 4 ? put(l, 21, "000000000001") : i === 5 ? put(l, 32, "000000000001") : l)).join("\n")
    expect(errorOf(bad)).toMatchObject({ location: "line 3", message: expect.stringMatching(/prenote's amount/) })
  })

  it("keeps the check digit the Rules compute (weights 3, 7, 1)", () => {
    // 12100035: 3*1+7*2+1*1+3*0+7*0+1*0+3*3+7*5 = 62; 70-62 = 8.
    expect(abaCheckDigit("12100035")).toBe(8)
  })
})
