import { readFile, writeFile } from "node:fs/promises"
import { basename } from "node:path"
import { API_OPTIONS, API_OPTIONS_HELP, apiOf, field, itemsOf } from "./api.ts"
import { type CommandBody, CommandFailure, printResult, positionalOf, stringOf, UsageError } from "./args.ts"

/**
 * `paykit bank submissions|file|report|reports`: the bank rails' API (paykit's own extension,
 * docs/bank-rails.md) for the token's organisation: the submissions the daily run handed the
 * bank, a submission's file saved as its exact bytes, a bank's report posted from a file.
 */

const query = (pairs: ReadonlyArray<readonly [string, string | undefined]>): string => {
  const given = pairs.filter((pair): pair is readonly [string, string] => pair[1] !== undefined)
  return given.length === 0 ? "" : `?${new URLSearchParams(given.map(([k, v]): [string, string] => [k, v])).toString()}`
}

/** The file name the server gives a file (`Content-Disposition`), else `fallback`. */
const fileNameOf = (disposition: unknown, fallback: string): string => {
  const name = typeof disposition === "string" ? /filename="([^"/\\]+)"/.exec(disposition)?.[1] : undefined
  return name ?? fallback
}

const submissionLine = (s: Record<string, unknown>) =>
  `${field(s, "id")}  ${field(s, "scheme")}  ${field(s, "file_format")}  ${field(s, "processing_date")}  ${field(s, "item_count")} items  ${field(s, "total_amount")} ${field(s, "currency")}  ${field(s, "created_at")}`

const reportLine = (r: unknown) =>
  `${field(r, "id")}  ${field(r, "format")}  ${field(r, "entry_count")} entries: ${field(r, "matched_count")} matched, ${field(r, "unmatched_count")} unmatched, ${field(r, "duplicate_count")} duplicate, ${field(r, "mismatched_count")} amount mismatch`

export const command: CommandBody = {
  usage: [
    "bank submissions [--scheme <scheme>] [--creditor <id>] [--limit <n>]",
    "bank file <submission id> [--out <path>]",
    "bank report <file> [--format <format>]",
    "bank reports [--format <format>] [--limit <n>]"
  ],
  options: { ...API_OPTIONS, scheme: { type: "string" }, creditor: { type: "string" }, limit: { type: "string" }, out: { type: "string" }, format: { type: "string" } },
  optionsHelp: [
    "  --scheme <scheme>   submissions: only this scheme's (bacs, sepa_core, ach, ...)",
    "  --creditor <id>     submissions: only this creditor's",
    "  --limit <n>         how many to list (1-500; default 50)",
    "  --out <path>        file: where to save it (default: its name, in this directory)",
    "  --format <format>   report: its format (pain.002.001.03, camt.054.001.02, bacs_arudd, bacs_addacs,",
    "                      bacs_auddis, bacs_ddica, nacha_returns); detected from its first bytes when absent",
    ...API_OPTIONS_HELP
  ],
  notes: ["A report is applied once: the same file posted again answers the report it made, and applies nothing."],
  maxPositionals: 2,
  action: async (parsed, io) => {
    const action = positionalOf(parsed, 0, "submissions|file|report|reports")
    const api = apiOf(parsed, io)
    if (action === "submissions") {
      const body = await api.request("GET", `/bank_submissions${query([["scheme", stringOf(parsed, "scheme")], ["creditor", stringOf(parsed, "creditor")], ["limit", stringOf(parsed, "limit")]])}`)
      printResult(io, parsed, body, itemsOf(body, "bank_submissions").map(submissionLine))
    } else if (action === "file") {
      const id = positionalOf(parsed, 1, "submission id")
      const answer = await api.raw("GET", `/bank_submissions/${encodeURIComponent(id)}/file`)
      const path = stringOf(parsed, "out") ?? fileNameOf(answer.headers["content-disposition"], id)
      await writeFile(path, answer.bytes)
      printResult(io, parsed, { bank_submissions: { id, file: path, bytes: answer.bytes.length } }, [`saved ${id}'s file to ${path} (${answer.bytes.length} bytes)`])
    } else if (action === "report") {
      const path = positionalOf(parsed, 1, "file")
      let bytes: Buffer
      try {
        bytes = await readFile(path)
      } catch (error) {
        throw new CommandFailure(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`)
      }
      const answer = await api.raw("POST", `/bank_reports${query([["format", stringOf(parsed, "format")], ["name", basename(path)]])}`, bytes)
      const body = JSON.parse(answer.body) as Record<string, unknown>
      const report = body["bank_reports"]
      printResult(io, parsed, body, [`${reportLine(report)}${answer.status === 201 ? "" : " (received before: nothing applied)"}`])
    } else if (action === "reports") {
      const body = await api.request("GET", `/bank_reports${query([["format", stringOf(parsed, "format")], ["limit", stringOf(parsed, "limit")]])}`)
      printResult(io, parsed, body, itemsOf(body, "bank_reports").map(reportLine))
    } else {
      throw new UsageError(`unknown action "${action}": submissions, file, report or reports`)
    }
  }
}
