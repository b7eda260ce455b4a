import { da } from "./messages/da.ts"
import { de } from "./messages/de.ts"
import { en, type Messages } from "./messages/en.ts"
import { es } from "./messages/es.ts"
import { fr } from "./messages/fr.ts"
import { sv } from "./messages/sv.ts"

/**
 * The pages' languages: one message table each, English the reference. A page's language is the
 * `lang` query parameter (or form field) when it names one (the language switch's links set it,
 * and forms carry it on; the choice is then kept in the `LANGUAGE_COOKIE` for the pages that
 * follow, such as the outcome page after a redirect), else the cookie's, else the first of the
 * browser's `Accept-Language` that is one, else English.
 */

export const LANGUAGES = ["en", "fr", "de", "es", "sv", "da"] as const
export type Language = (typeof LANGUAGES)[number]

export const MESSAGES: Readonly<Record<Language, Messages>> = { en, fr, de, es, sv, da }

/** Each language's name in itself, for the switch. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: "English",
  fr: "Français",
  de: "Deutsch",
  es: "Español",
  sv: "Svenska",
  da: "Dansk"
}

export const isLanguage = (value: unknown): value is Language => typeof value === "string" && (LANGUAGES as ReadonlyArray<string>).includes(value)

/** `fr-CA,fr;q=0.9,en;q=0.8` as its languages, best first (the region dropped). */
export const acceptedLanguages = (header: string): ReadonlyArray<string> =>
  header.split(",")
    .map((part) => {
      const [tag = "", ...params] = part.trim().split(";")
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
      const weight = q === undefined ? 1 : Number(q.slice(2))
      return { language: tag.trim().toLowerCase().split("-")[0] ?? "", weight: Number.isFinite(weight) ? weight : 0 }
    })
    .filter((l) => l.weight > 0)
    .sort((a, b) => b.weight - a.weight)
    .map((l) => l.language)

export const LANGUAGE_COOKIE = "paykit_lang"

/** The language the `cookie` header keeps, if any. */
export const cookieLanguage = (cookie: string | undefined): Language | undefined => {
  for (const part of (cookie ?? "").split(";")) {
    const [name, value] = part.trim().split("=")
    if (name === LANGUAGE_COOKIE && isLanguage(value)) return value
  }
  return undefined
}

export const pickLanguage = (asked: unknown, acceptLanguage: string | undefined, kept?: Language): Language => {
  if (isLanguage(asked)) return asked
  return kept ?? acceptedLanguages(acceptLanguage ?? "").find(isLanguage) ?? "en"
}
