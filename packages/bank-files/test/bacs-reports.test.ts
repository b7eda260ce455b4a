import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { type LocalDate, type Timestamp, unsafeLocalDate } from "@paykit/core"
import {
  bacsFiles,
  bacsSerialOf,
  detectReportFormat,
  FileFormatError,
  type ReportEntry,
  type ReportEntryKind,
  type ReportFormat,
  type ReportHeader,
  reportFormatOf
} from "../src/index.ts"
import { inChunks } from "./arbitraries.ts"
import { bacsNameArb, bacsOriginator, bacsReferenceArb } from "./bacs-arbitraries.ts"

const encoder = new TextEncoder()
const REPORT_DATE = unsafeLocalDate("2026-12-04")

type BacsReport = "bacs_arudd" | "bacs_addacs" | "bacs_auddis" | "bacs_ddica"

const reportOf = (format: BacsReport) => {
  const found = reportFormatOf(format)
  if (found === undefined) throw new Error(`${format} is not registered`)
  return found.report
}

const headerFor = (format: BacsReport): ReportHeader => ({
  id: "BR01HX3K9ZQ8W7",
  scheme: "bacs",
  format,
  created_at: "2026-12-04T06:00:00.000Z" as Timestamp,
  report_date: REPORT_DATE,
  originator: bacsOriginator,
  currency: "GBP"
})

const writeReport = (format: BacsReport, entries: ReadonlyArray<ReportEntry>): string | FileFormatError => {
  const writer = reportOf(format).writer(headerFor(format))
  const body = writer.begin() + entries.map(writer.entry).join("")
  const tail = writer.end()
  return tail instanceof FileFormatError ? tail : body + tail
}

const readReport = (format: BacsReport, bytes: Uint8Array, cuts: ReadonlyArray<number> = []): ReadonlyArray<ReportEntry> | FileFormatError => {
  const reader = reportOf(format).reader()
  const out: Array<ReportEntry> = []
  for (const chunk of inChunks(bytes, cuts)) {
    const got = reader.write(chunk)
    if (got instanceof FileFormatError) return got
    out.push(...got)
  }
  const rest = reader.end()
  return rest instanceof FileFormatError ? rest : [...out, ...rest]
}

const entriesOf = (format: BacsReport, text: string): ReadonlyArray<ReportEntry> => {
  const got = readReport(format, encoder.encode(text))
  if (got instanceof FileFormatError) throw new Error(`${got.location}: ${got.message}`)
  return got
}

const errorOf = (format: BacsReport, text: string): FileFormatError => {
  const got = readReport(format, encoder.encode(text))
  if (!(got instanceof FileFormatError)) throw new Error(`expected an error, read ${got.length} entries`)
  return got
}

const withoutLocation = ({ location: _location, ...rest }: ReportEntry) => rest

// ---------------------------------------------------------------------------------------------
// Entries each report carries, with the codes Bacs defines for it (restated from its tables).

const ARUDD_CODES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B"]
const ADDACS_CODES: Record<string, ReportEntryKind> = {
  "0": "mandate_cancelled",
  "1": "mandate_cancelled",
  "2": "mandate_cancelled",
  "3": "mandate_cancelled",
  B: "mandate_cancelled",
  C: "bank_details_changed",
  D: "mandate_cancelled",
  E: "bank_details_changed",
  R: "mandate_reinstated"
}
const AUDDIS_CODES = ["1", "2", "3", "5", "6", "7", "B", "C", "F", "G", "H", "I", "K", "L", "M", "N", "O", "P", "Q"]
const DDICA_CODES = ["1", "2", "3", "4", "5", "6", "7", "8"]

const dateArb: fc.Arbitrary<LocalDate> = fc.integer({ min: 1, max: 30 }).map((d) => unsafeLocalDate(`2026-11-${String(d).padStart(2, "0")}`))
const accountArb = fc.record({ account_holder_name: bacsNameArb, sort_code: fc.stringMatching(/^\d{6}$/), account_number: fc.stringMatching(/^\d{8}$/) })
const amountArb = fc.integer({ min: 1, max: 99_999_999_999 })
const base = (format: BacsReport, kind: ReportEntryKind) => ({ kind, scheme: "bacs", format, location: "" })

