import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { unsafeLocalDate } from "@paykit/core"
import { bacsFiles, FileFormatError, itemSortKey, type SubmissionHeader, type SubmissionItem, type SubmittedItem } from "../src/index.ts"
import { inChunks } from "./arbitraries.ts"
import { bacsCollectionArb, bacsHeaderFor, bacsItemArb, bacsMandateArb, bacsOriginator } from "./bacs-arbitraries.ts"

const encoder = new TextEncoder()

const write = (header: SubmissionHeader, items: ReadonlyArray<SubmissionItem>): string | FileFormatError => {
  const writer = bacsFiles.submission.writer(header)
  const body = writer.begin() + items.map(writer.item).join("")
  const tail = writer.end()
  return tail instanceof FileFormatError ? tail : body + tail
}

const written = (header: SubmissionHeader, items: ReadonlyArray<SubmissionItem>): string => {
  const text = write(header, items)
  if (text instanceof FileFormatError) throw new Error(`${text.location}: ${text.message}`)
  return text
}

const readAll = (bytes: Uint8Array, cuts: ReadonlyArray<number> = []) => {
  const reader = bacsFiles.submission.reader()
  const items: Array<SubmittedItem> = []
  for (const chunk of inChunks(bytes, cuts)) {
    const got = reader.write(chunk)
    if (got instanceof FileFormatError) return got
    items.push(...got)
  }
  const end = reader.end()
  if (end instanceof FileFormatError) return end
  return { items: [...items, ...end.items], facts: end.facts }
}

// ---------------------------------------------------------------------------------------------
// An independent reading of the written file, by the published Standard 18 column positions.

/** Columns `from`-`to` (1-based, inclusive), as Bacs' field tables number them. */
const col = (line: string, from: number, to: number): string => line.slice(from - 1, to)

/** ` yyddd`: a blank, the year's last two digits, the day of the year, computed here from the calendar. */
const julian = (date: string): string => {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number]
  const day = (Date.UTC(y, m - 1, d) - Date.UTC(y, 0, 1)) / 86_400_000 + 1
  return ` ${String(y % 100).padStart(2, "0")}${String(day).padStart(3, "0")}`
}

/** The transaction codes Bacs defines for each item, from its service user guide. */
const expectedCode = (item: SubmissionItem): string =>
  item.kind === "mandate"
    ? { setup: "0N", cancel: "0C", convert: "0S" }[item.action]
    : { first: "01", one_off: "01", recurring: "17", represented: "18", final: "19" }[item.sequence]

interface FileSeen {
  readonly kind: "mandate" | "collection"
  readonly records: ReadonlyArray<string>
  readonly contras: ReadonlyArray<string>
}

