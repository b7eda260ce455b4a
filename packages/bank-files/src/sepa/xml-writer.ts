import { xmlAttributes, xmlEscape } from "../xml.ts"

/**
 * XML as the SEPA writers print it: one element a line, indented two spaces a level, so a file
 * served to a developer reads as well as it parses. A tree is `[name, text]` for a leaf (the
 * text escaped here), `[name, children]` for an element holding others (an absent child is
 * skipped), with an optional attribute string third.
 */
export type Tree = readonly [name: string, content: string | ReadonlyArray<Tree | undefined>, attributes?: string]

const PADS: Array<string> = []
const pad = (depth: number): string => (PADS[depth] ??= "  ".repeat(depth))

export const render = (tree: Tree, depth: number): string => {
  const [name, content, attributes = ""] = tree
  if (typeof content === "string") return `${pad(depth)}<${name}${attributes}>${xmlEscape(content)}</${name}>\n`
  let children = ""
  for (const child of content) if (child !== undefined) children += render(child, depth + 1)
  return `${pad(depth)}<${name}${attributes}>\n${children}${pad(depth)}</${name}>\n`
}

/** The opening line of an element left open across calls (a batch, a notification). */
export const openTag = (name: string, depth: number): string => `${pad(depth)}<${name}>\n`
export const closeTag = (name: string, depth: number): string => `${pad(depth)}</${name}>\n`

export const XML_DECLARATION = `<?xml version="1.0" encoding="UTF-8"?>\n`

/** A `Ccy` attribute. */
export const currencyAttribute = (currency: string): string => xmlAttributes([["Ccy", currency]])