const aruddEntryArb: fc.Arbitrary<ReportEntry> = fc.record({
  reference: bacsReferenceArb,
  amount: amountArb,
  date: dateArb,
  code: fc.constantFrom(...ARUDD_CODES),
  debtor: fc.option(accountArb, { nil: undefined })
}).map(({ reference, amount, date, code, debtor }) => ({
  ...base("bacs_arudd", "collection_returned"),
  target: { by: "mandate_reference", reference, amount, original_date: date },
  code,
  amount,
  currency: "GBP",
  effective_date: REPORT_DATE,
  ...(debtor === undefined ? {} : { debtor })
}))

const addacsEntryArb: fc.Arbitrary<ReportEntry> = fc.record({
  reference: bacsReferenceArb,
  code: fc.constantFrom(...Object.keys(ADDACS_CODES)),
  date: dateArb,
  debtor: fc.option(accountArb, { nil: undefined }),
  moved: accountArb
}).map(({ reference, code, date, debtor, moved }) => {
  const kind = ADDACS_CODES[code] ?? "mandate_cancelled"
  const carriesNew = kind === "bank_details_changed" || code === "3"
  return {
    ...base("bacs_addacs", kind),
    target: { by: "mandate_reference", reference },
    code,
    effective_date: date,
    ...(debtor === undefined ? {} : { debtor }),
    ...(carriesNew ? { new_details: moved } : {})
  }
})

const auddisInstructionArb: fc.Arbitrary<ReportEntry> = fc.record({
  reference: bacsReferenceArb,
  code: fc.constantFrom(...AUDDIS_CODES),
  date: dateArb,
  debtor: fc.option(accountArb, { nil: undefined })
}).map(({ reference, code, date, debtor }) => ({
  ...base("bacs_auddis", "mandate_rejected"),
  target: { by: "mandate_reference", reference },
  code,
  effective_date: date,
  ...(debtor === undefined ? {} : { debtor })
}))

/** A whole DDI file rejected: named by the submission's serial and the file's number, with Bacs' file error code. */
const auddisFileArb: fc.Arbitrary<ReportEntry> = fc.record({
  serial: fc.stringMatching(/^[A-Z0-9]{6}$/),
  file: fc.stringMatching(/^\d{3}$/),
  code: fc.stringMatching(/^\d{5}$/),
  date: dateArb
}).map(({ serial, file, code, date }) => ({
  ...base("bacs_auddis", "mandate_rejected"),
  target: { by: "submission", id: serial, batch: file },
  code,
  effective_date: date,
  submission: serial,
  batch: file
}))

const auddisEntryArb: fc.Arbitrary<ReportEntry> = fc.oneof({ arbitrary: auddisInstructionArb, weight: 4 }, { arbitrary: auddisFileArb, weight: 1 })

const ddicaEntryArb: fc.Arbitrary<ReportEntry> = fc.record({ reference: bacsReferenceArb, amount: amountArb, code: fc.constantFrom(...DDICA_CODES) })
  .map(({ reference, amount, code }) => ({
    ...base("bacs_ddica", "collection_charged_back"),
    target: { by: "mandate_reference", reference, amount },
    code,
    amount,
    currency: "GBP",
    effective_date: REPORT_DATE
  }))

const ARBS: Record<BacsReport, fc.Arbitrary<ReportEntry>> = {
  bacs_arudd: aruddEntryArb,
  bacs_addacs: addacsEntryArb,
  bacs_auddis: auddisEntryArb,
  bacs_ddica: ddicaEntryArb
}
const FORMATS = Object.keys(ARBS) as ReadonlyArray<BacsReport>