/** Reads the volume by column positions, checking every label; answers the files' data records. */
const readByColumns = (text: string, header: SubmissionHeader): ReadonlyArray<FileSeen> => {
  expect(text.endsWith("\r\n")).toBe(true)
  const lines = text.slice(0, -2).split("\r\n")
  const vol1 = lines[0] ?? ""
  expect(vol1).toHaveLength(80)
  expect(col(vol1, 1, 4)).toBe("VOL1")
  const serial = col(vol1, 5, 10)
  expect(serial).toMatch(/^[A-Z0-9]{6}$/)
  expect(serial).not.toMatch(/^0+$/)
  expect(col(vol1, 11, 41).trim()).toBe("")
  expect(col(vol1, 42, 47)).toBe(header.originator.scheme_identifier)
  expect(col(vol1, 48, 79).trim()).toBe("")
  expect(col(vol1, 80, 80)).toBe("1")
  const files: Array<FileSeen> = []
  let i = 1
  while (i < lines.length) {
    const [hdr1 = "", hdr2 = "", uhl1 = ""] = lines.slice(i, i + 3)
    i += 3
    for (const label of [hdr1, hdr2, uhl1]) expect(label).toHaveLength(80)
    expect(col(hdr1, 1, 4)).toBe("HDR1")
    expect(col(hdr1, 5, 5)).toBe("A")
    expect(col(hdr1, 6, 11)).toBe(header.originator.scheme_identifier)
    expect(col(hdr1, 12, 12)).toBe("S")
    // The file's number in the volume: 1 to 9, then 1 again.
    expect(col(hdr1, 15, 15)).toBe(String((files.length % 9) + 1))
    expect(col(hdr1, 16, 21)).toBe(header.originator.scheme_identifier)
    expect(col(hdr1, 22, 27)).toBe(serial)
    expect(col(hdr1, 28, 31)).toBe("0001")
    expect(col(hdr1, 32, 35)).toBe(String(files.length + 1).padStart(4, "0"))
    expect(col(hdr1, 42, 47)).toBe(julian("2026-11-29"))
    expect(col(hdr1, 48, 53)).toBe(julian("2026-12-02"))
    expect(col(hdr1, 55, 60)).toBe("000000")
    expect(col(hdr2, 1, 5)).toBe("HDR2F")
    expect(col(hdr2, 11, 15)).toBe("00106")
    expect(col(hdr2, 51, 52)).toBe("00")
    expect(col(uhl1, 1, 4)).toBe("UHL1")
    expect(col(uhl1, 5, 10)).toBe(julian(header.processing_date))
    expect(col(uhl1, 11, 16)).toBe("999999")
    expect(col(uhl1, 21, 22)).toBe("00")
    expect(col(uhl1, 23, 28)).toBe("000000")
    expect(col(uhl1, 29, 37)).toBe("4 MULTI  ")
    expect(col(uhl1, 38, 40)).toBe(String(files.length + 1).padStart(3, "0"))
    const records: Array<string> = []
    const contras: Array<string> = []
    while (!(lines[i] ?? "EOF1").startsWith("EOF1")) {
      const r = lines[i] ?? ""
      i += 1
      expect(r).toHaveLength(106)
      expect(col(r, 15, 15)).toBe("0")
      expect(col(r, 18, 23)).toBe(bacsOriginator.account.sort_code)
      expect(col(r, 24, 31)).toBe(bacsOriginator.account.account_number)
      expect(col(r, 32, 35)).toBe("    ")
      expect(col(r, 36, 46)).toMatch(/^\d{11}$/)
      expect(col(r, 47, 64).trimEnd()).toBe("ACME LTD")
      expect(col(r, 101, 106)).toBe(julian(header.processing_date))
      if (col(r, 65, 82).trimEnd() === "CONTRA") contras.push(r)
      else records.push(r)
    }
    const [eof1 = "", eof2 = "", utl1 = ""] = lines.slice(i, i + 3)
    i += 3
    expect(eof1).toBe(`EOF1${hdr1.slice(4)}`)
    expect(eof2).toBe(`EOF2${hdr2.slice(4)}`)
    expect(utl1).toHaveLength(80)
    expect(col(utl1, 1, 4)).toBe("UTL1")
    const kind = ["0N", "0C", "0S"].includes(col(records[0] ?? "", 16, 17)) ? "mandate" : "collection"
    const amounts = records.map((r) => Number(col(r, 36, 46)))
    const contraAmounts = contras.map((r) => Number(col(r, 36, 46)))
    const debits = kind === "collection" ? amounts.reduce((a, b) => a + b, 0) : 0
    // The trailer's totals, recomputed from the records: debits and the credit contras balance.
    expect(Number(col(utl1, 5, 17))).toBe(debits)
    expect(Number(col(utl1, 18, 30))).toBe(contraAmounts.reduce((a, b) => a + b, 0))
    expect(Number(col(utl1, 18, 30))).toBe(debits)
    expect(Number(col(utl1, 31, 37))).toBe(kind === "collection" ? records.length : 0)
    expect(Number(col(utl1, 38, 44))).toBe(contras.length)
    expect(col(utl1, 45, 52)).toBe("        ")
    expect(Number(col(utl1, 53, 59))).toBe(kind === "mandate" ? records.length : 0)
    expect(col(utl1, 60, 80).trim()).toBe(header.id)
    for (const c of contras) {
      expect(col(c, 1, 6)).toBe(bacsOriginator.account.sort_code)
      expect(col(c, 7, 14)).toBe(bacsOriginator.account.account_number)
      expect(col(c, 16, 17)).toBe("99")
      expect(Number(col(c, 36, 46))).toBeLessThanOrEqual(99_999_999_999)
    }
    if (kind === "mandate") expect(contras).toHaveLength(0)
    files.push({ kind, records, contras })
  }
  return files
}

