import type { PayerTheme } from "@paykit/engine"
import { type Html, html } from "./html.ts"
import { LANGUAGE_NAMES, LANGUAGES, type Language } from "./i18n.ts"
import type { Messages } from "./messages/en.ts"

/**
 * The one layout of every page: the document, the styles with the creditor's payer theme, the
 * language switch (plain links, so it works without JavaScript) and the page's content in `main`.
 */

export interface Theme {
  readonly header: string
  readonly link: string
  readonly button: string
  readonly border: string
  /** The creditor's logo (`POST /branding/logos`), shown in the header in place of paykit's name. */
  readonly logo?: { readonly src: string; readonly alt: string }
}

/** paykit's own colours, for a creditor without a payer theme (or a colour it never set). */
export const DEFAULT_THEME: Theme = { header: "#1c3d5a", link: "#1a5fb4", button: "#1c3d5a", border: "#c0c8d0" }

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/

const colourOr = (value: string | null | undefined, fallback: string): string =>
  value !== null && value !== undefined && HEX_COLOUR.test(value) ? value : fallback

export const themeOf = (theme: PayerTheme | null): Theme => theme === null ? DEFAULT_THEME : {
  header: colourOr(theme.header_background_colour, DEFAULT_THEME.header),
  link: colourOr(theme.link_text_colour, DEFAULT_THEME.link),
  button: colourOr(theme.button_background_colour, DEFAULT_THEME.button),
  border: colourOr(theme.content_box_border_colour, DEFAULT_THEME.border)
}

/** Black or white, whichever reads better on `background` (WCAG relative luminance). */
export const textOn = (background: string): string => {
  const channel = (i: number) => {
    const c = parseInt(background.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
  // The luminance where black and white have the same contrast ratio against it.
  return luminance > 0.179 ? "#000000" : "#ffffff"
}

const styles = (theme: Theme): string => `
:root{--header:${theme.header};--header-text:${textOn(theme.header)};--link:${theme.link};--button:${theme.button};--button-text:${textOn(theme.button)};--border:${theme.border}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1a1a1a;background:#f5f6f7}
header{background:var(--header);color:var(--header-text);padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:1rem;justify-content:space-between;align-items:center}
header a{color:var(--header-text)}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;color:#000;padding:.5rem}
nav ul{list-style:none;display:flex;gap:.75rem;margin:0;padding:0}
main{max-width:44rem;margin:1.5rem auto;background:#fff;border:2px solid var(--border);border-radius:8px;padding:1.5rem}
a{color:var(--link)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}dd img{vertical-align:middle;border-radius:4px}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #d0d5da;padding:.4rem;text-align:left;vertical-align:top}
.actions{display:flex;gap:1rem;flex-wrap:wrap;margin-top:1.5rem}
button{font:inherit;padding:.6rem 1.4rem;border-radius:6px;border:2px solid var(--button);cursor:pointer}
button.primary{background:var(--button);color:var(--button-text)}
button.secondary{background:#fff;color:#1a1a1a}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}
label{display:block;font-weight:600;margin-top:1rem}input{font:inherit;padding:.4rem;width:100%;max-width:30rem;border:1px solid #5f6b76;border-radius:4px}
fieldset{border:1px solid #c0c8d0;border-radius:6px;margin-top:1rem}legend{padding:0 .25rem}
.notice{color:#4a5560;font-size:.9rem}.status{font-weight:600}
label.choice{display:flex;align-items:center;gap:.5rem;font-weight:400;margin-top:.5rem}label.choice input{width:auto}
select{font:inherit;padding:.4rem;border:1px solid #5f6b76;border-radius:4px}select:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}
.problems{border-left:4px solid #b00020;padding-left:.75rem}
`

export interface PageFrame {
  readonly language: Language
  readonly messages: Messages
  readonly title: string
  readonly theme: Theme
  /** The page's path, for the language switch's links. */
  readonly path: string
  readonly content: Html
  /** Without the language switch: a page whose text is in one language only (the OAuth consent page). */
  readonly singleLanguage?: boolean
  /** More of the document's head (the dashboard's icon and script). */
  readonly head?: Html
  /** A notice between the header and the content, on every page of a kind (the dashboard's sandbox banner). */
  readonly banner?: Html
}

const languageSwitch = (frame: PageFrame): Html => html`<nav aria-label="${frame.messages.language}"><ul>${
  LANGUAGES.map((language) =>
    html`<li><a href="${frame.path}?lang=${language}" lang="${language}" hreflang="${language}"${
      language === frame.language ? html` aria-current="true"` : ""
    }>${LANGUAGE_NAMES[language]}</a></li>`)
}</ul></nav>`

export const layout = (frame: PageFrame): Html => html`<!doctype html>
<html lang="${frame.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title}</title>
<style>${styles(frame.theme)}</style>${frame.head ?? ""}
</head>
<body>
<a class="skip" href="#content">${frame.messages.skip_to_content}</a>
<header>${frame.theme.logo === undefined ? html`<span>paykit</span>` : html`<img src="${frame.theme.logo.src}" alt="${frame.theme.logo.alt}">`}${frame.singleLanguage === true ? "" : languageSwitch(frame)}</header>${frame.banner ?? ""}
<main id="content">
<h1>${frame.title}</h1>
${frame.content}
</main>
</body>
</html>`
