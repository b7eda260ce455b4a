import type { SchemeFiles } from "../model.ts"
import { achMeaning } from "./codes.ts"
import { nachaReturns } from "./reports.ts"
import { nachaSubmission } from "./submission.ts"

export { ACH_CHANGE_CODES, ACH_RETURN_CODES, UNAUTHORISED_RETURN_CODES } from "./codes.ts"
export { ACH_MANDATE_ACTIONS, COMPANY_ENTRY_DESCRIPTION, standardEntryClassOf } from "./submission.ts"

/**
 * ACH's files: debits and prenotes written as a NACHA file (PPD and WEB), returns and
 * notifications of change read and written as the ODFI sends them (`nacha_returns`).
 */
export const nachaFiles: SchemeFiles = {
  schemes: ["ach"],
  submission: nachaSubmission,
  reports: [nachaReturns],
  meaning: achMeaning
}
