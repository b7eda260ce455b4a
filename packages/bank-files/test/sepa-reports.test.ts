import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { type LocalDate, unsafeLocalDate } from "@paykit/core"
import {
  detectReportFormat,
  FileFormatError,
  type ReportEntry,
  SEPA_MAX_AMOUNT,
  SEPA_REASON_CODES,
  SEPA_REFUND_CODES,
  sepaFiles,
  sepaText
} from "../src/index.ts"
import { idArb, sepaCollectionArb, sepaDebtorArb } from "./arbitraries.ts"
import { mustWrite, readPain008, readReport, reportFiles, reportHeader, sepaHeaderFor, sorted, unplaced, writePain008, writeReport } from "./sepa-helpers.ts"

const sample = (name: string): string => readFileSync(new URL(`./samples/${name}`, import.meta.url), "utf8")
const pain002 = reportFiles("pain.002.001.03")
const camt054 = reportFiles("camt.054.001.02")

const must = <T>(got: T | FileFormatError): T => {
  if (got instanceof FileFormatError) throw new Error(`${got.location}: ${got.message}`)
  return got
}

const SUBMISSION = "BS000000000001"
const codeArb = fc.constantFrom(...Object.keys(SEPA_REASON_CODES))
const amountArb = fc.integer({ min: 1, max: SEPA_MAX_AMOUNT })
const batchArb = fc.constantFrom(`${SUBMISSION}-1`, `${SUBMISSION}-2`, `${SUBMISSION}-3`)
const referenceArb = fc.stringMatching(/^[A-Z0-9]{6,18}$/)
const dateArb = fc.integer({ min: 1, max: 28 }).map((d) => unsafeLocalDate(`2026-12-${String(d).padStart(2, "0")}`))
/** A payer as a report states it: its name already in SEPA's set. */
const debtorArb = sepaDebtorArb.map((d) => ({ ...d, account_holder_name: sepaText(d.account_holder_name, 70) }))

const common = { scheme: "sepa_core", location: "" } as const

// ---------------------------------------------------------------------------------------------
// pain.002

const pain002Entry: fc.Arbitrary<ReportEntry> = fc.oneof(
  fc.record({ id: idArb("PM"), code: codeArb, amount: fc.option(amountArb, { nil: undefined }), debtor: fc.option(debtorArb, { nil: undefined }), batch: batchArb })
    .map(({ id, code, amount, debtor, batch }): ReportEntry => ({
      ...common,
      format: "pain.002.001.03",
      kind: "collection_returned",
      target: { by: "end_to_end", id },
      code,
      ...(amount === undefined ? {} : { amount, currency: "EUR" }),
      ...(debtor === undefined ? {} : { debtor }),
      submission: SUBMISSION,
      batch
    })),
  fc.record({ reference: referenceArb, code: codeArb, amount: amountArb, date: fc.option(dateArb, { nil: undefined }), batch: batchArb })
    .map(({ reference, code, amount, date, batch }): ReportEntry => ({
      ...common,
      format: "pain.002.001.03",
      kind: "collection_returned",
      target: { by: "mandate_reference", reference, amount, ...(date === undefined ? {} : { original_date: date }) },
      code,
      amount,
      currency: "EUR",
      submission: SUBMISSION,
      batch
    })),
  fc.record({ reference: referenceArb, code: codeArb, batch: batchArb }).map(({ reference, code, batch }): ReportEntry => ({
    ...common,
    format: "pain.002.001.03",
    kind: "mandate_rejected",
    target: { by: "mandate_reference", reference },
    code,
    submission: SUBMISSION,
    batch
  })),
  fc.record({ code: codeArb, batch: batchArb }).map(({ code, batch }): ReportEntry => ({
    ...common,
    format: "pain.002.001.03",
    kind: "collection_returned",
    target: { by: "submission", id: SUBMISSION, batch },
    code,
    submission: SUBMISSION,
    batch
  }))
)

const cutsArb = fc.array(fc.nat(), { maxLength: 8 })

