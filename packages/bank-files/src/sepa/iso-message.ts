import { FileFormatError } from "../model.ts"
import { type XmlElement as Element, xmlLocation, xmlReader } from "../xml.ts"

/**
 * An ISO 20022 message read as it streams in, through the package's XML reader (bounded depth,
 * text and token length; errors at the element's path and line): every element must be in the
 * message's namespace, under `Document` and its message element (`CstmrPmtStsRpt`), and a
 * message's reader names the elements it reads by their place below the message element
 * (`OrgnlPmtInfAndSts/TxInfAndSts/TxSts`), handling each as it opens or closes.
 */

/** An element, as a message's reader sees it. */
export interface MessageElement {
  readonly name: string
  /** Its place below the message element, without positions (`PmtInf/DrctDbtTxInf/PmtId/EndToEndId`). */
  readonly within: string
  /** Its full path, with the position of a repeated element (`/Document/CstmrDrctDbtInitn/PmtInf[2]/DrctDbtTxInf`). */
  readonly path: string
  readonly attributes: Readonly<Record<string, string>>
  /** Its text, trimmed: read for the elements a reader handles when they close, empty otherwise. */
  readonly text: string
  /** The line its start tag begins on. */
  readonly line: number
}

/** What a reader does on one element: it may add values to `out`, or answer an error. */
export type ElementHandler<T> = (element: MessageElement, out: Array<T>) => FileFormatError | undefined

/** Handlers by the `within` of the elements they handle. */
export const handlers = <T>(byWithin: Readonly<Record<string, ElementHandler<T>>>): ReadonlyMap<string, ElementHandler<T>> =>
  new Map(Object.entries(byWithin))

export interface MessageSpec<T> {
  /** The message's name for errors (`pain.002.001.03`). */
  readonly format: string
  readonly namespace: string
  /** The element under `Document` (`CstmrPmtStsRpt`). */
  readonly message: string
  /** Handlers of elements opening, by `within`. */
  readonly open?: ReadonlyMap<string, ElementHandler<T>>
  /** Handlers of elements closing, by `within` (their text is read); other elements are passed over. */
  readonly close: ReadonlyMap<string, ElementHandler<T>>
  /** The document ended well-formed: the checks that need all of it. */
  readonly end: (out: Array<T>) => FileFormatError | undefined
}

/** A repeated element's step in a path, as the XML reader writes it: its position from the second on (`PmtInf[2]`). */
export const step = (name: string, position: number): string => (position > 1 ? `${name}[${position}]` : name)

/** `path`, and the line, as a `FileFormatError`'s location. */
export const at = (path: string, line: number): string => xmlLocation({ path, line })

/** A reader of one message kind: fed UTF-8 chunks cut anywhere, answering what each completes. */
export const messageReader = <T>(spec: MessageSpec<T>) => {
  // Each element's `within`, by depth: the XML reader asks `wantsText` of every element as it
  // opens, before `open`, and closes elements last opened first, so the entry at an element's
  // depth is its own from its `wantsText` to its `close`.
  const withins: Array<string> = []
  const enter = (element: Element): string => {
    const depth = element.parents.length
    const within = depth < 2 ? "" : depth === 2 ? element.name : `${withins[depth - 1] ?? ""}/${element.name}`
    withins[depth] = within
    return within
  }
  const within = (element: Element): string => withins[element.parents.length] ?? ""
  const seen = (element: Element, text: string): MessageElement => ({
    name: element.name,
    within: within(element),
    path: element.path,
    attributes: element.attributes,
    text,
    line: element.line
  })
  const run = (handler: ElementHandler<T> | undefined, element: MessageElement): ReadonlyArray<T> | FileFormatError | undefined => {
    if (handler === undefined) return undefined
    const out: Array<T> = []
    return handler(element, out) ?? out
  }
  return xmlReader<T>({
    namespace: spec.namespace,
    wantsText: (element) => spec.close.has(enter(element)),
    open: (element) => {
      const depth = element.parents.length
      if (depth === 0 && element.name !== "Document") {
        return new FileFormatError(xmlLocation(element), `a ${spec.format} message starts with Document, not ${element.name}`)
      }
      if (depth === 1 && element.name !== spec.message) {
        return new FileFormatError(xmlLocation(element), `a ${spec.format} message's Document holds ${spec.message}, not ${element.name}`)
      }
      return depth < 2 ? undefined : run(spec.open?.get(within(element)), seen(element, ""))
    },
    close: (element, text) => (element.parents.length < 2 ? undefined : run(spec.close.get(within(element)), seen(element, text))),
    finish: () => {
      const out: Array<T> = []
      return spec.end(out) ?? out
    }
  })
}