/** The files Bacs should see for `items`: one per run of the same kind, in order. */
const runsOf = (items: ReadonlyArray<SubmissionItem>): ReadonlyArray<ReadonlyArray<SubmissionItem>> => {
  const runs: Array<Array<SubmissionItem>> = []
  for (const item of items) {
    const last = runs[runs.length - 1]
    if (last !== undefined && last[0]?.kind === item.kind) last.push(item)
    else runs.push([item])
  }
  return runs
}

describe("Bacs Standard 18 submissions", () => {
  it("lay every item, label and total where the published layout puts them", () => {
    fc.assert(fc.property(fc.array(bacsItemArb, { minLength: 1, maxLength: 12 }), (items) => {
      const header = bacsHeaderFor(items)
      const files = readByColumns(written(header, items), header)
      const runs = runsOf(items)
      expect(files.map((f) => f.kind)).toEqual(runs.map((r) => r[0]?.kind))
      files.forEach((file, n) => {
        const run = runs[n] ?? []
        expect(file.records).toHaveLength(run.length)
        file.records.forEach((r, k) => {
          const item = run[k]
          if (item === undefined) throw new Error("missing item")
          expect(col(r, 1, 6)).toBe(item.debtor.sort_code)
          expect(col(r, 7, 14)).toBe(item.debtor.account_number)
          expect(col(r, 16, 17)).toBe(expectedCode(item))
          expect(Number(col(r, 36, 46))).toBe(item.kind === "collection" ? item.amount : 0)
          expect(col(r, 65, 82).trimEnd()).toBe(item.mandate_reference)
          expect(col(r, 83, 100).trimEnd()).toBe(item.debtor.account_holder_name)
        })
      })
    }), { numRuns: 60 })
  })

  it("put mandate instructions in a file of their own ahead of the collections, in itemSortKey order", () => {
    fc.assert(fc.property(fc.array(bacsMandateArb, { minLength: 1, maxLength: 5 }), fc.array(bacsCollectionArb, { minLength: 1, maxLength: 5 }), (mandates, collections) => {
      const items = [...collections, ...mandates].sort((a, b) => (itemSortKey(a) < itemSortKey(b) ? -1 : 1))
      const header = bacsHeaderFor(items)
      expect(readByColumns(written(header, items), header).map((f) => f.kind)).toEqual(["mandate", "collection"])
    }), { numRuns: 30 })
  })

  it("start a new file whenever the kind changes, numbering files 1 to 9 then again from 1", () => {
    const mandates = fc.sample(bacsMandateArb, 6)
    const collections = fc.sample(bacsCollectionArb, 5)
    const items = mandates.flatMap((m, k) => {
      const c = collections[k]
      return c === undefined ? [m] : [m, c]
    })
    const header = bacsHeaderFor(items)
    const files = readByColumns(written(header, items), header)
    expect(files).toHaveLength(11)
    expect(files.map((f) => f.kind)).toEqual(items.map((i) => i.kind))
  })

  it("split a contra above 11 digits of pence into contras that each fit", () => {
    const big = fc.sample(bacsCollectionArb, 3).map((c) => ({ ...c, amount: 99_999_999_999 }))
    const header = bacsHeaderFor(big)
    const [file] = readByColumns(written(header, big), header)
    expect(file?.contras).toHaveLength(3)
  })

  it("read back, in chunks cut anywhere, as the items written, with the header's facts", () => {
    fc.assert(fc.property(fc.array(bacsItemArb, { minLength: 1, maxLength: 15 }), fc.array(fc.nat(), { maxLength: 10 }), (items, cuts) => {
      const header = bacsHeaderFor(items)
      const read = readAll(encoder.encode(written(header, items)), cuts)
      if (read instanceof FileFormatError) throw new Error(`${read.location}: ${read.message}`)
      expect(read.items).toEqual(items.map((item) => expect.objectContaining(
        item.kind === "mandate"
          ? { kind: "mandate", action: item.action, mandate_reference: item.mandate_reference, debtor: item.debtor, target: { by: "mandate_reference", reference: item.mandate_reference } }
          : {
            kind: "collection",
            amount: item.amount,
            sequence: item.sequence === "one_off" ? "first" : item.sequence,
            mandate_reference: item.mandate_reference,
            debtor: item.debtor,
            target: { by: "mandate_reference", reference: item.mandate_reference, amount: item.amount, original_date: header.processing_date }
          }
      )))
      // Each item's batch is its file's number in the volume: what an AUDDIS file rejection names.
      expect(read.items.map((i) => i.batch)).toEqual(runsOf(items).flatMap((run, n) => run.map(() => String(n + 1).padStart(3, "0"))))
      expect(read.facts).toEqual({
        id: header.id,
        processing_date: header.processing_date,
        originator: { name: "ACME LTD", scheme_identifier: header.originator.scheme_identifier },
        item_count: header.item_count,
        total_amount: header.total_amount
      })
    }), { numRuns: 80 })
  })

  it("write names in Bacs' character set: upper case, accents dropped, other signs as spaces", () => {
    const [c] = fc.sample(bacsCollectionArb, 1)
    if (c === undefined) throw new Error("no sample")
    const item = { ...c, debtor: { ...c.debtor, account_holder_name: "Zoë O'Brien-Smith  & co, ltd" } }
    const text = written(bacsHeaderFor([item], { originator: { ...bacsOriginator, name: "Acme (UK) Ltd" } }), [item])
    const record = text.split("\r\n")[4] ?? ""
    expect(col(record, 83, 100)).toBe("ZOE O BRIEN-SMITH ")
    expect(col(record, 47, 64)).toBe("ACME UK LTD       ")
  })
})

