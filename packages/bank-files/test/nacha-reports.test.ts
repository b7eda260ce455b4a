import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { unsafeLocalDate } from "@paykit/core"
import {
  ACH_CHANGE_CODES,
  ACH_RETURN_CODES,
  type BankAccount,
  detectReportFormat,
  FileFormatError,
  nachaFiles,
  type ReportEntry,
  UNAUTHORISED_RETURN_CODES
} from "../src/index.ts"
import { readCorrectedData } from "../src/nacha/codes.ts"
import { routingNumberArb, usDebtorArb } from "./arbitraries.ts"
import { line, nodeNacha, PADDING, readAll, returns, writeReport } from "./nacha-support.ts"

const idArb = fc.stringMatching(/^(PM|MD)[0-9A-HJKMNP-TV-Z]{12}$/)
const traceArb = fc.stringMatching(/^\d{15}$/)
const dateArb = fc.integer({ min: 1, max: 28 }).map((d) => unsafeLocalDate(`2026-12-${String(d).padStart(2, "0")}`))

const common = (debtor: BankAccount, id: string, trace: string, date: string) => ({
  scheme: "ach",
  format: "nacha_returns" as const,
  target: { by: "end_to_end" as const, id },
  currency: "USD",
  effective_date: unsafeLocalDate(date),
  debtor,
  scheme_reference: trace,
  location: ""
})

/** A return as the reader gives it: a prenote's (no amount) rejects the mandate, an unauthorised code charges back. */
const returnArb: fc.Arbitrary<ReportEntry> = fc.record({
  code: fc.constantFrom(...Object.keys(ACH_RETURN_CODES)),
  prenote: fc.boolean(),
  amount: fc.integer({ min: 1, max: 9_999_999_999 }),
  id: idArb,
  debtor: usDebtorArb,
  trace: traceArb,
  date: dateArb
}).map(({ code, prenote, amount, id, debtor, trace, date }) => ({
  kind: prenote ? "mandate_rejected" : UNAUTHORISED_RETURN_CODES.includes(code) ? "collection_charged_back" : "collection_returned",
  code,
  amount: prenote ? 0 : amount,
  ...common(debtor, id, trace, date)
}))

