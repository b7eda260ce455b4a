import { FileFormatError } from "./model.ts"

/**
 * The longest line a line-based reader keeps while it waits for the line's end: far above any
 * scheme's record (Bacs 106, NACHA 94 characters, paykit's own a few hundred), so a file without
 * line breaks is refused instead of held whole in memory.
 */
export const MAX_LINE_LENGTH = 64 * 1024

/** A line of a file, with its 1-based number for errors. */
export interface NumberedLine {
  readonly number: number
  readonly text: string
}

/**
 * Splits UTF-8 chunks into lines as they arrive: a chunk may end inside a line or inside a
 * character. `\r\n` and `\n` both end a line (banks' files come from every platform); a last
 * line without a line break is a line too.
 */
export const lineSplitter = () => {
  const decoder = new TextDecoder("utf-8", { fatal: true })
  let pending = ""
  let number = 0
  const take = (text: string, final: boolean): ReadonlyArray<NumberedLine> | FileFormatError => {
    const lines: Array<NumberedLine> = []
    const parts = (pending + text).split("\n")
    pending = final ? "" : (parts.pop() ?? "")
    if (pending.length > MAX_LINE_LENGTH) return new FileFormatError(`line ${number + 1}`, `a line is longer than ${MAX_LINE_LENGTH} characters`)
    for (const part of parts) {
      number += 1
      lines.push({ number, text: part.endsWith("\r") ? part.slice(0, -1) : part })
    }
    if (final && lines.length > 0 && lines[lines.length - 1]?.text === "") lines.pop()
    return lines
  }
  const decode = (chunk: Uint8Array | undefined): string | FileFormatError => {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true })
    } catch {
      return new FileFormatError(`line ${number + 1}`, "the file is not valid UTF-8")
    }
  }
  return {
    write: (chunk: Uint8Array): ReadonlyArray<NumberedLine> | FileFormatError => {
      const text = decode(chunk)
      return typeof text === "string" ? take(text, false) : text
    },
    end: (): ReadonlyArray<NumberedLine> | FileFormatError => {
      const text = decode(undefined)
      return typeof text === "string" ? take(text, true) : text
    }
  }
}

/**
 * A line-based reader: each line completed by a chunk goes to `take`, whose answers (undefined
 * for a line that makes none) are collected until the first error, which is the answer.
 */
export const eachLine = <T>(take: (line: NumberedLine) => T | FileFormatError | undefined) => {
  const lines = lineSplitter()
  const feed = (got: ReadonlyArray<NumberedLine> | FileFormatError): ReadonlyArray<T> | FileFormatError => {
    if (got instanceof FileFormatError) return got
    const out: Array<T> = []
    for (const line of got) {
      const value = take(line)
      if (value instanceof FileFormatError) return value
      if (value !== undefined) out.push(value)
    }
    return out
  }
  return {
    write: (chunk: Uint8Array) => feed(lines.write(chunk)),
    end: () => feed(lines.end())
  }
}