describe("pain.002 status reports", () => {
  it("written then read in chunks cut anywhere give the same entries", () => {
    fc.assert(fc.property(fc.array(pain002Entry, { minLength: 1, maxLength: 15 }), cutsArb, (entries, cuts) => {
      const text = must(writeReport(pain002.writer(reportHeader("pain.002.001.03")), entries))
      expect(must(readReport(pain002.reader(), text, cuts)).map(unplaced)).toEqual(entries.map(unplaced))
      expect(detectReportFormat(text)).toBe("pain.002.001.03")
    }))
  })

  it("refusing a whole file is one entry naming the submission, and the report's only one", () => {
    fc.assert(fc.property(codeArb, pain002Entry, (code, other) => {
      const whole: ReportEntry = { ...common, format: "pain.002.001.03", kind: "collection_returned", target: { by: "submission", id: SUBMISSION }, code, submission: SUBMISSION }
      const text = must(writeReport(pain002.writer(reportHeader("pain.002.001.03")), [whole]))
      expect(must(readReport(pain002.reader(), text)).map(unplaced)).toEqual([unplaced(whole)])
      expect(writeReport(pain002.writer(reportHeader("pain.002.001.03")), [whole, other])).toBeInstanceOf(FileFormatError)
    }))
  })

  it("read from a bank's partial rejection: collections by end-to-end id, a mandate by its reference", () => {
    const entries = must(readReport(pain002.reader(), sample("pain.002-partial.xml")))
    const base = { scheme: "sepa_core", format: "pain.002.001.03", submission: "BS000000000001" } as const
    expect(entries).toEqual([
      {
        ...base,
        kind: "collection_returned",
        target: { by: "end_to_end", id: "PM0000000000A1" },
        code: "AM04",
        amount: 1091,
        currency: "EUR",
        debtor: { account_holder_name: "Jan Jansen", iban: "NL91ABNA0417164300", bic: "ABNANL2A" },
        batch: "BS000000000001-1",
        location: "/Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts/TxInfAndSts"
      },
      {
        ...base,
        kind: "collection_returned",
        target: { by: "end_to_end", id: "PM0000000000A2" },
        code: "MD01",
        amount: 2500,
        currency: "EUR",
        batch: "BS000000000001-1",
        location: "/Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts/TxInfAndSts[2]"
      },
      {
        ...base,
        kind: "mandate_rejected",
        target: { by: "mandate_reference", reference: "ACME-0003" },
        code: "AC04",
        batch: "BS000000000001-2",
        location: "/Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts[2]/TxInfAndSts"
      }
    ])
    expect(entries.map((e) => sepaFiles.meaning(e.format, e.kind, e.code)?.cause)).toEqual(["insufficient_funds", "authorisation_disputed", "bank_account_closed"])
  })

  it("read from a whole file refused (with a namespace prefix) and from batches refused", () => {
    expect(must(readReport(pain002.reader(), sample("pain.002-file-rejected.xml")))).toEqual([{
      scheme: "sepa_core",
      format: "pain.002.001.03",
      kind: "collection_returned",
      target: { by: "submission", id: "BS000000000002" },
      code: "FF01",
      submission: "BS000000000002",
      location: "/Document/CstmrPmtStsRpt/OrgnlGrpInfAndSts"
    }])
    expect(must(readReport(pain002.reader(), sample("pain.002-batch-rejected.xml"))).map((e) => [e.kind, e.target, e.code, e.amount])).toEqual([
      ["collection_returned", { by: "submission", id: "BS000000000003", batch: "BS000000000003-1" }, "BE05", undefined],
      ["collection_returned", { by: "end_to_end", id: "PM0000000000C1" }, "AG02", 750]
    ])
  })

  it("answer the collections a sandbox bank read from a pain.008, by the ids that file gave them", () => {
    fc.assert(fc.property(fc.array(sepaCollectionArb, { minLength: 1, maxLength: 10 }).map(sorted), codeArb, (items, code) => {
      const submitted = must(readPain008(mustWrite(writePain008(sepaHeaderFor(items), items))))
      const entries = submitted.items.map((item): ReportEntry => ({
        ...common,
        format: "pain.002.001.03",
        kind: "collection_returned",
        target: item.target,
        code,
        ...(item.amount === undefined ? {} : { amount: item.amount, currency: "EUR" }),
        submission: submitted.facts.id,
        ...(item.batch === undefined ? {} : { batch: item.batch })
      }))
      const read = must(readReport(pain002.reader(), must(writeReport(pain002.writer(reportHeader("pain.002.001.03")), entries))))
      expect(read.map((e) => e.target)).toEqual(items.map((c) => ({ by: "end_to_end", id: c.payment })))
    }))
  })
})