const correctionArb = fc.record({
  account_number: fc.stringMatching(/^[0-9]{4,17}$/),
  routing_number: routingNumberArb,
  account_type: fc.constantFrom("checking" as const, "savings" as const),
  account_holder_name: fc.stringMatching(/^[A-Z][A-Z .'-]{0,20}[A-Z]$/)
})

/** A notification of change that corrects the payer's account: only the fields its code corrects. */
const nocArb: fc.Arbitrary<ReportEntry> = fc.record({
  code: fc.constantFrom("C01", "C02", "C03", "C04", "C05", "C06", "C07"),
  correction: correctionArb,
  id: idArb,
  debtor: usDebtorArb,
  trace: traceArb,
  date: dateArb
}).map(({ code, correction, id, debtor, trace, date }) => ({
  kind: "bank_details_changed",
  code,
  new_details: Object.fromEntries((ACH_CHANGE_CODES[code]?.corrects ?? []).map((field) => [field, correction[field]])),
  ...common(debtor, id, trace, date)
}))

const withoutLocation = ({ location: _, ...entry }: ReportEntry) => entry
const readReport = (text: string, cuts: ReadonlyArray<number> = []) => readAll(returns.reader(), text, cuts)

describe("NACHA returns and notifications of change", () => {
  it("written then read, in chunks cut anywhere, are the same entries, each located at its entry detail record", () => {
    fc.assert(fc.property(fc.array(fc.oneof(returnArb, nocArb), { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 8 }), (entries, cuts) => {
      const text = writeReport(entries)
      const read = readReport(text, cuts)
      if (read instanceof FileFormatError) throw new Error(`${read.location}: ${read.message}`)
      expect(read.map(withoutLocation)).toEqual(entries.map(withoutLocation))
      const lines = text.split("\n")
      for (const entry of read) expect(lines[Number(entry.location.replace("line ", "")) - 1]?.charAt(0)).toBe("6")
    }))
  })

  it("are read by node-nacha, an independent parser: fields where the Rules put them, controls that add up", () => {
    fc.assert(fc.property(fc.array(fc.oneof(returnArb, nocArb), { minLength: 1, maxLength: 20 }), (entries) => {
      const text = writeReport(entries)
      const lines = text.split("\n").filter((l) => l !== "")
      const parsed = nodeNacha.from(text).data
      const read = parsed.batches.flatMap((b) => b.entries.map((e) => ({ batch: b, entry: e })))
      expect(read).toHaveLength(entries.length)
      read.forEach(({ batch, entry }, i) => {
        const expected = entries[i]!
        const info = entry.addenda?.info.padEnd(80, " ") ?? ""
        const nocEntry = expected.kind === "bank_details_changed"
        expect(batch.entryClassCode).toBe(nocEntry ? "COR" : "PPD")
        expect(batch.originatingDFIIdentification).toBe(expected.debtor?.routing_number?.slice(0, 8))
        expect(entry.transactionCode).toBe(expected.debtor?.account_type === "savings" ? "36" : "26")
        expect(`${String(entry.receivingDFIIdentification).padStart(8, "0")}${entry.checkDigit}`).toBe("121000358")
        expect(entry.dfiAccount).toBe(expected.debtor?.account_number)
        expect(entry.amount).toBe(expected.amount ?? 0)
        expect(entry.identificationNumber).toBe(expected.target.by === "end_to_end" ? expected.target.id : "")
        expect(entry.addenda?.type).toBe(nocEntry ? "98" : "99")
        expect(info.slice(0, 3)).toBe(expected.code)
        expect(info.slice(3, 18)).toBe(expected.scheme_reference)
        expect(info.slice(24, 32)).toBe(expected.debtor?.routing_number?.slice(0, 8))
        // The addenda's own trace number (positions 80-94) is its entry's.
        expect(`${info.slice(76, 80)}${String(entry.addenda?.num).padStart(4, "0")}${String(entry.addenda?.entryNum).padStart(7, "0")}`).toBe(String(entry.traceNumber).padStart(15, "0"))
      })
      // The controls, recomputed here from node-nacha's parse (26 and 36 are debit codes: their second digit is 6).
      for (const batch of parsed.batches) {
        expect(batch.footer.entryAndAddendaCount).toBe(batch.entries.length * 2)
        expect(batch.footer.entryHash).toBe(batch.entries.reduce((sum, e) => sum + e.receivingDFIIdentification, 0) % 10_000_000_000)
        expect(batch.footer.totalDebit).toBe(batch.entries.reduce((sum, e) => sum + e.amount, 0))
        expect(batch.footer.totalCredit).toBe(0)
      }
      expect(parsed.file.footer).toMatchObject({
        batchCount: parsed.batches.length,
        blockCount: lines.length / 10,
        entryAndAddendaCount: entries.length * 2,
        entryHash: parsed.batches.reduce((sum, b) => sum + b.footer.entryHash, 0) % 10_000_000_000,
        totalDebit: entries.reduce((sum, e) => sum + (e.amount ?? 0), 0)
      })
    }), { numRuns: 50 })
  })

  it("are detected as nacha_returns from their first line", () => {
    expect(detectReportFormat(writeReport([]))).toBe("nacha_returns")
    expect(detectReportFormat(`{"format":"paykit_report"}`)).toBe("paykit_report")
    expect(detectReportFormat("101 not a NACHA file")).toBeUndefined()
  })
})

// A returns file as an ODFI hands it over, spelled out field by field: two returning banks, three
// returns (a collection, a disputed collection, a prenote) and five notifications of change.
const SAMPLE = [
  line("1", "01", " 121000358", " 011000015", "261203", "1200", "A", "094", "10", "1", "ACME BANK".padEnd(23), "ACME PAYMENTS INC".padEnd(23), " ".repeat(8)),
  line("5", "225", "ACME PAYMENTS IN", " ".repeat(20), "1234567890", "PPD", "PAYMENT   ", " ".repeat(6), "261203", "   ", "1", "02100002", "0000001"),
  line("6", "26", "12100035", "8", "123456789".padEnd(17), "0000001050", "PM0000000000A1 ", "JANE DOE".padEnd(22), "  ", "1", "021000020000001"),
  line("7", "99", "R01", "121000350000004", " ".repeat(6), "02100002", " ".repeat(44), "021000020000001"),
  line("6", "36", "12100035", "8", "987654321".padEnd(17), "0000002500", "PM0000000000B2 ", "JOHN ROE".padEnd(22), "  ", "1", "021000020000002"),
  line("7", "99", "R10", "121000350000005", " ".repeat(6), "02100002", "CUSTOMER ADVISES NOT AUTHORIZED".padEnd(44), "021000020000002"),
  line("6", "26", "12100035", "8", "111222333".padEnd(17), "0000000000", "MD0000000000C3 ", "MARY MAJOR".padEnd(22), "  ", "1", "021000020000003"),
  line("7", "99", "R03", "121000350000006", " ".repeat(6), "02100002", " ".repeat(44), "021000020000003"),
  line("8", "225", "000006", "0036300105", "000000003550", "000000000000", "1234567890", " ".repeat(19), " ".repeat(6), "02100002", "0000001"),
  line("5", "225", "ACME PAYMENTS IN", " ".repeat(20), "1234567890", "COR", "PAYMENT   ", " ".repeat(6), "261203", "   ", "1", "01100001", "0000002"),
  line("6", "26", "12100035", "8", "99887766".padEnd(17), "0000000000", "PM0000000000D4 ", "ANA LOPEZ".padEnd(22), "  ", "1", "011000010000001"),
  line("7", "98", "C01", "121000350000007", " ".repeat(6), "01100001", "55443322".padEnd(29), " ".repeat(15), "011000010000001"),
  line("6", "26", "12100035", "8", "99887766".padEnd(17), "0000000000", "PM0000000000E5 ", "ANA LOPEZ".padEnd(22), "  ", "1", "011000010000002"),
  line("7", "98", "C03", "121000350000008", " ".repeat(6), "01100001", `011000015   ${"55443322".padEnd(17)}`, " ".repeat(15), "011000010000002"),
  line("6", "36", "12100035", "8", "99887766".padEnd(17), "0000000000", "PM0000000000F6 ", "ANA LOPEZ".padEnd(22), "  ", "1", "011000010000003"),
  line("7", "98", "C06", "121000350000009", " ".repeat(6), "01100001", `${"55443322".padEnd(20)}27`.padEnd(29), " ".repeat(15), "011000010000003"),
  line("6", "36", "12100035", "8", "99887766".padEnd(17), "0000000000", "PM0000000000G7 ", "ANA LOPEZ".padEnd(22), "  ", "1", "011000010000004"),
  line("7", "98", "C07", "121000350000010", " ".repeat(6), "01100001", `021000021${"55443322".padEnd(17)}27 `, " ".repeat(15), "011000010000004"),
  line("6", "26", "12100035", "8", "99887766".padEnd(17), "0000000000", "PM0000000000H8 ", "ANA LOPEZ".padEnd(22), "  ", "1", "011000010000005"),
  line("7", "98", "C09", "121000350000011", " ".repeat(6), "01100001", "PM0000000000H9".padEnd(29), " ".repeat(15), "011000010000005"),
  line("8", "225", "000010", "0060500175", "000000000000", "000000000000", "1234567890", " ".repeat(19), " ".repeat(6), "01100001", "0000002"),
  line("9", "000002", "000003", "00000016", "0096800280", "000000003550", "000000000000", " ".repeat(39)),
  ...Array.from({ length: 8 }, () => PADDING)
]

describe("a hand-written returns file", () => {
  const read = readReport(SAMPLE.join("\r\n"))

  it("reads to the entries it says, in the API's words", () => {
    if (read instanceof FileFormatError) throw new Error(`${read.location}: ${read.message}`)
    const brief = read.map((e) => ({ kind: e.kind, id: e.target.by === "end_to_end" ? e.target.id : "", code: e.code, amount: e.amount, new_details: e.new_details, location: e.location }))
    expect(brief).toEqual([
      { kind: "collection_returned", id: "PM0000000000A1", code: "R01", amount: 1050, new_details: undefined, location: "line 3" },
      { kind: "collection_charged_back", id: "PM0000000000B2", code: "R10", amount: 2500, new_details: undefined, location: "line 5" },
      { kind: "mandate_rejected", id: "MD0000000000C3", code: "R03", amount: 0, new_details: undefined, location: "line 7" },
      { kind: "bank_details_changed", id: "PM0000000000D4", code: "C01", amount: undefined, new_details: { account_number: "55443322" }, location: "line 11" },
      { kind: "bank_details_changed", id: "PM0000000000E5", code: "C03", amount: undefined, new_details: { routing_number: "011000015", account_number: "55443322" }, location: "line 13" },
      { kind: "bank_details_changed", id: "PM0000000000F6", code: "C06", amount: undefined, new_details: { account_number: "55443322", account_type: "checking" }, location: "line 15" },
      {
        kind: "bank_details_changed",
        id: "PM0000000000G7",
        code: "C07",
        amount: undefined,
        new_details: { routing_number: "021000021", account_number: "55443322", account_type: "checking" },
        location: "line 17"
      },
      { kind: "bank_details_changed", id: "PM0000000000H8", code: "C09", amount: undefined, new_details: {}, location: "line 19" }
    ])
    expect(read[1]).toMatchObject({
      debtor: { account_holder_name: "JOHN ROE", routing_number: "021000021", account_number: "987654321", account_type: "savings" },
      scheme_reference: "121000350000005",
      effective_date: "2026-12-03",
      currency: "USD"
    })
    expect(nachaFiles.meaning("nacha_returns", read[0]!.kind, read[0]!.code)).toEqual({
      cause: "insufficient_funds",
      description: "The customer's account had insufficient funds to make this payment.",
      reason_code: "R01"
    })
    expect(nachaFiles.meaning("nacha_returns", read[1]!.kind, read[1]!.code)?.cause).toBe("authorisation_disputed")
    expect(nachaFiles.meaning("nacha_returns", read[2]!.kind, read[2]!.code)?.cause).toBe("invalid_bank_details")
    expect(nachaFiles.meaning("nacha_returns", read[4]!.kind, read[4]!.code)?.cause).toBe("bank_account_transferred")
  })

  it("is read by node-nacha too (its COR batch laid out as a PPD one)", () => {
    const parsed = nodeNacha.from(SAMPLE.join("\n")).data
    expect(parsed.batches.map((b) => [b.entryClassCode, b.entries.length, b.footer.entryHash])).toEqual([["PPD", 3, 36300105], ["COR", 5, 60500175]])
    expect(parsed.file.footer).toMatchObject({ batchCount: 2, blockCount: 3, entryAndAddendaCount: 16, entryHash: 96800280, totalDebit: 3550 })
  })

  const put = (record: string, from: number, text: string) => record.slice(0, from - 1) + text + record.slice(from - 1 + text.length)
  const errorOf = (n: number, change: (record: string) => string) => {
    const got = readReport(SAMPLE.map((l, i) => (i === n - 1 ? change(l) : l)).join("\n"))
    if (!(got instanceof FileFormatError)) throw new Error("the file was read")
    return got
  }

  it.each([
    ["an unknown return code", 4, (l: string) => put(l, 4, "R99"), "line 4", /not a return reason code/],
    ["a refused notification's code", 12, (l: string) => put(l, 4, "C61"), "line 12", /not a change code/],
    ["a return without its Addenda 99", 4, (l: string) => put(l, 2, "98"), "line 3", /one Addenda 99/],
    ["an original trace that is not 15 digits", 4, (l: string) => put(l, 7, "12100035000000X"), "line 4", /original entry trace number/],
    ["a date of death that is no date", 4, (l: string) => put(l, 22, "261399"), "line 4", /date of death/],
    ["an international batch", 10, (l: string) => put(l, 51, "IAT"), "line 10", /IAT/],
    ["a notification of change with an amount", 11, (l: string) => put(l, 30, "0000000001"), "line 11", /amount/],
    ["a corrected transaction code of a loan account", 16, (l: string) => put(l, 56, "57"), "line 16", /not a checking or savings/],
    ["a corrected routing number that is not one", 14, (l: string) => put(l, 36, "01100001X"), "line 14", /routing number/],
    ["a return of a credit", 3, (l: string) => put(l, 2, "21"), "line 3", /credit/],
    ["an addenda whose trace is not its entry's", 4, (l: string) => put(l, 80, "021000020000009"), "line 4", /trace number/],
    ["a batch control whose debits are not the returns'", 9, (l: string) => put(l, 21, "000000003551"), "line 9", /total debit/]
  ])("refuses %s, naming the line", (_name, n, change, location, message) => {
    const error = errorOf(n, change)
    expect(error.location).toBe(location)
    expect(error.message).toMatch(message)
  })

  it("refuses a file cut short, and one without line breaks", () => {
    expect(readReport(SAMPLE.slice(0, 15).join("\n"))).toMatchObject({ location: "line 16", message: expect.stringMatching(/ends inside the batch of line 10/) })
    expect(readReport(SAMPLE.join(""))).toBeInstanceOf(FileFormatError)
  })
})

describe("writing a report refuses what a NACHA return cannot say", () => {
  const [entry] = fc.sample(returnArb.filter((e) => e.kind === "collection_returned"), { numRuns: 1, seed: 4 })
  const refusal = (change: Partial<ReportEntry>) => {
    const writer = returns.writer({ id: "R", scheme: "ach", format: "nacha_returns", created_at: "2026-12-03T12:00:00.000Z" as never, report_date: unsafeLocalDate("2026-12-03"), originator: { creditor: "CR1", name: "Acme", scheme_identifier: "1234567890", account: { account_holder_name: "Acme", routing_number: "121000358" } }, currency: "USD" })
    writer.begin()
    writer.entry({ ...entry!, ...change } as ReportEntry)
    return writer.end()
  }

  it.each([
    ["no original trace number", { scheme_reference: undefined }, /original trace number/],
    ["a kind its code is not read as", { kind: "collection_charged_back", code: "R01" }, /R01 is read as collection_returned/],
    ["a cancellation", { kind: "mandate_cancelled" }, /cancels a mandate/],
    ["a change code whose data an entry does not carry", { kind: "bank_details_changed", code: "C09", amount: undefined, new_details: {} }, /C09/],
    ["a target by mandate reference", { target: { by: "mandate_reference", reference: "REF" } }, /end_to_end/],
    ["a prenote's return with an amount", { kind: "mandate_rejected" }, /prenote has no amount/]
  ])("%s", (_name, change, message) => {
    const got = refusal(change as Partial<ReportEntry>)
    expect(got).toBeInstanceOf(FileFormatError)
    expect((got as FileFormatError).message).toMatch(message)
  })
})

describe("the ACH codes", () => {
  const meaning = (kind: ReportEntry["kind"], code: string) => nachaFiles.meaning("nacha_returns", kind, code)

  it("mean what the issue's vocabulary says, with the code itself as the reason code", () => {
    const causes = Object.fromEntries(["R01", "R02", "R03", "R04", "R08", "R16", "R20"].map((code) => [code, meaning("collection_returned", code)?.cause]))
    expect(causes).toEqual({
      R01: "insufficient_funds",
      R02: "bank_account_closed",
      R03: "invalid_bank_details",
      R04: "invalid_bank_details",
      R08: "refer_to_payer",
      R16: "refer_to_payer",
      R20: "direct_debit_not_enabled"
    })
    for (const code of ["R05", "R07", "R10", "R29"]) expect(meaning("collection_charged_back", code)).toMatchObject({ cause: "authorisation_disputed", reason_code: code })
    expect(meaning("mandate_rejected", "R03")).toMatchObject({ cause: "invalid_bank_details", reason_code: "R03" })
    expect(meaning("bank_details_changed", "C02")).toMatchObject({ cause: "bank_account_transferred", reason_code: "C02" })
  })

  it("mean nothing for a code the Rules do not define, of another kind, or of another format", () => {
    expect(meaning("collection_returned", "R99")).toBeUndefined()
    expect(meaning("collection_returned", "R10")).toBeUndefined()
    expect(meaning("collection_charged_back", "R01")).toBeUndefined()
    expect(meaning("bank_details_changed", "R01")).toBeUndefined()
    expect(meaning("collection_returned", "C01")).toBeUndefined()
    expect(nachaFiles.meaning("bacs_arudd", "collection_returned", "R01")).toBeUndefined()
  })

  it("cover every return code from R01 to R85 the Rules define, each with a description", () => {
    const codes = Object.keys(ACH_RETURN_CODES)
    expect(codes).toHaveLength(70)
    expect(codes.every((code) => /^R(0[1-9]|[1-7]\d|8[0-5])$/.test(code))).toBe(true)
    expect(Object.values(ACH_RETURN_CODES).every((c) => c.description.length > 0)).toBe(true)
  })

  it("are the tables docs/bank-rails.md shows", () => {
    const doc = readFileSync(new URL("../../../docs/bank-rails.md", import.meta.url), "utf8")
    const rows = new Map([...doc.matchAll(/^\| `([RC]\d\d)` \| [^|]+ \| `([a-z_]+)` \|/gm)].map((m) => [m[1], m[2]]))
    const codes = { ...ACH_RETURN_CODES, ...ACH_CHANGE_CODES }
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(Object.entries(codes).map(([code, c]) => [code, c.cause])))
  })

  it("read a sender's corrected data whether it left-justifies or right-justifies the last part", () => {
    expect(readCorrectedData("C03", `011000015${"55443322".padStart(20)}`)).toEqual({ routing_number: "011000015", account_number: "55443322" })
    expect(readCorrectedData("C06", `${"55443322".padEnd(27)}37`)).toEqual({ account_number: "55443322", account_type: "savings" })
    expect(readCorrectedData("C05", "32".padEnd(29))).toEqual({ account_type: "savings" })
    expect(readCorrectedData("C01", " ".repeat(29))).toBe("the corrected data has no account number")
  })
})
