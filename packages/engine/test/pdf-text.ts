import { getDocument, OPS, type PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs"

/**
 * A PDF read back as its readers see it, through Mozilla's PDF.js from npm (no system package):
 * its text, and the fonts its pages draw with.
 */

/** Runs `read` on the opened document, then frees it (PDF.js keeps a worker's state per document). */
const reading = async <A>(pdf: Uint8Array, read: (document: PDFDocumentProxy) => Promise<A>): Promise<A> => {
  // A copy: PDF.js takes over the buffer it is given. No system fonts: only what is embedded counts;
  // the fonts keep their names and whether their program was found (`fontExtraProperties`).
  const task = getDocument({ data: pdf.slice(), useSystemFonts: false, fontExtraProperties: true, verbosity: 0 })
  try {
    return await read(await task.promise)
  } finally {
    await task.destroy()
  }
}

/** The PDF's text, every page's runs joined by one space, its runs of white space made single spaces (lines wrap anywhere). */
export const pdfText = (pdf: Uint8Array): Promise<string> => reading(pdf, async (document) => {
  const runs: Array<string> = []
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent()
    for (const item of content.items) if ("str" in item) runs.push(item.str)
  }
  return runs.join(" ").replace(/\s+/g, " ").trim()
})

export interface PdfFont {
  /** The font's PostScript name, `ABCDEF+Face` for a subset. */
  readonly name: string
  /** Its program is in the file (a reader needs no font of its own). */
  readonly embedded: boolean
}

/** The fonts the PDF's pages select (`Tf`), each once. */
export const pdfFonts = (pdf: Uint8Array): Promise<ReadonlyArray<PdfFont>> => reading(pdf, async (document) => {
  const fonts = new Map<string, PdfFont>()
  for (let n = 1; n <= document.numPages; n++) {
    const page = await document.getPage(n)
    const operators = await page.getOperatorList()
    operators.fnArray.forEach((fn, i) => {
      const id: unknown = fn === OPS.setFont ? operators.argsArray[i]?.[0] : undefined
      if (typeof id !== "string" || fonts.has(id)) return
      const font: unknown = page.commonObjs.get(id)
      if (typeof font !== "object" || font === null || !("name" in font) || typeof font.name !== "string") return
      fonts.set(id, { name: font.name, embedded: !("missingFile" in font && font.missingFile === true) })
    })
  }
  return [...fonts.values()]
})
