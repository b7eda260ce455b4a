import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { escapeHtml, html } from "../../src/pages/html.ts"

/** What a browser reads back from escaped text: the five entities `escapeHtml` writes, decoded (by hand, not by the code under test). */
const decode = (text: string): string =>
  text.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: "\"", "#39": "'", "#96": "`" })[name] ?? "")

/** Text rich in the characters that matter, and any text. */
const text = fc.oneof(fc.string({ unit: fc.constantFrom("&", "<", ">", "\"", "'", "`", "a", " ", "é", "😀", ";", "#") }), fc.string({ unit: "binary" }))

describe("escapeHtml", () => {
  it("leaves no character that ends text or a quoted attribute, and a browser reads back exactly the text (property)", () => {
    fc.assert(fc.property(text, (text) => {
      const escaped = escapeHtml(text)
      expect(escaped).not.toMatch(/[<>"'`]/)
      // Every & starts one of the entities: none of the text's own survives bare.
      expect(escaped.replace(/&(amp|lt|gt|quot|#39|#96);/g, "")).not.toContain("&")
      expect(decode(escaped)).toBe(text)
    }))
  })

  it("changes text without those characters not at all (property)", () => {
    fc.assert(fc.property(fc.string().filter((t) => !/[&<>"'`]/.test(t)), (text) => {
      expect(escapeHtml(text)).toBe(text)
    }))
  })
})

describe("html", () => {
  it("escapes every interpolated string and number, and keeps fragments it built (property)", () => {
    fc.assert(fc.property(text, text, fc.integer(), (a, b, n) => {
      const inner = html`<b>${b}</b>`
      const page = html`<p title="${a}">${a}${inner}${n}</p>`
      const parts = /^<p title="([^<>"'`]*)">([^<>"'`]*)<b>([^<>"'`]*)<\/b>([^<>"'`]*)<\/p>$/.exec(page.markup)
      expect(parts).not.toBeNull()
      expect(parts?.slice(1).map(decode)).toEqual([a, a, b, String(n)])
    }))
  })

  it("renders lists, and nothing for null, undefined and false", () => {
    expect(html`<ul>${["<a>", html`<li>x</li>`, null, undefined, false, 3]}</ul>`.markup).toBe("<ul>&lt;a&gt;<li>x</li>3</ul>")
  })

  it("a value that looks like markup is text", () => {
    expect(html`<p>${"<script>alert(1)</script>"}</p>`.markup).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>")
  })
})