// ---------------------------------------------------------------------------------------------
// camt.054

const camt054Entry: fc.Arbitrary<ReportEntry> = fc.record({
  code: codeArb,
  amount: amountArb,
  byMandate: fc.option(referenceArb, { nil: undefined }),
  id: idArb("PM"),
  date: fc.option(dateArb, { nil: undefined }),
  debtor: fc.option(debtorArb, { nil: undefined }),
  batch: fc.option(batchArb, { nil: undefined })
}).map(({ code, amount, byMandate, id, date, debtor, batch }): ReportEntry => ({
  ...common,
  format: "camt.054.001.02",
  kind: SEPA_REFUND_CODES.has(code) ? "collection_charged_back" : "collection_returned",
  target: byMandate === undefined ? { by: "end_to_end", id } : { by: "mandate_reference", reference: byMandate, amount },
  code,
  amount,
  currency: "EUR",
  ...(date === undefined ? {} : { effective_date: date }),
  ...(debtor === undefined ? {} : { debtor }),
  ...(batch === undefined ? {} : { batch })
}))

describe("camt.054 debit notifications", () => {
  it("written then read in chunks cut anywhere give the same entries", () => {
    fc.assert(fc.property(fc.array(camt054Entry, { maxLength: 15 }), cutsArb, (entries, cuts) => {
      const text = must(writeReport(camt054.writer(reportHeader("camt.054.001.02")), entries))
      expect(must(readReport(camt054.reader(), text, cuts)).map(unplaced)).toEqual(entries.map(unplaced))
      expect(detectReportFormat(text)).toBe("camt.054.001.02")
    }))
  })

  it("read from a bank's notification: returns and refunds, not the collections' credit or a fee", () => {
    const entries = must(readReport(camt054.reader(), sample("camt.054-returns.xml")))
    const base = { scheme: "sepa_core", format: "camt.054.001.02", currency: "EUR" } as const
    const notification = "/Document/BkToCstmrDbtCdtNtfctn/Ntfctn"
    expect(entries).toEqual([
      {
        ...base,
        kind: "collection_returned",
        target: { by: "end_to_end", id: "PM0000000000B1" },
        code: "AM04",
        amount: 2000,
        effective_date: "2026-12-08" as LocalDate,
        debtor: { account_holder_name: "Erika Mustermann", iban: "DE02120300000000202051", bic: "BYLADEM1001" },
        batch: "BS000000000001-1",
        location: `${notification}/Ntry[2]/NtryDtls/TxDtls`
      },
      {
        ...base,
        kind: "collection_charged_back",
        target: { by: "end_to_end", id: "PM0000000000B2" },
        code: "MD06",
        amount: 2500,
        effective_date: "2026-12-08" as LocalDate,
        location: `${notification}/Ntry[2]/NtryDtls/TxDtls[2]`
      },
      {
        ...base,
        kind: "collection_charged_back",
        target: { by: "mandate_reference", reference: "ACME-0006", amount: 1250 },
        code: "MD01",
        amount: 1250,
        effective_date: "2026-12-09" as LocalDate,
        location: `${notification}/Ntry[3]/NtryDtls/TxDtls`
      }
    ])
    expect(entries.map((e) => sepaFiles.meaning(e.format, e.kind, e.code)?.cause)).toEqual(["insufficient_funds", "authorisation_disputed", "authorisation_disputed"])
  })

  it("refuse entries a camt.054 cannot state: a kind its code contradicts, a whole submission, no amount", () => {
    fc.assert(fc.property(camt054Entry, (entry) => {
      const writer = () => camt054.writer(reportHeader("camt.054.001.02"))
      const flipped: ReportEntry = { ...entry, kind: entry.kind === "collection_returned" ? "collection_charged_back" : "collection_returned" }
      expect(writeReport(writer(), [flipped])).toBeInstanceOf(FileFormatError)
      expect(writeReport(writer(), [{ ...entry, target: { by: "submission", id: SUBMISSION } }])).toBeInstanceOf(FileFormatError)
      const { amount: _amount, ...noAmount } = entry
      if (entry.target.by === "end_to_end") expect(writeReport(writer(), [noAmount])).toBeInstanceOf(FileFormatError)
    }))
  })
})

