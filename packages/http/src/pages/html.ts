/**
 * HTML built from templates where every interpolated value is escaped: `html` is the one way a
 * page writes markup, and `escapeHtml` the one escaping rule. A value is trusted only when it is
 * itself an `Html` (a fragment built by `html`), so nothing from a request, a resource or a
 * message table reaches a page unescaped.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "\"": "&quot;",
  "'": "&#39;",
  "`": "&#96;"
}

/** Text safe in element content and in quoted attribute values: the six characters that can end either are replaced. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"'`]/g, (c) => ENTITIES[c] ?? c)

/** Markup already escaped (built by `html`). */
export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup
  }
}

/** What a template may interpolate: markup, text (escaped), numbers, lists of either, or nothing. */
export type HtmlValue = Html | string | number | null | undefined | false | ReadonlyArray<HtmlValue>

const render = (value: HtmlValue): string => {
  if (value instanceof Html) return value.markup
  if (value === null || value === undefined || value === false) return ""
  if (typeof value === "number") return escapeHtml(String(value))
  if (typeof value === "string") return escapeHtml(value)
  return value.map(render).join("")
}

/** A template: its literal parts are the page's markup, every `${value}` escaped unless it is `Html`. */
export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<HtmlValue>): Html => {
  let out = strings[0] ?? ""
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? "")
  return new Html(out)
}