describe("Bacs reports written then read", () => {
  for (const format of FORMATS) {
    it(`${format}: give back the entries written, in chunks cut anywhere`, () => {
      fc.assert(fc.property(fc.array(ARBS[format], { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 10 }), (entries, cuts) => {
        const text = writeReport(format, entries)
        if (text instanceof FileFormatError) throw new Error(`${text.location}: ${text.message}`)
        expect(detectReportFormat(text.slice(0, 4096))).toBe(format)
        const read = readReport(format, encoder.encode(text), cuts)
        if (read instanceof FileFormatError) throw new Error(`${read.location}: ${read.message}`)
        expect(read.map(withoutLocation)).toEqual(entries.map(withoutLocation))
      }), { numRuns: 40 })
    })
  }

  it("escape names with XML's own characters and read them back", () => {
    const [entry] = fc.sample(aruddEntryArb, 1)
    if (entry === undefined) throw new Error("no sample")
    const tricky = { ...entry, debtor: { account_holder_name: `O'Neil & <Sons> "Ltd"`, sort_code: "400000", account_number: "12345678" } }
    const text = writeReport("bacs_arudd", [tricky])
    if (text instanceof FileFormatError) throw new Error(text.message)
    expect(entriesOf("bacs_arudd", text)[0]?.debtor).toEqual(tricky.debtor)
  })

  it("refuse to write what the layout cannot say", () => {
    const [arudd] = fc.sample(aruddEntryArb, 1)
    if (arudd === undefined) throw new Error("no sample")
    const refused = (format: BacsReport, entry: ReportEntry) => writeReport(format, [entry])
    expect(refused("bacs_arudd", { ...arudd, target: { by: "end_to_end", id: "PM000000000001" } })).toBeInstanceOf(FileFormatError)
    expect(refused("bacs_arudd", { ...arudd, code: "Z" })).toBeInstanceOf(FileFormatError)
    expect(refused("bacs_arudd", { ...arudd, kind: "mandate_rejected" })).toBeInstanceOf(FileFormatError)
    expect(refused("bacs_arudd", { ...arudd, target: { by: "mandate_reference", reference: "ACME-ABC123", amount: 100 } })).toBeInstanceOf(FileFormatError)
    expect(refused("bacs_addacs", { ...arudd, kind: "bank_details_changed", code: "C", format: "bacs_addacs" })).toBeInstanceOf(FileFormatError)
    expect(refused("bacs_ddica", { ...arudd, kind: "collection_returned" })).toBeInstanceOf(FileFormatError)
  })
})

// ---------------------------------------------------------------------------------------------
// Reports as banks send them: hand-written in Bacs' layouts, with what real files carry that the
// writer leaves out (bank names, transaction codes, four-digit return codes, dashed sort codes,
// the signature block after the data).

const SIGNATURE = `<SignatureMethod>Vanilla</SignatureMethod><Signature>${"MIIPQwYJKoZIhvcNAQcCoIIPNDCCDzACAQExDzANBglghkgBZQMEAgEFADALBgkqhkiG9w0BBwGg\n".repeat(200)}</Signature>`

const ARUDD_SAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<BACSDocument xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="newbacs-advices.xsd">
  <Data>
    <ARUDD>
      <Header reportType="REFT1019" adviceNumber="000" currentProcessingDate="2026-12-04"></Header>
      <AddresseeInformation name="ACME LTD"></AddresseeInformation>
      <ServiceLicenseInformation userName="ACME LTD" userNumber="123456"></ServiceLicenseInformation>
      <Advice>
        <OriginatingAccountRecords>
          <OriginatingAccountRecord>
            <OriginatingAccount name="ACME LTD" number="55779911" sortCode="20-00-00" type="0" bankName="A BANK PLC" branchName="CITY"></OriginatingAccount>
            <ReturnedDebitItem ref="ACME-ABC123       " transCode="17" returnCode="0" returnDescription="REFER TO PAYER" originalProcessingDate="2026-12-01" valueOf="15.00" currency="GBP">
              <PayerAccount number="12345678" ref="ACME-ABC123       " name="JANE DOE          " sortCode="40-00-00" bankName="B BANK PLC" branchName="TOWN"></PayerAccount>
            </ReturnedDebitItem>
            <ReturnedDebitItem ref="ACME-XYZ789" transCode="01" returnCode="0273" returnDescription="ACCOUNT CLOSED" originalProcessingDate="2026-12-01" valueOf="1091.5" currency="GBP">
              <PayerAccount number="87654321" ref="ACME-XYZ789" name="JOHN SMITH" sortCode="40-00-01" bankName="B BANK PLC" branchName="TOWN"></PayerAccount>
            </ReturnedDebitItem>
            <Totals numberOf="2" valueOf="1106.50" currency="GBP"></Totals>
          </OriginatingAccountRecord>
        </OriginatingAccountRecords>
      </Advice>
    </ARUDD>
  </Data>${SIGNATURE}
