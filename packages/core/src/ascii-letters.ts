/**
 * Letters that Unicode decomposition does not reduce to ASCII, each with its usual
 * transliteration (case kept).
 */
const SPECIAL_LETTERS: Readonly<Record<string, string>> = {
  "ß": "ss", "Æ": "AE", "æ": "ae", "Ø": "O", "ø": "o", "Œ": "OE", "œ": "oe", "Ł": "L", "ł": "l",
  "Đ": "D", "đ": "d", "Þ": "TH", "þ": "th", "Ð": "D", "ð": "d", "ı": "i"
}

/** Combining marks left by compatibility decomposition (the accents of `é`, `ü`, `ñ`...). */
const COMBINING_MARKS = /[\u0300-\u036f]/g

/**
 * `text` with its letters reduced to unaccented ASCII where a usual transliteration exists
 * (`Müller` → `Muller`, `Straße` → `Strasse`, `Øre` → `Ore`), case kept. Characters with none
 * (other scripts, symbols) are left as they are: each scheme's own character set decides what
 * becomes of them.
 */
export const asciiLetters = (text: string): string =>
  [...text.normalize("NFKD")]
    .map((c) => SPECIAL_LETTERS[c] ?? c)
    .join("")
    .replace(COMBINING_MARKS, "")
