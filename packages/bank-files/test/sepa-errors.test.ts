import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { type Collection, detectReportFormat, FileFormatError } from "../src/index.ts"
import { MAX_XML_DEPTH, MAX_XML_TEXT, MAX_XML_TOKEN } from "../src/xml.ts"
import { sepaCollectionArb } from "./arbitraries.ts"
import { encoder, mustWrite, readPain008, readReport, reportFiles, sepaHeaderFor, sorted, writePain008 } from "./sepa-helpers.ts"

const sample = (name: string): string => readFileSync(new URL(`./samples/${name}`, import.meta.url), "utf8")

const collection: Collection = {
  kind: "collection",
  payment: "PM0000000000A1",
  amount: 1091,
  currency: "EUR",
  charge_date: "2026-12-01" as Collection["charge_date"],
  sequence: "first",
  mandate: "MD0000000000A1",
  mandate_reference: "ACME-0001",
  mandate_signed_on: "2026-11-01" as Collection["charge_date"],
  authorisation_source: "web",
  debtor: { account_holder_name: "Jane Doe", iban: "NL91ABNA0417164300", bic: "ABNANL2A" },
  remittance: "Invoice 12"
}

type Read = (text: string | Uint8Array, cuts?: ReadonlyArray<number>) => unknown

/** Each SEPA reader, with a file it reads. */
const readers: ReadonlyArray<{ readonly name: string; readonly file: string; readonly read: Read }> = [
  { name: "pain.008", file: mustWrite(writePain008(sepaHeaderFor([collection]), [collection])), read: readPain008 },
  { name: "pain.002", file: sample("pain.002-partial.xml"), read: (text, cuts) => readReport(reportFiles("pain.002.001.03").reader(), text, cuts) },
  { name: "camt.054", file: sample("camt.054-returns.xml"), read: (text, cuts) => readReport(reportFiles("camt.054.001.02").reader(), text, cuts) }
]

const error = (got: unknown): FileFormatError => {
  if (!(got instanceof FileFormatError)) throw new Error("read without an error")
  return got
}

/** An element path and the line, as the readers' errors give them. */
const AT_ELEMENT = /^\/Document(\/\w+(\[\d+\])?)* \(line \d+\)$/

