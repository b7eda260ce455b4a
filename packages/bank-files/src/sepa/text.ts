import { asciiLetters } from "@paykit/core"

/**
 * Text as SEPA carries it. The EPC implementation guidelines restrict every text of a SEPA
 * message to the Latin character set: `a-z A-Z 0-9 / - ? : ( ) . , ' +` and space. Letters are
 * transliterated (`Müller` → `Muller`), a few symbols take their usual stand-ins (`&` → `+`),
 * and any other character becomes `?`, so a name in another script stays visible as unknown
 * rather than vanishing. Every text is then cut to its element's maximum.
 */

/** The EPC's Latin character set, one character. */
const LATIN = /^[A-Za-z0-9/\-?:().,'+ ]$/

/** Symbols outside the set with a usual stand-in inside it (or none: `#12` reads `12`). */
const STAND_INS: Readonly<Record<string, string>> = {
  "&": "+", "_": "-", "\u2018": "'", "\u2019": "'", "\u201A": "'", "\u201C": "'", "\u201D": "'", "\u201E": "'",
  "\"": "'", "`": "'", "\u00B4": "'", "\u2013": "-", "\u2014": "-", "\u2212": "-", ";": ",", "!": ".",
  "[": "(", "]": ")", "{": "(", "}": ")", "<": "(", ">": ")", "\\": "/", "|": "/", "#": "", "*": "",
  "@": "(at)", "\u20AC": "EUR"
}

/** Line breaks, tabs and other white space: one space each. */
const SPACE = /\s/

/** Text already in the set, with single spaces between words: most names and references. */
const CLEAN_TEXT = /^[A-Za-z0-9/\-?:().,'+]+(?: [A-Za-z0-9/\-?:().,'+]+)*$/

/** `text` in the SEPA Latin set, runs of white space as one space, trimmed, at most `max` characters. */
export const sepaText = (text: string, max: number): string => {
  if (text.length <= max && CLEAN_TEXT.test(text)) return text
  let out = ""
  for (const c of asciiLetters(text)) {
    out += LATIN.test(c) ? c : SPACE.test(c) ? " " : (STAND_INS[c] ?? "?")
  }
  return out.replace(/ {2,}/g, " ").trim().slice(0, max).trim()
}

/** An identifier already in the set, without spaces, `//`, or a `/` at either end. */
const CLEAN_IDENTIFIER = /^(?!\/)(?!.*\/\/)[A-Za-z0-9/\-?:().,'+]+(?<!\/)$/

/**
 * An identifier (message, batch, end-to-end and mandate ids, the creditor identifier) in the
 * Latin set with the EPC's further rules for references: no spaces, not starting or ending with
 * `/`, and no `//`.
 */
export const sepaIdentifier = (text: string, max: number): string =>
  text.length <= max && CLEAN_IDENTIFIER.test(text) ? text : sepaText(text, Number.MAX_SAFE_INTEGER)
    .replace(/ /g, "")
    .replace(/\/{2,}/g, "/")
    .replace(/^\/+|\/+$/g, "")
    .slice(0, max)
    .replace(/\/+$/, "")

// ---------------------------------------------------------------------------------------------
// Amounts

/** The largest amount a SEPA collection may carry: 999,999,999.99 EUR (the EPC rulebook), in cents. */
export const SEPA_MAX_AMOUNT = 99_999_999_999

/** Minor units (cents) as the decimal a message states: 1091 → `10.91`. */
export const decimalOf = (minor: number): string => `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, "0")}`

/** An `xs:decimal` (`10.91`, `+10.9`, `10.910`, `.5`). */
const DECIMAL = /^\+?(\d*)(?:\.(\d*))?$/

/**
 * The minor units (cents) a message's decimal states, or undefined when it is not a decimal, is
 * negative, or has a non-zero digit past the cents.
 */
export const minorOf = (decimal: string): number | undefined => {
  const match = DECIMAL.exec(decimal.trim())
  const whole = match?.[1] ?? ""
  const fraction = (match?.[2] ?? "").replace(/0+$/, "")
  if (match === null || (whole === "" && (match[2] ?? "") === "") || fraction.length > 2) return undefined
  const minor = Number(whole === "" ? "0" : whole) * 100 + Number(fraction.padEnd(2, "0"))
  return Number.isSafeInteger(minor) ? minor : undefined
}
