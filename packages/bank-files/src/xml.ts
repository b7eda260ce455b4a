import { SaxesParser } from "saxes"
import { FileFormatError } from "./model.ts"

/**
 * Streaming XML for the report readers: a report is fed in chunks (cut anywhere, even inside a
 * UTF-8 character) and each element is handed to the format's handler as it opens and closes,
 * so a report of any length is read holding only the open elements and the text of the one
 * element the handler asked for. Errors name the element's path and line.
 */

/** How deep elements may nest: far above any bank report's (Bacs' deepest is 7). */
export const MAX_XML_DEPTH = 32

/** The longest text kept for an element whose text a handler reads (a reference, an amount, a code). */
export const MAX_XML_TEXT = 4096

/**
 * The most characters the parser may take in without completing a tag or a text node: a signature's
 * base64 block is tens of kilobytes; a file that is one unending tag or text is refused instead of
 * held in memory.
 */
export const MAX_XML_TOKEN = 1024 * 1024

/** An element as the handler sees it. */
export interface XmlElement {
  readonly name: string
  readonly attributes: Readonly<Record<string, string>>
  /** `/BACSDocument/Data/ARUDD/Advice/OriginatingAccountRecords/OriginatingAccountRecord/ReturnedDebitItem[3]`. */
  readonly path: string
  /** The names of the open elements from the root to this one's parent. */
  readonly parents: ReadonlyArray<string>
  /** The line its start tag begins on (1-based). */
  readonly line: number
}

/** Where an element is, as a `FileFormatError` or a `ReportEntry` names it. */
export const xmlLocation = (element: Pick<XmlElement, "path" | "line">): string => `${element.path} (line ${element.line})`

type Emitted<T> = ReadonlyArray<T> | FileFormatError | undefined

export interface XmlHandler<T> {
  /**
   * The namespace every element must be in, for a format that has one (ISO 20022's
   * `urn:iso:std:iso:20022:tech:xsd:pain.002.001.03`): elements are then named by their local
   * name, whatever prefix the file binds it to, and one in another namespace (or none) is refused.
   */
  readonly namespace?: string
  /** Called when an element's start tag is read; answers entries it completes or an error. */
  readonly open?: (element: XmlElement) => Emitted<T>
  /** Whether this element's text is wanted at `close` (others' text is skipped, never kept). */
  readonly wantsText?: (element: XmlElement) => boolean
  /** Called when the element closes, with its text (empty unless `wantsText` said so). */
  readonly close?: (element: XmlElement, text: string) => Emitted<T>
  /** Called once the document is complete: the checks that need the whole file (a root was read, totals). */
  readonly finish: () => Emitted<T>
}

interface Open {
  readonly element: XmlElement
  readonly children: Map<string, number>
  text: string | undefined
}