describe("Bacs Standard 18 writer refusals", () => {
  const [sample] = fc.sample(bacsCollectionArb, 1)
  if (sample === undefined) throw new Error("no sample")
  const refused = (items: ReadonlyArray<SubmissionItem>, overrides: Partial<SubmissionHeader> = {}) => {
    const got = write(bacsHeaderFor(items, overrides), items)
    if (!(got instanceof FileFormatError)) throw new Error("expected the writer to refuse")
    return got
  }

  it("refuses a reference Bacs would refuse or rewrite, naming the item's line", () => {
    for (const reference of ["ABC12", "AAAAAA", "DDIC123456", "acme-abc123", "ACME_ABC123", "A".repeat(6) + "B".repeat(13)]) {
      const got = refused([{ ...sample, mandate_reference: reference }])
      expect(got.location).toBe("line 5")
      expect(got.message).toContain(sample.payment)
    }
  })

  it("refuses foreign currency, bad accounts, amounts beyond 11 digits and a bad service user number", () => {
    expect(refused([sample], { currency: "EUR" }).message).toContain("sterling")
    expect(refused([{ ...sample, currency: "EUR" }]).message).toContain("sterling")
    expect(refused([{ ...sample, debtor: { ...sample.debtor, sort_code: "12-34-56" } }]).message).toContain("sort code")
    expect(refused([{ ...sample, amount: 100_000_000_000 }], { total_amount: 100_000_000_000 }).message).toContain("pence")
    expect(refused([sample], { originator: { ...bacsOriginator, scheme_identifier: "12345" } }).message).toContain("service user number")
  })

  it("refuses a file made after its processing day, an empty submission and unkept promises", () => {
    expect(refused([sample], { created_at: "2026-12-02T09:00:00.000Z" as SubmissionHeader["created_at"] }).message).toContain("after its processing day")
    expect(refused([]).message).toContain("at least one item")
    expect(refused([sample], { item_count: 2 }).message).toContain("promised")
  })
})