</BACSDocument>
`

const ADDACS_SAMPLE = `<?xml version = '1.0' encoding = 'UTF-8'?>
<BACSDocument xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="newbacs-advices.xsd">
   <Data>
      <MessagingAdvices>
         <MessagingHeader document-number="0" advice-type="ADDACS" subject-first-aosn="00000001" subject-last-aosn="00000004" user-number="123456" stream-identifier="0" envelope-sequence-number="00000002" report-generation-date="2026-12-04" user-name="ACME LTD" report-type="7001"/>
         <AddresseeInformation name=" "/>
         <MessagingAdvice user-number="123456" record-type="A" effective-date="2026-12-03" reference="ACME-ABC123" payer-name="JANE DOE" payer-account-number="12345678" payer-sort-code="400000" reason-code="1" aosn="00000001"/>
         <MessagingAdvice user-number="123456" record-type="A" effective-date="2026-12-03" reference="ACME-XYZ789" payer-name="JOHN SMITH" payer-account-number="87654321" payer-sort-code="400001" reason-code="C" payer-new-account-number="11223344" payer-new-sort-code="608301" aosn="00000002"/>
         <MessagingAdvice user-number="123456" record-type="A" effective-date="2026-12-03" reference="ACME-QRS456" payer-name="AL JONES" payer-account-number="22334455" payer-sort-code="400002" reason-code="R" aosn="00000003"/>
         <MessagingAdvice user-number="123456" record-type="A" effective-date="2026-12-03" reference="ACME-TUV999" payer-name="BO JONES" payer-account-number="33445566" payer-sort-code="400003" reason-code="B" aosn="00000004"/>
         <MessagingError/>
      </MessagingAdvices>
   </Data>${SIGNATURE}</BACSDocument>
`

const auddisSample = (advice: string, type = "AUDDIS") => `<?xml version = '1.0' encoding = 'UTF-8'?>
<BACSDocument ><Data>
   <MessagingAdvices>
      <MessagingHeader subject-first-aosn="0" user-name="ACME LTD" document-number="0" user-number="123456" stream-identifier="0" report-generation-date="2026-12-02" advice-type="${type}" reprint-indicator="0" subject-last-aosn="0" envelope-sequence-number="0"/>
      <AddresseeInformation address1="0" address2="0" address3="0" address4="0" address5="0" name="0"/>
      ${advice}
      <MessagingError line1="0" line3="0" line2="0"/>
   </MessagingAdvices>
</Data>${SIGNATURE}</BACSDocument>
`

const DDICA_SAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<VocaDocument>
  <Data>
    <Document>
      <ServiceUserNumber>123456</ServiceUserNumber>
      <NewAdvices>
        <DateOfDebit>2026-12-18</DateOfDebit>
        <TotalValueOfDebits>40.00</TotalValueOfDebits>
        <DDICAdvice>
          <SUReference>ACME-ABC123</SUReference>
          <ReasonCode>1</ReasonCode>
          <ReasonCodeMeaning>AMOUNT AND/OR DATE OF DD DIFFER FROM ADVANCE NOTICE</ReasonCodeMeaning>
          <PayingBankReference>DDIC00000001</PayingBankReference>
          <TotalAmount>25.00</TotalAmount>
        </DDICAdvice>
        <DDICAdvice>
          <SUReference>ACME-XYZ789</SUReference>
          <ReasonCode>5</ReasonCode>
          <ReasonCodeMeaning>NO INSTRUCTION HELD</ReasonCodeMeaning>
          <PayingBankReference>DDIC00000002</PayingBankReference>
          <TotalAmount>15.00</TotalAmount>
        </DDICAdvice>
      </NewAdvices>
    </Document>
  </Data>
</VocaDocument>
`

