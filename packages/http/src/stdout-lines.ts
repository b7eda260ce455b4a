import { writeSync } from "node:fs"

/**
 * Lines for standard output, written a batch per turn of the event loop. On Linux a write to a
 * pipe is synchronous, so a line per request written alone cost a system call on the request's
 * path (and a wait whenever the reader was slower than the server); a turn's lines go out in one
 * write. The lines still waiting when the process exits (an `exit`, an uncaught error) are
 * written then, synchronously; a SIGKILL loses at most the lines of the turn it ended.
 */
let pending: Array<string> = []
let scheduled = false
let flushesOnExit = false

/** The lines waiting, as one text, and none left waiting. */
const takePending = (): string => {
  const text = pending.join("")
  pending = []
  return text
}

const flush = (): void => {
  scheduled = false
  if (pending.length > 0) process.stdout.write(takePending())
}

const flushOnExit = (): void => {
  if (pending.length === 0) return
  try {
    writeSync(process.stdout.fd, takePending())
  } catch {
    // Standard output is gone (its reader closed): nothing else can take the lines.
  }
}

/** Writes `line` and a newline to standard output, with the other lines of this turn. */
export const writeStdoutLine = (line: string): void => {
  pending.push(`${line}\n`)
  if (!flushesOnExit) {
    flushesOnExit = true
    process.once("exit", flushOnExit)
  }
  if (!scheduled) {
    scheduled = true
    setImmediate(flush)
  }
}