describe("Bacs Standard 18 reader", () => {
  const items = fc.sample(bacsItemArb, 6)
  const header = bacsHeaderFor(items)
  const text = written(header, items)
  const lines = text.slice(0, -2).split("\r\n")
  const readText = (t: string) => readAll(encoder.encode(t))
  const errorOf = (t: string) => {
    const got = readText(t)
    if (!(got instanceof FileFormatError)) throw new Error("expected an error")
    return got
  }

  it("refuses a file cut short inside a file, naming the line it stopped at; cut between files, its facts fall short", () => {
    for (let n = 1; n < lines.length; n++) {
      const got = readText(lines.slice(0, n).join("\r\n") + "\r\n")
      if (got instanceof FileFormatError) expect(got.location).toBe(`line ${n + 1}`)
      else {
        // A volume has no trailer of its own: a cut after a file's UTL1 is told by the facts.
        expect(lines[n - 1]?.startsWith("UTL1")).toBe(true)
        expect(got.facts.item_count).toBeLessThan(header.item_count)
      }
    }
  })

  it("refuses a trailer whose totals differ from the records, naming the UTL1 line", () => {
    const at = lines.findIndex((l) => l.startsWith("UTL1"))
    const utl1 = lines[at] ?? ""
    const tampered = [...lines]
    tampered[at] = `UTL1${String(Number(col(utl1, 5, 17)) + 1).padStart(13, "0")}${utl1.slice(17)}`
    const got = errorOf(tampered.join("\r\n") + "\r\n")
    expect(got.location).toBe(`line ${at + 1}`)
    expect(got.message).toContain("debitValue")
  })

  it("refuses unknown transaction codes, amounts that are not pence and labels out of place", () => {
    const recordAt = 4
    const record = lines[recordAt] ?? ""
    const withCode = [...lines]
    withCode[recordAt] = `${record.slice(0, 15)}Z4${record.slice(17)}`
    expect(errorOf(withCode.join("\r\n") + "\r\n")).toMatchObject({ location: `line ${recordAt + 1}` })
    const withAmount = [...lines]
    withAmount[recordAt] = `${record.slice(0, 35)}0000000001X${record.slice(46)}`
    expect(errorOf(withAmount.join("\r\n") + "\r\n").message).toContain("pence")
    expect(errorOf(["HDR1", ...lines.slice(1)].join("\r\n")).location).toBe("line 1")
  })

  it("refuses an empty file and one that is not UTF-8", () => {
    expect(errorOf("").message).toContain("empty")
    const reader = bacsFiles.submission.reader()
    expect(reader.write(new Uint8Array([0xff, 0xfe]))).toBeInstanceOf(FileFormatError)
  })

  it("reads single-processing-day files (100-character records, the UHL1 day) too", () => {
    const daily = lines.map((l) =>
      l.length === 106 ? l.slice(0, 100) : l.startsWith("HDR2") || l.startsWith("EOF2") ? `${l.slice(0, 10)}00100${l.slice(15)}` : l.startsWith("UHL1") ? `${l.slice(0, 28)}1 DAILY  ${l.slice(37)}` : l
    )
    const read = readText(daily.join("\n") + "\n")
    if (read instanceof FileFormatError) throw new Error(`${read.location}: ${read.message}`)
    expect(read.items.map((i) => i.target)).toEqual(items.map((i) =>
      i.kind === "mandate"
        ? { by: "mandate_reference", reference: i.mandate_reference }
        : { by: "mandate_reference", reference: i.mandate_reference, amount: i.amount, original_date: unsafeLocalDate("2026-12-01") }
    ))
  })
})