describe("Bacs reports as banks send them", () => {
  it("ARUDD: each returned debit names its collection by reference, amount and original day; a four-digit returnCode is read by its description", () => {
    const entries = entriesOf("bacs_arudd", ARUDD_SAMPLE)
    expect(entries).toEqual([
      {
        kind: "collection_returned",
        scheme: "bacs",
        format: "bacs_arudd",
        target: { by: "mandate_reference", reference: "ACME-ABC123", amount: 1500, original_date: "2026-12-01" },
        code: "0",
        amount: 1500,
        currency: "GBP",
        effective_date: "2026-12-04",
        debtor: { account_holder_name: "JANE DOE", sort_code: "400000", account_number: "12345678" },
        location: "/BACSDocument/Data/ARUDD/Advice/OriginatingAccountRecords/OriginatingAccountRecord/ReturnedDebitItem (line 12)"
      },
      expect.objectContaining({ code: "B", amount: 109150, target: { by: "mandate_reference", reference: "ACME-XYZ789", amount: 109150, original_date: "2026-12-01" } })
    ])
    expect(entries[1]?.location).toContain("ReturnedDebitItem[2] (line 15)")
    expect(bacsFiles.meaning("bacs_arudd", "collection_returned", entries[0]?.code ?? "")).toMatchObject({ cause: "insufficient_funds", reason_code: "ARUDD-0" })
    expect(bacsFiles.meaning("bacs_arudd", "collection_returned", entries[1]?.code ?? "")).toMatchObject({ cause: "bank_account_closed", reason_code: "ARUDD-B" })
  })

  it("ADDACS: cancellations, moved accounts with their new details, and reinstatements", () => {
    const entries = entriesOf("bacs_addacs", ADDACS_SAMPLE)
    expect(entries.map((e) => [e.kind, e.code, e.target])).toEqual([
      ["mandate_cancelled", "1", { by: "mandate_reference", reference: "ACME-ABC123" }],
      ["bank_details_changed", "C", { by: "mandate_reference", reference: "ACME-XYZ789" }],
      ["mandate_reinstated", "R", { by: "mandate_reference", reference: "ACME-QRS456" }],
      ["mandate_cancelled", "B", { by: "mandate_reference", reference: "ACME-TUV999" }]
    ])
    expect(entries[1]).toMatchObject({
      new_details: { sort_code: "608301", account_number: "11223344" },
      debtor: { account_holder_name: "JOHN SMITH", sort_code: "400001", account_number: "87654321" },
      effective_date: "2026-12-03"
    })
    expect(bacsFiles.meaning("bacs_addacs", "mandate_cancelled", "B")).toMatchObject({ cause: "bank_account_closed", reason_code: "ADDACS-B" })
    expect(bacsFiles.meaning("bacs_addacs", "bank_details_changed", "C")).toMatchObject({ cause: "bank_account_transferred", reason_code: "ADDACS-C" })
  })

  it("AUDDIS: a refused instruction is a mandate rejection; an accepted file says nothing; a rejected file is refused, naming it", () => {
    const rejected = entriesOf("bacs_auddis", auddisSample(`<MessagingAdvice user-number="123456" record-type="N" effective-date="2026-12-02" reference="ACME-ABC123" payer-name="JANE DOE" payer-account-number="12345678" payer-sort-code="400000" reason-code="5" aosn="1"/>`))
    expect(rejected).toEqual([expect.objectContaining({ kind: "mandate_rejected", code: "5", target: { by: "mandate_reference", reference: "ACME-ABC123" } })])
    expect(bacsFiles.meaning("bacs_auddis", "mandate_rejected", "5")).toMatchObject({ cause: "invalid_bank_details", reason_code: "AUDDIS-5" })
    const accepted = `<MessagingAdvice user-number="123456" record-type="V" aosn="1" processing-date="2026-12-02" originator-file-number="010" work-code="4 MULTI" file-type="LIVE" accepted-ddi="1" rejected-ddi="0" vol-serial-number="9ZQ8W7" file-error-code="0"/>`
    expect(entriesOf("bacs_auddis", auddisSample(accepted, "AUDACC"))).toEqual([])
    const whole = `<MessagingAdvice user-number="123456" record-type="R" aosn="1" processing-date="2026-12-02" originator-file-number="009" work-code="1 DAILY" file-type="LIVE" accepted-ddi="0" rejected-ddi="1" vol-serial-number="9ZQ8W7" file-error-code="30264"/>`
    expect(entriesOf("bacs_auddis", auddisSample(whole, "AUDREJ"))).toEqual([{
      kind: "mandate_rejected",
      scheme: "bacs",
      format: "bacs_auddis",
      target: { by: "submission", id: "9ZQ8W7", batch: "009" },
      code: "30264",
      effective_date: "2026-12-02",
      submission: "9ZQ8W7",
      batch: "009",
      location: "/BACSDocument/Data/MessagingAdvices/MessagingAdvice (line 6)"
    }])
    expect(bacsFiles.meaning("bacs_auddis", "mandate_rejected", "30264")).toMatchObject({ cause: "scheme_rejected", reason_code: "AUDDIS-30264" })
    expect(bacsSerialOf("BS01HX3K9ZQ8W7")).toBe("9ZQ8W7")
  })

  it("DDICA: each claim names its mandate by reference with the amount claimed", () => {
    const entries = entriesOf("bacs_ddica", DDICA_SAMPLE)
    expect(entries.map(withoutLocation)).toEqual([
      { kind: "collection_charged_back", scheme: "bacs", format: "bacs_ddica", target: { by: "mandate_reference", reference: "ACME-ABC123", amount: 2500 }, code: "1", amount: 2500, currency: "GBP", effective_date: "2026-12-18" },
      { kind: "collection_charged_back", scheme: "bacs", format: "bacs_ddica", target: { by: "mandate_reference", reference: "ACME-XYZ789", amount: 1500 }, code: "5", amount: 1500, currency: "GBP", effective_date: "2026-12-18" }
    ])
    expect(entries[1]?.location).toBe("/VocaDocument/Data/Document/NewAdvices/DDICAdvice[2] (line 16)")
    expect(bacsFiles.meaning("bacs_ddica", "collection_charged_back", "1")).toMatchObject({ cause: "authorisation_disputed", reason_code: "DDICA-1" })
  })

  it("are told apart by their first characters", () => {
    expect(detectReportFormat(ARUDD_SAMPLE.slice(0, 4096))).toBe("bacs_arudd")
    expect(detectReportFormat(ADDACS_SAMPLE.slice(0, 4096))).toBe("bacs_addacs")
    expect(detectReportFormat(auddisSample("").slice(0, 4096))).toBe("bacs_auddis")
    expect(detectReportFormat(DDICA_SAMPLE.slice(0, 4096))).toBe("bacs_ddica")
    expect(String(detectReportFormat(`<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.03">`))).not.toMatch(/^bacs_/)
  })
})

