import { bacsFiles } from "./bacs/index.ts"
import { paykitFiles } from "./internal/paykit-files.ts"
import { nachaFiles } from "./nacha/index.ts"
import type { ReportFormat, SchemeFiles, SubmissionFileFormat } from "./model.ts"
import { sepaFiles } from "./sepa/index.ts"

/**
 * Every format family, scheme files first and paykit's own last: the one list the lookups below
 * read. A scheme's folder adds its `SchemeFiles` here and nowhere else.
 */
export const SCHEME_FILES: ReadonlyArray<SchemeFiles> = [sepaFiles, bacsFiles, nachaFiles, paykitFiles]

/** The files a scheme is written and read in: its own where they exist, paykit's otherwise. */
export const schemeFilesFor = (scheme: string): SchemeFiles =>
  SCHEME_FILES.find((files) => files.schemes.includes(scheme)) ?? paykitFiles

/** The family that writes submissions of `format`. */
export const filesOfSubmissionFormat = (format: SubmissionFileFormat): SchemeFiles | undefined =>
  SCHEME_FILES.find((files) => files.submission.format === format)

/** The family that reads reports of `format`, with that report's reader and writer. */
export const reportFormatOf = (format: ReportFormat) => {
  for (const files of SCHEME_FILES) {
    const report = files.reports.find((r) => r.format === format)
    if (report !== undefined) return { files, report }
  }
  return undefined
}

/** How many leading characters format detection looks at. */
export const SNIFF_LENGTH = 4096

/** The format of a report from its first characters (`SNIFF_LENGTH` of them, or the whole file), if one matches. */
export const detectReportFormat = (head: string): ReportFormat | undefined => {
  for (const files of SCHEME_FILES) {
    for (const report of files.reports) if (report.sniff.matches(head)) return report.format
  }
  return undefined
}