describe("SEPA readers refuse a file that is not what its format says, naming where", () => {
  it.each(readers)("$name: reads its file, in chunks cut anywhere", ({ file, read }) => {
    fc.assert(fc.property(fc.array(fc.nat(), { maxLength: 6 }), (cuts) => {
      expect(read(file, cuts)).not.toBeInstanceOf(FileFormatError)
    }))
  })

  it.each(readers)("$name: truncated anywhere before its end", ({ file, read }) => {
    const end = file.lastIndexOf("</")
    fc.assert(fc.property(fc.integer({ min: 0, max: end }), fc.array(fc.nat(), { maxLength: 4 }), (at, cuts) => {
      const got = error(read(file.slice(0, at), cuts))
      expect(got.location).toMatch(/^(\/Document(\/\w+(\[\d+\])?)*|\/)? ?\(?line \d+\)?$/)
    }))
    expect(error(read(file.slice(0, end))).message).toMatch(/unclosed/)
  })

  it.each(readers)("$name: an element closed by another's tag, at that element's path and line", ({ file, read }) => {
    const broken = file.replace(/<\/(EndToEndId|OrgnlEndToEndId)>/, "</Wrong>")
    const got = error(read(broken))
    expect(got.location).toMatch(AT_ELEMENT)
    expect(got.location).toMatch(/EndToEndId \(line/)
    const line = Number(/\(line (\d+)\)/.exec(got.location)?.[1])
    expect(broken.split("\n")[line - 1]).toContain("</Wrong>")
  })

  it.each(readers)("$name: another message's namespace, or none, at /Document", ({ name, file, read }) => {
    const other = name === "pain.002" ? sample("camt.054-returns.xml") : sample("pain.002-partial.xml")
    const wrong = error(read(other))
    expect(wrong.location).toMatch(/^\/Document \(line \d+\)$/)
    expect(wrong.message).toContain("urn:iso:std:iso:20022:tech:xsd:")
    expect(error(read(file.replace(/ xmlns="[^"]*"/, ""))).message).toContain("no namespace")
  })

  it.each(readers)("$name: an empty file, and bytes that are not UTF-8", ({ file, read }) => {
    expect(error(read("")).location).toBe("line 1")
    expect(error(read("  \n")).location).toBe("line 2")
    const at = file.indexOf("<Dbtr>") > 0 ? file.indexOf("<Dbtr>") : file.indexOf("<CreDtTm>")
    const bytes = new Uint8Array([...encoder.encode(file.slice(0, at)), 0xc3, 0x28, ...encoder.encode(file.slice(at))])
    expect(error(read(bytes)).message).toContain("UTF-8")
    expect(error(read(file.replace("UTF-8", "ISO-8859-1"))).message).toContain("ISO-8859-1")
  })

  it.each(readers)("$name: a DOCTYPE, and elements nested deeper than any message's", ({ file, read }) => {
    expect(error(read(file.replace("<Document", "<!DOCTYPE Document [<!ENTITY a \"b\">]>\n<Document"))).message).toContain("DOCTYPE")
    const deep = file.replace(/(<\/\w+>\s*<\/Document>)/, `${"<Deep>".repeat(MAX_XML_DEPTH)}${"</Deep>".repeat(MAX_XML_DEPTH)}$1`)
    expect(error(read(deep)).message).toContain("nest deeper")
  })

  it.each(readers)("$name: a text it reads longer than any value, and a text or tag longer than any, before holding it", ({ file, read }) => {
    const at = file.indexOf("</EndToEndId>") > 0 ? file.indexOf("</EndToEndId>") : file.indexOf("</OrgnlEndToEndId>")
    const value = error(read(`${file.slice(0, at)}${"x".repeat(MAX_XML_TEXT)}${file.slice(at)}`))
    expect(value.message).toContain("longer than")
    expect(value.location).toMatch(/EndToEndId \(line \d+\)$/)
    const end = file.indexOf("</GrpHdr>")
    const long = `${file.slice(0, end)}<AddtlInf>${"x".repeat(MAX_XML_TOKEN + 10)}</AddtlInf>${file.slice(end)}`
    const socketSized = Array.from({ length: 24 }, (_, i) => end + i * 64 * 1024)
    expect(error(read(long, socketSized)).message).toContain("longer than")
  })
})

describe("SEPA readers refuse values their fields cannot hold", () => {
  it("a pain.008 amount that is not euros and cents, another currency, and a header that miscounts", () => {
    fc.assert(fc.property(fc.array(sepaCollectionArb, { minLength: 1, maxLength: 5 }).map(sorted), (items) => {
      const text = mustWrite(writePain008(sepaHeaderFor(items), items))
      const badAmount = error(readPain008(text.replace(/(<InstdAmt Ccy="EUR">)(\d+)\.(\d\d)</, "$1$2,$3<")))
      expect(badAmount.location).toMatch(/^\/Document\/CstmrDrctDbtInitn\/PmtInf\/DrctDbtTxInf\/InstdAmt \(line \d+\)$/)
      expect(error(readPain008(text.replace(/Ccy="EUR"/, `Ccy="GBP"`))).message).toContain("EUR")
      expect(error(readPain008(text.replace(/<NbOfTxs>\d+</, `<NbOfTxs>${items.length + 1}<`))).location).toBe("/Document/CstmrDrctDbtInitn/GrpHdr/NbOfTxs")
      expect(error(readPain008(text.replace(/<CtrlSum>(\d+)\./, "<CtrlSum>9$1."))).location).toBe("/Document/CstmrDrctDbtInitn/GrpHdr/CtrlSum")
    }))
  })

  it("a pain.008 collection without its mandate, at the collection's path", () => {
    const text = mustWrite(writePain008(sepaHeaderFor([collection]), [collection])).replace(/<MndtId>ACME-0001<\/MndtId>/, "")
    expect(error(readPain008(text)).location).toMatch(/^\/Document\/CstmrDrctDbtInitn\/PmtInf\/DrctDbtTxInf \(line \d+\)$/)
  })

  it("a returned collection that names neither its end-to-end id nor its mandate", () => {
    const camt = sample("camt.054-returns.xml").replace(/<EndToEndId>PM0000000000B2<\/EndToEndId>\s*<MndtId>ACME-0005<\/MndtId>/, "<InstrId>X</InstrId>")
    const got = error(readReport(reportFiles("camt.054.001.02").reader(), camt))
    expect(got.location).toMatch(/^\/Document\/BkToCstmrDbtCdtNtfctn\/Ntfctn\/Ntry\[2\]\/NtryDtls\/TxDtls\[2\] \(line \d+\)$/)
  })

  it("a pain.002 answering a credit transfer file, and a rejection without a reason", () => {
    const pain002 = sample("pain.002-partial.xml")
    const reader = () => reportFiles("pain.002.001.03").reader()
    expect(error(readReport(reader(), pain002.replace("<OrgnlMsgNmId>pain.008.001.02", "<OrgnlMsgNmId>pain.001.001.03"))).message).toContain("pain.001")
    const noReason = pain002.replace(/<StsRsnInf>\s*<Rsn>\s*<Cd>MD01<\/Cd>\s*<\/Rsn>\s*<\/StsRsnInf>/, "")
    expect(error(readReport(reader(), noReason)).location).toMatch(/TxInfAndSts\[2\] \(line \d+\)$/)
  })
})

describe("format detection", () => {
  it("names each SEPA report by its namespace, prefixed or not, and nothing else as one", () => {
    expect(detectReportFormat(sample("pain.002-partial.xml"))).toBe("pain.002.001.03")
    expect(detectReportFormat(sample("pain.002-file-rejected.xml"))).toBe("pain.002.001.03")
    expect(detectReportFormat(sample("camt.054-returns.xml"))).toBe("camt.054.001.02")
    expect(detectReportFormat(`\uFEFF<?xml version="1.0"?><Document xmlns='urn:iso:std:iso:20022:tech:xsd:camt.054.001.02'>`)).toBe("camt.054.001.02")
    expect(detectReportFormat(readers[0]?.file ?? "")).toBeUndefined()
    expect(detectReportFormat(`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">`)).toBeUndefined()
    expect(detectReportFormat(`{"format":"paykit_report"}`)).toBe("paykit_report")
  })
})