describe("Bacs reports that are wrong", () => {
  const SAMPLES: ReadonlyArray<readonly [BacsReport, string]> = [
    ["bacs_arudd", ARUDD_SAMPLE],
    ["bacs_addacs", ADDACS_SAMPLE],
    ["bacs_auddis", auddisSample(`<MessagingAdvice user-number="123456" record-type="N" reference="ACME-ABC123" reason-code="5" aosn="1"/>`)],
    ["bacs_ddica", DDICA_SAMPLE]
  ]

  it("are refused when cut short anywhere, naming an element path and a line", () => {
    for (const [format, text] of SAMPLES) {
      const rootEnds = text.lastIndexOf("</")
      fc.assert(fc.property(fc.integer({ min: text.indexOf("<", 5), max: rootEnds }), (cut) => {
        const got = readReport(format, encoder.encode(text.slice(0, cut)))
        if (!(got instanceof FileFormatError)) throw new Error(`${format} cut at ${cut} was read`)
        expect(got.location).toMatch(/^(\/[A-Za-z]+(\[\d+\])?)+ \(line \d+\)$|^line \d+$/)
      }), { numRuns: 60 })
    }
  })

  it("are refused with the place named: totals that differ, a wrong root, another report, a DOCTYPE, bad values", () => {
    expect(errorOf("bacs_arudd", ARUDD_SAMPLE.replace(`numberOf="2"`, `numberOf="3"`))).toMatchObject({
      location: "/BACSDocument/Data/ARUDD/Advice/OriginatingAccountRecords/OriginatingAccountRecord/Totals (line 18)"
    })
    expect(errorOf("bacs_arudd", ARUDD_SAMPLE.replace(`valueOf="15.00"`, `valueOf="15.0O"`)).message).toContain("valueOf")
    expect(errorOf("bacs_arudd", ARUDD_SAMPLE.replace(`originalProcessingDate="2026-12-01"`, `originalProcessingDate="2026-13-01"`)).message).toContain("originalProcessingDate")
    expect(errorOf("bacs_arudd", `<?xml version="1.0"?>\n<Document><ARUDD/></Document>`)).toMatchObject({ location: "/Document (line 2)" })
    expect(errorOf("bacs_arudd", ADDACS_SAMPLE).message).toContain("no ARUDD")
    expect(errorOf("bacs_addacs", auddisSample("")).message).toContain("advice-type")
    expect(errorOf("bacs_addacs", ADDACS_SAMPLE.replace(`reason-code="R"`, `reason-code="Z"`))).toMatchObject({
      location: "/BACSDocument/Data/MessagingAdvices/MessagingAdvice[3] (line 9)"
    })
    expect(errorOf("bacs_addacs", ADDACS_SAMPLE.replace(` payer-new-account-number="11223344" payer-new-sort-code="608301"`, "")).message).toContain("payer-new")
    expect(errorOf("bacs_ddica", DDICA_SAMPLE.replace("<TotalValueOfDebits>40.00", "<TotalValueOfDebits>41.00")).location).toBe("/VocaDocument/Data/Document/NewAdvices (line 6)")
    expect(errorOf("bacs_ddica", DDICA_SAMPLE.replace("<SUReference>ACME-ABC123</SUReference>", "")).message).toContain("SUReference")
    expect(errorOf("bacs_arudd", `<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "b">]>\n<BACSDocument/>`).message).toContain("DOCTYPE")
    expect(errorOf("bacs_arudd", "")).toMatchObject({ location: "line 1" })
  })

  it("are refused when they are not UTF-8 or not XML", () => {
    const reader = reportOf("bacs_arudd").reader()
    expect(reader.write(new Uint8Array([0x3c, 0xff, 0xfe]))).toBeInstanceOf(FileFormatError)
    expect(errorOf("bacs_arudd", "VOL1 not xml at all")).toBeInstanceOf(FileFormatError)
  })
})