// ---------------------------------------------------------------------------------------------
// Meanings

describe("SEPA reason codes", () => {
  it("mean the API's causes, as the issue's vocabulary says", () => {
    const cause = (format: "pain.002.001.03" | "camt.054.001.02", kind: ReportEntry["kind"], code: string) => sepaFiles.meaning(format, kind, code)?.cause
    expect(cause("pain.002.001.03", "collection_returned", "AM04")).toBe("insufficient_funds")
    expect(cause("camt.054.001.02", "collection_charged_back", "MD01")).toBe("authorisation_disputed")
    expect(cause("camt.054.001.02", "collection_charged_back", "MD06")).toBe("authorisation_disputed")
    expect(cause("camt.054.001.02", "collection_returned", "AC04")).toBe("bank_account_closed")
    expect(cause("pain.002.001.03", "mandate_rejected", "AC01")).toBe("invalid_bank_details")
    expect(cause("pain.002.001.03", "collection_returned", "BE05")).toBe("invalid_bank_details")
    expect(cause("pain.002.001.03", "collection_returned", "MS02")).toBe("refer_to_payer")
    expect(cause("camt.054.001.02", "collection_returned", "MS03")).toBe("refer_to_payer")
  })

  it("give the code itself as the reason code, and nothing for a code, kind or format they do not define", () => {
    fc.assert(fc.property(codeArb, (code) => {
      const meanings = (["collection_returned", "collection_charged_back", "mandate_rejected"] as const)
        .flatMap((kind) => [sepaFiles.meaning("pain.002.001.03", kind, code), sepaFiles.meaning("camt.054.001.02", kind, code)])
        .filter((m) => m !== undefined)
      expect(meanings.length).toBeGreaterThan(0)
      expect(meanings.every((m) => m.reason_code === code && m.description.length > 0)).toBe(true)
    }))
    expect(sepaFiles.meaning("pain.002.001.03", "collection_returned", "XX99")).toBeUndefined()
    expect(sepaFiles.meaning("pain.002.001.03", "collection_returned", "constructor")).toBeUndefined()
    expect(sepaFiles.meaning("pain.002.001.03", "collection_charged_back", "MD06")).toBeUndefined()
    expect(sepaFiles.meaning("camt.054.001.02", "mandate_rejected", "AC04")).toBeUndefined()
    expect(sepaFiles.meaning("paykit_report", "collection_returned", "AM04")).toBeUndefined()
  })

  it("are the table docs/bank-rails.md shows", () => {
    const doc = readFileSync(new URL("../../../docs/bank-rails.md", import.meta.url), "utf8")
    const section = doc.slice(doc.indexOf("## SEPA Core files"))
    const rows = [...section.matchAll(/^\| `([A-Z0-9]{4})` \| (\w+) \| `([a-z_]+)` \| ([^|]+) \|$/gm)]
      .map(([, code, iso, cause, kinds]) => [code, { iso, cause, kinds: [...(kinds ?? "").matchAll(/`(\w+)`/g)].map((k) => k[1]) }])
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(Object.entries(SEPA_REASON_CODES).map(([code, r]) => [code, { iso: r.iso, cause: r.cause, kinds: r.kinds }])))
  })

  it("read from any camt.054 a sandbox bank writes have a meaning for every code of the table", () => {
    fc.assert(fc.property(fc.array(camt054Entry, { minLength: 1, maxLength: 5 }), (entries) => {
      const read = must(readReport(camt054.reader(), must(writeReport(camt054.writer(reportHeader("camt.054.001.02")), entries))))
      expect(read.every((e) => sepaFiles.meaning(e.format, e.kind, e.code) !== undefined)).toBe(true)
    }))
  })
})
