import { writeStdoutLine } from "../src/stdout-lines.ts"

/**
 * A process that writes lines and ends as `process.argv[2]` says: `exit` (process.exit at once,
 * in the same turn), `throw` (an uncaught error in the same turn), `drain` (the loop runs dry).
 */
const ending = process.argv[2]
for (let i = 0; i < 1000; i++) writeStdoutLine(`line ${i}`)
if (ending === "exit") process.exit(0)
if (ending === "throw") throw new Error("ended by an uncaught error")