describe("Bacs reason codes", () => {
  const TABLES: ReadonlyArray<readonly [ReportFormat, string, ReadonlyArray<string>, (code: string) => ReportEntryKind]> = [
    ["bacs_arudd", "ARUDD", ARUDD_CODES, () => "collection_returned"],
    ["bacs_addacs", "ADDACS", Object.keys(ADDACS_CODES), (code) => ADDACS_CODES[code] ?? "mandate_cancelled"],
    ["bacs_auddis", "AUDDIS", AUDDIS_CODES, () => "mandate_rejected"],
    ["bacs_ddica", "DDICA", DDICA_CODES, () => "collection_charged_back"]
  ]

  it("mean an API cause for every code each report defines, spelt as GoCardless spells it", () => {
    for (const [format, prefix, codes, kindOf] of TABLES) {
      for (const code of codes) {
        const meaning = bacsFiles.meaning(format, kindOf(code), code)
        expect(meaning?.reason_code).toBe(`${prefix}-${code}`)
        expect(meaning?.cause).toMatch(/^[a-z_]+$/)
        expect(meaning?.description.length).toBeGreaterThan(10)
      }
    }
  })

  it("keep the causes the sandbox already speaks: ARUDD 0 is insufficient funds, DDICA 1 a disputed authorisation", () => {
    expect(bacsFiles.meaning("bacs_arudd", "collection_returned", "0")?.cause).toBe("insufficient_funds")
    expect(bacsFiles.meaning("bacs_ddica", "collection_charged_back", "1")?.cause).toBe("authorisation_disputed")
  })

  it("mean nothing for an unknown code, another report's kind, or another scheme's format", () => {
    expect(bacsFiles.meaning("bacs_arudd", "collection_returned", "Z")).toBeUndefined()
    expect(bacsFiles.meaning("bacs_arudd", "mandate_cancelled", "0")).toBeUndefined()
    expect(bacsFiles.meaning("bacs_addacs", "mandate_cancelled", "C")).toBeUndefined()
    expect(bacsFiles.meaning("paykit_report", "collection_returned", "0")).toBeUndefined()
  })
})
