import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import type { FeatureNotInstalled } from "@paykit/core"
import { optionalPackages } from "../documents/optional-packages.ts"
import type { MandatePdfDrawing } from "./domain/mandate-pdfs.ts"
import { type Form, mandateForm, type Notice, type Section } from "./texts/index.ts"

/**
 * Draws a mandate form as a PDF with pdfkit (docs/mandate-pdfs.md says why pdfkit). The text is
 * set in DejaVu Sans, embedded and subset, so any name a payer holds renders (Polish, Greek,
 * Cyrillic...; the standard Helvetica's WinAnsi cannot). The same drawing gives the same bytes: the
 * creation date is the drawing's, and pdfkit derives the trailer's file ID and the font subsets'
 * tags from the document info and the font's position, never from the time or chance.
 */

const require = createRequire(import.meta.url)
const fontFile = (name: string): Buffer => readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`))

/**
 * pdfkit and the fonts are optional peer dependencies, loaded on the first PDF and then kept (the
 * two faces are about a megabyte).
 */
const loadPdfKit = optionalPackages("Mandate PDFs", ["pdfkit", "dejavu-fonts-ttf"], async () => ({
  PDFDocument: (await import("pdfkit")).default,
  fonts: { regular: fontFile("DejaVuSans.ttf"), bold: fontFile("DejaVuSans-Bold.ttf") }
}))

const MARGIN = 50
const LABEL_WIDTH = 175
const GREY = "#555555"
const INK = "#111111"

type Doc = PDFKit.PDFDocument

const contentWidth = (doc: Doc): number => doc.page.width - 2 * MARGIN

/** Starts a new page when fewer than `height` points are left above the bottom margin. */
const keepTogether = (doc: Doc, height: number): void => {
  if (doc.y + height > doc.page.height - MARGIN) doc.addPage()
}

/** A blank to fill in by hand: a line under the value's place. */
const blank = (doc: Doc, x: number, y: number, width: number): void => {
  doc.moveTo(x, y + 11).lineTo(x + width, y + 11).lineWidth(0.5).strokeColor(GREY).stroke()
}

const drawSection = (doc: Doc, section: Section): void => {
  keepTogether(doc, 20 + section.rows.length * 16)
  doc.moveDown(0.6).font("bold").fontSize(11).fillColor(INK).text(section.heading, MARGIN)
  const valueX = MARGIN + LABEL_WIDTH
  const valueWidth = contentWidth(doc) - LABEL_WIDTH
  for (const [label, value] of section.rows) {
    const y = doc.y + 3
    doc.font("regular").fontSize(9).fillColor(GREY).text(label, MARGIN, y, { width: LABEL_WIDTH - 10 })
    const labelBottom = doc.y
    if (value === null || value === "") {
      blank(doc, valueX, y, valueWidth)
      doc.y = Math.max(labelBottom, y + 14)
    } else {
      doc.font("regular").fontSize(10).fillColor(INK).text(value, valueX, y, { width: valueWidth })
      doc.y = Math.max(labelBottom, doc.y)
    }
  }
}

const drawParagraphs = (doc: Doc, paragraphs: ReadonlyArray<string>, width: number, x = MARGIN): void => {
  for (const paragraph of paragraphs) {
    doc.font("regular").fontSize(9.5).fillColor(INK).text(paragraph, x, doc.y, { width, align: "left" }).moveDown(0.4)
  }
}

/** A notice in a box (the Direct Debit Guarantee is set apart from the instruction, as the scheme asks). */
const drawNotice = (doc: Doc, notice: Notice): void => {
  const inner = contentWidth(doc) - 20
  doc.font("regular").fontSize(9.5)
  const textHeight = notice.paragraphs.reduce((sum, p) => sum + doc.heightOfString(p, { width: inner }) + 5, 0)
  const height = textHeight + 34
  keepTogether(doc, height + 10)
  const top = doc.y + 8
  doc.rect(MARGIN, top, contentWidth(doc), height).lineWidth(0.8).strokeColor(GREY).stroke()
  doc.font("bold").fontSize(11).fillColor(INK).text(notice.heading, MARGIN + 10, top + 8, { width: inner })
  doc.moveDown(0.3)
  drawParagraphs(doc, notice.paragraphs, inner, MARGIN + 10)
  doc.y = top + height + 4
}

const drawSignature = (doc: Doc, form: Form): void => {
  keepTogether(doc, 60)
  doc.moveDown(1)
  const l = form.labels
  if (form.signatureDate !== null) {
    doc.font("bold").fontSize(10).fillColor(INK).text(`${l.signed_on} ${form.signatureDate}`, MARGIN)
    return
  }
  const y = doc.y + 18
  const half = contentWidth(doc) / 2 - 10
  blank(doc, MARGIN, y, half)
  blank(doc, MARGIN + half + 20, y, half)
  doc.font("regular").fontSize(9).fillColor(GREY)
  doc.text(l.signature, MARGIN, y + 14, { width: half })
  doc.text(l.date, MARGIN + half + 20, y + 14, { width: half })
  doc.x = MARGIN
}

const drawForm = (doc: Doc, form: Form): void => {
  doc.font("bold").fontSize(16).fillColor(INK).text(form.title, MARGIN, MARGIN, { width: contentWidth(doc) })
  if (form.subtitle !== null) doc.font("regular").fontSize(10).fillColor(GREY).text(form.subtitle)
  for (const section of form.sections) drawSection(doc, section)
  doc.moveDown(1)
  drawParagraphs(doc, form.authorisation, contentWidth(doc))
  drawSignature(doc, form)
  for (const notice of form.notices) drawNotice(doc, notice)
}

/** The PDF of a request: its form in its language, dated when it was asked for. */
export const renderMandatePdf = (record: MandatePdfDrawing): Effect.Effect<Uint8Array, FeatureNotInstalled> =>
  Effect.flatMap(loadPdfKit, ({ PDFDocument, fonts: { regular, bold } }) => Effect.callback<Uint8Array>((resume) => {
    const form = mandateForm(record.document)
    const created = new Date(record.created_at)
    const doc = new PDFDocument({
      size: "A4",
      margin: MARGIN,
      lang: form.language,
      info: { Title: form.title, Producer: "paykit", Creator: "paykit", CreationDate: created, ModDate: created }
    })
    const chunks: Array<Buffer> = []
    doc.on("data", (chunk: Buffer) => chunks.push(chunk))
    doc.on("end", () => resume(Effect.succeed(new Uint8Array(Buffer.concat(chunks)))))
    doc.on("error", (error: unknown) => resume(Effect.die(error)))
    doc.registerFont("regular", regular)
    doc.registerFont("bold", bold)
    drawForm(doc, form)
    doc.end()
  }))