/** A chunked XML reader driving `handler`; `write` and `end` answer what the handler emitted. */
export const xmlReader = <T>(handler: XmlHandler<T>) => {
  const decoder = new TextDecoder("utf-8", { fatal: true })
  const namespace = handler.namespace
  const parser = new SaxesParser({ xmlns: namespace !== undefined, position: true })
  const stack: Array<Open> = []
  const rootChildren = new Map<string, number>()
  let out: Array<T> = []
  let failure: FileFormatError | undefined
  let sawRoot = false
  let lastEvent = 0
  let startLine = 1
  let lastClosed: XmlElement | undefined

  const here = (): string => {
    const top = stack[stack.length - 1]
    return top === undefined ? `line ${parser.line}` : `${top.element.path} (line ${parser.line})`
  }
  const fail = (error: FileFormatError) => {
    failure ??= error
  }
  const take = (got: Emitted<T>) => {
    if (got === undefined) return
    if (got instanceof FileFormatError) fail(got)
    else for (const value of got) out.push(value)
  }

  parser.on("error", (e) => {
    const message = e.message.replace(/^(?:[^:]*:)?\d+:\d+: /, "")
    // saxes closes the open element before it finds that the close tag was another's.
    const where = message.startsWith("unexpected close tag") && lastClosed !== undefined ? xmlLocation({ ...lastClosed, line: parser.line }) : here()
    fail(new FileFormatError(where, `not well-formed XML: ${message}`))
  })
  parser.on("xmldecl", (decl) => {
    const encoding = decl.encoding?.toLowerCase()
    if (encoding !== undefined && encoding !== "utf-8" && encoding !== "utf8") {
      fail(new FileFormatError("line 1", `the file declares the encoding ${decl.encoding}; a report is read as UTF-8`))
    }
  })
  parser.on("doctype", () => fail(new FileFormatError(here(), "a report has no DOCTYPE")))
  parser.on("opentagstart", () => {
    startLine = parser.line
  })
  parser.on("opentag", (tag) => {
    lastEvent = parser.position
    if (failure !== undefined) return
    const parent = stack[stack.length - 1]
    if (parent === undefined && sawRoot) return fail(new FileFormatError(here(), "a second root element"))
    sawRoot = true
    if (stack.length >= MAX_XML_DEPTH) return fail(new FileFormatError(here(), `elements nest deeper than ${MAX_XML_DEPTH}`))
    const name = namespace === undefined ? tag.name : (tag.local ?? tag.name)
    const siblings = parent?.children ?? rootChildren
    const index = (siblings.get(name) ?? 0) + 1
    siblings.set(name, index)
    const attributes: Record<string, string> = {}
    for (const [key, value] of Object.entries(tag.attributes)) {
      if (typeof value === "string") attributes[key] = value
      else if (value.prefix !== "xmlns" && value.name !== "xmlns") attributes[namespace === undefined ? key : value.local] = value.value
    }
    const element: XmlElement = {
      name,
      attributes,
      path: `${parent?.element.path ?? ""}/${name}${index > 1 ? `[${index}]` : ""}`,
      parents: parent === undefined ? [] : [...parent.element.parents, parent.element.name],
      line: startLine
    }
    if (namespace !== undefined && tag.uri !== namespace) {
      const found = tag.uri === undefined || tag.uri === "" ? "no namespace" : `the namespace ${tag.uri}`
      return fail(new FileFormatError(xmlLocation(element), `${name} is in ${found}; the report's elements are in ${namespace}`))
    }
    stack.push({ element, children: new Map(), text: handler.wantsText?.(element) === true ? "" : undefined })
    take(handler.open?.(element))
  })
  const addText = (text: string) => {
    lastEvent = parser.position
    const top = stack[stack.length - 1]
    if (failure !== undefined || top?.text === undefined) return
    top.text += text
    if (top.text.length > MAX_XML_TEXT) fail(new FileFormatError(here(), `the text of ${top.element.name} is longer than ${MAX_XML_TEXT} characters`))
  }
  parser.on("text", addText)
  parser.on("cdata", addText)
  parser.on("closetag", () => {
    lastEvent = parser.position
    const top = stack.pop()
    if (failure !== undefined || top === undefined) return
    lastClosed = top.element
    take(handler.close?.(top.element, top.text?.trim() ?? ""))
  })

  const feed = (text: string | null): ReadonlyArray<T> | FileFormatError => {
    if (failure === undefined) {
      try {
        if (text === null) parser.close()
        else parser.write(text)
      } catch (e) {
        fail(new FileFormatError(here(), e instanceof Error ? e.message : "not well-formed XML"))
      }
    }
    if (failure === undefined && parser.position - lastEvent > MAX_XML_TOKEN) {
      fail(new FileFormatError(here(), `a tag or text runs longer than ${MAX_XML_TOKEN} characters`))
    }
    if (failure !== undefined) return failure
    const done = out
    out = []
    return done
  }
  const decode = (chunk: Uint8Array | undefined): string | FileFormatError => {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true })
    } catch {
      return new FileFormatError(here(), "the file is not valid UTF-8")
    }
  }

  return {
    write: (chunk: Uint8Array): ReadonlyArray<T> | FileFormatError => {
      const text = decode(chunk)
      if (text instanceof FileFormatError) fail(text)
      return feed(typeof text === "string" ? text : "")
    },
    end: (): ReadonlyArray<T> | FileFormatError => {
      const text = decode(undefined)
      if (text instanceof FileFormatError) fail(text)
      const last = feed(typeof text === "string" && text.length > 0 ? text : "")
      if (last instanceof FileFormatError) return last
      const closed = feed(null)
      if (closed instanceof FileFormatError) return closed
      if (!sawRoot) return new FileFormatError("line 1", "the file has no XML element")
      take(handler.finish())
      if (failure !== undefined) return failure
      return [...last, ...closed, ...out.splice(0)]
    }
  }
}

/** What XML reserves in element content and attribute values: most text has none of it. */
const RESERVED = /[&<>"']/

/** Escapes text for an XML attribute value or element content. */
export const xmlEscape = (value: string): string =>
  !RESERVED.test(value)
    ? value
    : value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;")

/** An element's attributes written in order, skipping absent values. */
export const xmlAttributes = (attributes: ReadonlyArray<readonly [string, string | undefined]>): string =>
  attributes.flatMap(([name, value]) => (value === undefined ? [] : [` ${name}="${xmlEscape(value)}"`])).join("")
