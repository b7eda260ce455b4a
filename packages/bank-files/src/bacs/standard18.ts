import { addDays, type LocalDate, localDateOfMillisIn, timestampToMillis } from "@paykit/core"
import { eachLine, type NumberedLine } from "../chunks.ts"
import {
  type BankAccount,
  type Collection,
  FileFormatError,
  type MandateInstruction,
  type SubmissionFacts,
  type SubmissionHeader,
  type SubmissionItem,
  type SubmissionReader,
  type SubmissionWriter,
  type SubmittedItem
} from "../model.ts"
import {
  ACTION_OF_CODE,
  bacsDate,
  bacsText,
  blankFilled,
  BLOCK_LENGTH,
  COLLECTION_CODES,
  CONTRA_REFERENCE,
  COUNTRY,
  CREDIT_CONTRA_CODE,
  DAILY_RECORD_LENGTH,
  DATA,
  DEBIT_CONTRA_CODE,
  type Field,
  HDR1,
  HDR2,
  isBacsText,
  LABEL_LENGTH,
  MANDATE_CODES,
  MAX_FILE_ITEMS,
  MAX_FILE_VALUE,
  MAX_RECORD_AMOUNT,
  parseBacsDate,
  RECEIVING_PARTY,
  record,
  RECORD_LENGTH,
  referenceProblem,
  SEQUENCE_OF_CODE,
  slice,
  STERLING,
  UHL1,
  UTL1,
  VOL1,
  WORK_CODE_MULTI,
  zeroFilled
} from "./layout.ts"

/**
 * Bacs Standard 18 submissions, written one item at a time and read back in chunks.
 *
 * A submission is one volume (VOL1) holding one file per kind of item: Bacs takes Direct Debit
 * Instructions (AUDDIS `0N`/`0C`/`0S`) only in a file of their own, so a submission with mandates
 * and collections writes a DDI file then a payment file, each with its labels (HDR1, HDR2, UHL1),
 * its records, and its trailers (EOF1, EOF2, UTL1 with the file's counts and value totals). A
 * payment file ends with the credit contra that pays the collections' total into the service
 * user's account. Files are multi-processing-day files (work code `4 MULTI`): every record is 106
 * characters and carries its processing day.
 */

/** The day a file was made, as Bacs counts days: in the UK. */
export const BACS_TIME_ZONE = "Europe/London"
/** Records end with CR LF, as the bank software that takes Standard 18 files expects. */
export const LINE_END = "\r\n"

const DIGITS_6 = /^\d{6}$/
const DIGITS_8 = /^\d{8}$/

/**
 * The VOL1 serial made from a submission's id: its last six characters. Bacs' reports name a
 * submission by this serial (an AUDDIS file rejection's `vol-serial-number`), so a report's
 * `submission` target is matched to the submission whose id gives it.
 */
export const bacsSerialOf = (id: string): string => bacsText(id, id.length).replace(/[^A-Z0-9]/g, "").slice(-6).padStart(6, "0")

type FileKind = "mandate" | "collection"

interface OpenFile {
  readonly kind: FileKind
  readonly hdr1: string
  readonly hdr2: string
  count: number
  value: number
}

const ZEROS_11 = zeroFilled(0, DATA.amount.width)

