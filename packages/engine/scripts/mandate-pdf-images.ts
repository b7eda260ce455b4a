// Draws one page image per scheme's mandate form into docs/pdfs/ (the test samples; poppler's pdftoppm).
// Run from packages/engine: npx tsx --conditions=@paykit/source scripts/mandate-pdf-images.ts
import { execFileSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { MANDATE_PDF_SCHEMES } from "@paykit/validation"
import { SCHEME_LANGUAGES } from "../src/index.ts"
import { renderMandatePdf } from "../src/mandate-pdfs/render.ts"
import { sampleRecord } from "../test/mandate-pdf-samples.ts"

const target = fileURLToPath(new URL("../../../docs/pdfs/", import.meta.url))
mkdirSync(target, { recursive: true })
for (const scheme of MANDATE_PDF_SCHEMES) {
  // The scheme's national language where it has one, so the images show the translations too.
  const language = SCHEME_LANGUAGES[scheme].find((l) => l !== "en") ?? "en"
  const pdf = await Effect.runPromise(renderMandatePdf(sampleRecord(scheme, scheme === "sepa_core" ? "fr" : language)))
  const pdfPath = `${target}${scheme}.pdf`
  writeFileSync(pdfPath, pdf)
  execFileSync("pdftoppm", ["-png", "-r", "60", "-singlefile", pdfPath, `${target}${scheme}`])
  execFileSync("rm", [pdfPath])
  console.log(`wrote ${target}${scheme}.png`)
}
