import { describe, expect, it } from "vitest"
import { LANGUAGES, MESSAGES, pickLanguage } from "../../src/pages/i18n.ts"
import { en } from "../../src/pages/messages/en.ts"

describe("the pages' message tables", () => {
  const keys = Object.keys(en).sort()

  it.each(LANGUAGES.filter((l) => l !== "en"))("%s has every key of English, and no other, each with text", (language) => {
    const table: Readonly<Record<string, string>> = MESSAGES[language]
    expect(Object.keys(table).sort()).toEqual(keys)
    for (const key of keys) expect(table[key]?.trim(), `${language}.${key}`).not.toBe("")
  })

  it("the translated tables are translations: most of their strings differ from English", () => {
    for (const language of LANGUAGES.filter((l) => l !== "en")) {
      const table: Readonly<Record<string, string>> = MESSAGES[language]
      const same = keys.filter((key) => table[key] === (en as Readonly<Record<string, string>>)[key])
      expect(same.length, `${language}: ${same.join(", ")}`).toBeLessThan(keys.length / 4)
    }
  })
})

describe("pickLanguage", () => {
  it("takes the asked language when it is one of the pages'", () => {
    expect(pickLanguage("sv", "de")).toBe("sv")
  })
  it("else the browser's best accepted language the pages have", () => {
    expect(pickLanguage(undefined, "pt-BR,da;q=0.5,fr;q=0.8")).toBe("fr")
    expect(pickLanguage("xx", "es-MX")).toBe("es")
  })
  it("else English", () => {
    expect(pickLanguage(undefined, undefined)).toBe("en")
    expect(pickLanguage(["fr"], "pt,de;q=0")).toBe("en")
  })
})