/** Writes one submission as a Standard 18 volume; see the module comment. */
export const standard18Writer = (header: SubmissionHeader): SubmissionWriter => {
  let problem: FileFormatError | undefined
  const note = (location: string, message: string): void => {
    problem ??= new FileFormatError(location, message)
  }
  let line = 0
  const at = () => `line ${line + 1}`

  const sun = header.originator.scheme_identifier
  if (!DIGITS_6.test(sun)) note("line 1", `the service user number must be 6 digits, not "${sun}"`)
  const origin = header.originator.account
  const originSort = origin.sort_code ?? ""
  const originAccount = origin.account_number ?? ""
  if (!DIGITS_6.test(originSort) || !DIGITS_8.test(originAccount)) {
    note("line 1", "the originator's account needs a 6-digit sort code and an 8-digit account number")
  }
  if (header.currency !== "GBP") note("line 1", `Bacs files are in sterling, not ${header.currency}`)
  const serviceUserName = bacsText(header.originator.name, DATA.serviceUserName.width)
  if (serviceUserName === "") note("line 1", "the service user's name has no character Bacs allows")
  const serial = bacsSerialOf(header.id)
  if (/^0+$/.test(serial)) note("line 1", `the submission id ${header.id} gives the serial ${serial}; Bacs refuses an all-zero serial`)
  const createdOn = localDateOfMillisIn(timestampToMillis(header.created_at), BACS_TIME_ZONE)
  if (createdOn > header.processing_date) note("line 2", `the file is made on ${createdOn}, after its processing day ${header.processing_date}`)
  const processing = bacsDate(header.processing_date)
  const creation = bacsDate(createdOn)
  // Bacs wants the expiry later than every processing day in the file; the next day is.
  const expiry = bacsDate(addDays(header.processing_date, 1))
  const idForUser = bacsText(header.id, UTL1.serviceUser.width)

  let files = 0
  let open: OpenFile | undefined
  let itemCount = 0
  let totalAmount = 0

  const emit = (records: ReadonlyArray<string>): string => {
    line += records.length
    return records.map((r) => r + LINE_END).join("")
  }

  const startFile = (kind: FileKind): string => {
    files += 1
    const fileNumber = String(((files - 1) % 9) + 1)
    const hdr1 = record(LABEL_LENGTH, [
      [HDR1.label, "HDR1"],
      [HDR1.identifierA, "A"],
      [HDR1.sun, blankFilled(sun, 6)],
      [HDR1.identifierS, "S"],
      [HDR1.fileNumber, fileNumber],
      [HDR1.sunAgain, blankFilled(sun, 6)],
      [HDR1.setIdentification, serial],
      [HDR1.sectionNumber, "0001"],
      [HDR1.sequenceNumber, zeroFilled(files, 4)],
      [HDR1.creationDate, creation],
      [HDR1.expirationDate, expiry],
      [HDR1.blockCount, "000000"]
    ])
    const hdr2 = record(LABEL_LENGTH, [
      [HDR2.label, "HDR2"],
      [HDR2.recordFormat, "F"],
      [HDR2.blockLength, BLOCK_LENGTH],
      [HDR2.recordLength, zeroFilled(RECORD_LENGTH, 5)],
      [HDR2.bufferOffset, "00"]
    ])
    const uhl1 = record(LABEL_LENGTH, [
      [UHL1.label, "UHL1"],
      [UHL1.processingDate, processing],
      [UHL1.receivingParty, RECEIVING_PARTY],
      [UHL1.currency, STERLING],
      [UHL1.country, COUNTRY],
      [UHL1.workCode, WORK_CODE_MULTI],
      [UHL1.fileNumber, zeroFilled(files % 1000, 3)]
    ])
    open = { kind, hdr1, hdr2, count: 0, value: 0 }
    return emit([hdr1, hdr2, uhl1])
  }

  const dataRecord = (debtor: BankAccount, code: string, amount: string, reference: string): string =>
    record(RECORD_LENGTH, [
      [DATA.destinationSortCode, debtor.sort_code ?? ""],
      [DATA.destinationAccount, debtor.account_number ?? ""],
      [DATA.destinationAccountType, "0"],
      [DATA.transactionCode, code],
      [DATA.originatingSortCode, originSort],
      [DATA.originatingAccount, originAccount],
      [DATA.amount, amount],
      [DATA.serviceUserName, blankFilled(serviceUserName, 18)],
      [DATA.reference, blankFilled(reference, 18)],
      [DATA.destinationName, blankFilled(bacsText(debtor.account_holder_name, DATA.destinationName.width), 18)],
      [DATA.processingDate, processing]
    ])

  /** The problem with an item's payer and reference, if Bacs would refuse them. */
  const itemProblem = (debtor: BankAccount, reference: string, what: string): string | undefined => {
    if (!DIGITS_6.test(debtor.sort_code ?? "") || !DIGITS_8.test(debtor.account_number ?? "")) {
      return `${what}: the payer's account needs a 6-digit sort code and an 8-digit account number`
    }
    if (bacsText(debtor.account_holder_name, DATA.destinationName.width) === "") return `${what}: the payer's name has no character Bacs allows`
    if (!isBacsText(reference, DATA.reference.width)) {
      return `${what}: the mandate reference "${reference}" is not in Bacs' character set (upper case, digits, space . & / -, at most 18), so a report could not name it`
    }
    const why = referenceProblem(reference)
    return why === undefined ? undefined : `${what}: the mandate reference "${reference}" ${why}`
  }

  const mandateRecord = (item: MandateInstruction): string => {
    const why = itemProblem(item.debtor, item.mandate_reference, `mandate ${item.mandate}`)
    if (why !== undefined) {
      note(at(), why)
      return ""
    }
    return emit([dataRecord(item.debtor, MANDATE_CODES[item.action], ZEROS_11, item.mandate_reference)])
  }

  const collectionRecord = (item: Collection): string => {
    const why = itemProblem(item.debtor, item.mandate_reference, `payment ${item.payment}`)
    if (why !== undefined) note(at(), why)
    else if (item.currency !== "GBP") note(at(), `payment ${item.payment} is in ${item.currency}; Bacs collects sterling`)
    else if (!Number.isSafeInteger(item.amount) || item.amount < 1 || item.amount > MAX_RECORD_AMOUNT) {
      note(at(), `payment ${item.payment}: a Bacs amount is 1 to ${MAX_RECORD_AMOUNT} pence, not ${item.amount}`)
    } else return emit([dataRecord(item.debtor, COLLECTION_CODES[item.sequence], zeroFilled(item.amount, 11), item.mandate_reference)])
    return ""
  }

  /** The credit contras paying a file's collections into the service user's account, each at most 11 digits. */
  const contras = (total: number): ReadonlyArray<string> => {
    const out: Array<string> = []
    for (let left = total; left > 0; left -= Math.min(left, MAX_RECORD_AMOUNT)) {
      out.push(record(RECORD_LENGTH, [
        [DATA.destinationSortCode, originSort],
        [DATA.destinationAccount, originAccount],
        [DATA.destinationAccountType, "0"],
        [DATA.transactionCode, CREDIT_CONTRA_CODE],
        [DATA.originatingSortCode, originSort],
        [DATA.originatingAccount, originAccount],
        [DATA.amount, zeroFilled(Math.min(left, MAX_RECORD_AMOUNT), 11)],
        [DATA.serviceUserName, blankFilled(serviceUserName, 18)],
        [DATA.reference, blankFilled(CONTRA_REFERENCE, 18)],
        [DATA.destinationName, blankFilled(bacsText(origin.account_holder_name, 18), 18)],
        [DATA.processingDate, processing]
      ]))
    }
    return out
  }

  const closeFile = (): string => {
    const file = open
    open = undefined
    if (file === undefined || problem !== undefined) return ""
    if (file.count > MAX_FILE_ITEMS || file.value > MAX_FILE_VALUE) {
      note(at(), `a Bacs file holds at most ${MAX_FILE_ITEMS} items and ${MAX_FILE_VALUE} pence; this one has ${file.count} totalling ${file.value}`)
      return ""
    }
    const credits = file.kind === "collection" ? contras(file.value) : []
    const isPayments = file.kind === "collection"
    const utl1 = record(LABEL_LENGTH, [
      [UTL1.label, "UTL1"],
      [UTL1.debitValue, zeroFilled(isPayments ? file.value : 0, 13)],
      [UTL1.creditValue, zeroFilled(isPayments ? file.value : 0, 13)],
      [UTL1.debitCount, zeroFilled(isPayments ? file.count : 0, 7)],
      [UTL1.creditCount, zeroFilled(credits.length, 7)],
      [UTL1.ddiCount, zeroFilled(isPayments ? 0 : file.count, 7)],
      [UTL1.serviceUser, blankFilled(idForUser, 21)]
    ])
    return emit([...credits, `EOF1${file.hdr1.slice(4)}`, `EOF2${file.hdr2.slice(4)}`, utl1])
  }

  return {
    begin: () =>
      emit([record(LABEL_LENGTH, [
        [VOL1.label, "VOL1"],
        [VOL1.serial, serial],
        [VOL1.owner, blankFilled(sun, 6)],
        [VOL1.standardLevel, "1"]
      ])]),
    item: (item: SubmissionItem) => {
      itemCount += 1
      const head = open?.kind === item.kind ? "" : closeFile() + startFile(item.kind)
      const file = open
      if (file === undefined) return head
      file.count += 1
      if (item.kind === "collection") {
        totalAmount += item.amount
        file.value += item.amount
      }
      // Once the file is known to be refused, nothing more is laid out: end() answers why.
      if (problem !== undefined) return head
      return head + (item.kind === "mandate" ? mandateRecord(item) : collectionRecord(item))
    },
    end: () => {
      const tail = closeFile()
      if (problem !== undefined) return problem
      if (files === 0) return new FileFormatError("line 2", "a Bacs submission needs at least one item")
      if (itemCount !== header.item_count || totalAmount !== header.total_amount) {
        return new FileFormatError(at(), `the header promised ${header.item_count} items totalling ${header.total_amount}; ${itemCount} totalling ${totalAmount} were written`)
      }
      return tail
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

type Expect = "VOL1" | "HDR1" | "HDR2" | "UHL1" | "RECORD" | "EOF2" | "UTL1" | "NEXT"

interface FileRead {
  readonly hdr1: NumberedLine
  readonly sun: string
  recordLength: number
  processingDate: LocalDate | undefined
  /** The UHL1 file number: the batch its items were read in, as an AUDDIS file rejection names it. */
  fileNumber: string
  kinds: "mandate" | "payment" | undefined
  debitValue: number
  creditValue: number
  debitCount: number
  creditCount: number
  ddiCount: number
}

const numberIn = (line: string, f: Field): number | undefined => {
  const s = slice(line, f)
  return /^\d+$/.test(s) ? Number(s) : /^ +$/.test(s) ? 0 : undefined
}

/** Reads a Standard 18 volume back into the items it carries, checking every file's trailers. */
export const standard18Reader = (): SubmissionReader => {
  let expect: Expect = "VOL1"
  let serial = ""
  let file: FileRead | undefined
  let firstProcessingDate: LocalDate | undefined
  let firstSun: string | undefined
  let serviceUserName: string | undefined
  let idFromTrailer: string | undefined
  let itemCount = 0
  let totalAmount = 0
  let lastLine = 0

  const error = (line: NumberedLine, message: string) => new FileFormatError(`line ${line.number}`, message)
  const labelled = (line: NumberedLine, label: string): boolean => line.text.startsWith(label)
  const fitsLabel = (line: NumberedLine, label: string): FileFormatError | undefined =>
    !labelled(line, label)
      ? error(line, `expected ${label}, found "${line.text.slice(0, 4)}"`)
      : line.text.length > LABEL_LENGTH
      ? error(line, `${label} is ${line.text.length} characters; labels are ${LABEL_LENGTH}`)
      : undefined

  const readVol1 = (line: NumberedLine): FileFormatError | undefined => {
    const wrong = fitsLabel(line, "VOL1")
    if (wrong !== undefined) return wrong
    serial = slice(line.text, VOL1.serial)
    if (/^[ 0]+$/.test(serial)) return error(line, "the VOL1 serial is blank or all zeros")
    expect = "HDR1"
    return undefined
  }

  const readHdr1 = (line: NumberedLine): FileFormatError | undefined => {
    const wrong = fitsLabel(line, "HDR1")
    if (wrong !== undefined) return wrong
    const sun = slice(line.text, HDR1.sun)
    if (!DIGITS_6.test(sun)) return error(line, `the HDR1 service user number "${sun}" is not 6 digits`)
    if (slice(line.text, HDR1.setIdentification) !== serial) return error(line, "the HDR1 set identification differs from the VOL1 serial")
    firstSun ??= sun
    file = { hdr1: line, sun, recordLength: RECORD_LENGTH, processingDate: undefined, fileNumber: "", kinds: undefined, debitValue: 0, creditValue: 0, debitCount: 0, creditCount: 0, ddiCount: 0 }
    expect = "HDR2"
    return undefined
  }

  const readHdr2 = (line: NumberedLine, current: FileRead): FileFormatError | undefined => {
    const wrong = fitsLabel(line, "HDR2")
    if (wrong !== undefined) return wrong
    const length = numberIn(line.text, HDR2.recordLength)
    if (length !== RECORD_LENGTH && length !== DAILY_RECORD_LENGTH) return error(line, `HDR2 gives a record length of ${slice(line.text, HDR2.recordLength)}; Standard 18 records are 100 or 106`)
    current.recordLength = length
    expect = "UHL1"
    return undefined
  }

  const readUhl1 = (line: NumberedLine, current: FileRead): FileFormatError | undefined => {
    const wrong = fitsLabel(line, "UHL1")
    if (wrong !== undefined) return wrong
    const date = parseBacsDate(slice(line.text, UHL1.processingDate))
    if (date === undefined) return error(line, `the UHL1 processing day "${slice(line.text, UHL1.processingDate)}" is not a Bacs date ( yyddd)`)
    const currency = slice(line.text, UHL1.currency)
    if (currency !== STERLING && currency !== "  ") return error(line, `the UHL1 currency code "${currency}" is not sterling (00)`)
    current.processingDate = date
    current.fileNumber = slice(line.text, UHL1.fileNumber)
    firstProcessingDate ??= date
    expect = "RECORD"
    return undefined
  }

  const readRecord = (line: NumberedLine, current: FileRead): SubmittedItem | FileFormatError | undefined => {
    if (labelled(line, "EOF1")) {
      if (line.text.slice(4, 54) !== current.hdr1.text.slice(4, 54)) return error(line, `EOF1 does not repeat the HDR1 of line ${current.hdr1.number}`)
      expect = "EOF2"
      return undefined
    }
    if (line.text.length > current.recordLength) return error(line, `a record of ${line.text.length} characters; HDR2 says ${current.recordLength}`)
    const text = line.text
    const code = slice(text, DATA.transactionCode)
    const amount = numberIn(text, DATA.amount)
    if (amount === undefined) return error(line, `the amount "${slice(text, DATA.amount)}" is not pence`)
    const reference = slice(text, DATA.reference).trimEnd()
    const dateText = slice(text, DATA.processingDate)
    const date = current.recordLength === RECORD_LENGTH ? parseBacsDate(dateText) : current.processingDate
    if (date === undefined) return error(line, `the record's processing day "${dateText}" is not a Bacs date ( yyddd)`)
    const sort = slice(text, DATA.destinationSortCode)
    const account = slice(text, DATA.destinationAccount)
    if (!DIGITS_6.test(sort) || !DIGITS_8.test(account)) return error(line, "the destination sort code and account number must be 6 and 8 digits")
    const debtor: BankAccount = { account_holder_name: slice(text, DATA.destinationName).trim(), sort_code: sort, account_number: account }
    const kind = code in ACTION_OF_CODE ? "mandate" : code in SEQUENCE_OF_CODE && reference !== CONTRA_REFERENCE ? "payment" : "contra"
    if (kind !== "contra") {
      if (current.kinds !== undefined && current.kinds !== kind) return error(line, "a file holds Direct Debit Instructions or payments, not both")
      current.kinds = kind
      serviceUserName ??= slice(text, DATA.serviceUserName).trim()
    }
    const location = `line ${line.number}`
    const action = ACTION_OF_CODE[code]
    if (action !== undefined) {
      if (amount !== 0) return error(line, `a Direct Debit Instruction (${code}) has a zero amount, not ${amount}`)
      current.ddiCount += 1
      itemCount += 1
      return { kind: "mandate", action, target: { by: "mandate_reference", reference }, mandate_reference: reference, debtor, batch: current.fileNumber, location }
    }
    if (amount === 0) return error(line, "a payment record's amount is zero")
    const sequence = SEQUENCE_OF_CODE[code]
    if (sequence !== undefined && kind === "payment") {
      current.debitCount += 1
      current.debitValue += amount
      itemCount += 1
      totalAmount += amount
      return {
        kind: "collection",
        target: { by: "mandate_reference", reference, amount, original_date: date },
        mandate_reference: reference,
        amount,
        sequence,
        debtor,
        batch: current.fileNumber,
        location
      }
    }
    if (code === CREDIT_CONTRA_CODE) {
      current.creditCount += 1
      current.creditValue += amount
      return undefined
    }
    if (code === DEBIT_CONTRA_CODE) {
      current.debitCount += 1
      current.debitValue += amount
      return undefined
    }
    return error(line, `transaction code "${code}" is not a Direct Debit, a Direct Debit Instruction or a contra`)
  }

  const readUtl1 = (line: NumberedLine, current: FileRead): FileFormatError | undefined => {
    const wrong = fitsLabel(line, "UTL1")
    if (wrong !== undefined) return wrong
    const said = {
      debitValue: numberIn(line.text, UTL1.debitValue),
      creditValue: numberIn(line.text, UTL1.creditValue),
      debitCount: numberIn(line.text, UTL1.debitCount),
      creditCount: numberIn(line.text, UTL1.creditCount),
      ddiCount: numberIn(line.text, UTL1.ddiCount)
    }
    for (const [name, value] of Object.entries(said)) {
      const found = current[name as keyof typeof said]
      if (value !== found) {
        return error(line, `UTL1 gives ${name} ${value === undefined ? "as no number" : value}; the file's records give ${found}`)
      }
    }
    if (current.debitValue !== current.creditValue) {
      return error(line, `the file's debits (${current.debitValue}) and credits (${current.creditValue}) do not balance: a contra is missing or wrong`)
    }
    const forUser = slice(line.text, UTL1.serviceUser).trim()
    if (forUser !== "") idFromTrailer ??= forUser
    file = undefined
    expect = "NEXT"
    return undefined
  }

  const readLine = (line: NumberedLine): SubmittedItem | FileFormatError | undefined => {
    lastLine = line.number
    if (expect === "VOL1") return readVol1(line)
    if (expect === "HDR1" || expect === "NEXT") return readHdr1(line)
    const current = file
    if (current === undefined) return error(line, "a record outside a file")
    switch (expect) {
      case "HDR2":
        return readHdr2(line, current)
      case "UHL1":
        return readUhl1(line, current)
      case "RECORD":
        return readRecord(line, current)
      case "EOF2": {
        const wrong = fitsLabel(line, "EOF2")
        if (wrong !== undefined) return wrong
        expect = "UTL1"
        return undefined
      }
      case "UTL1":
        return readUtl1(line, current)
    }
  }

  const lines = eachLine(readLine)
  return {
    write: lines.write,
    end: () => {
      const items = lines.end()
      if (items instanceof FileFormatError) return items
      if (expect === "VOL1") return new FileFormatError("line 1", "the file is empty")
      if (expect !== "NEXT" || firstProcessingDate === undefined) {
        return new FileFormatError(`line ${lastLine + 1}`, `the file ends before its ${expect === "RECORD" ? "EOF1" : expect === "HDR1" ? "first HDR1" : expect}`)
      }
      const facts: SubmissionFacts = {
        id: idFromTrailer ?? serial,
        processing_date: firstProcessingDate,
        originator: { name: serviceUserName ?? "", scheme_identifier: firstSun ?? "" },
        item_count: itemCount,
        total_amount: totalAmount
      }
      return { items, facts }
    }
  }
}
