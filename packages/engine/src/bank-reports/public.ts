export * from "./domain/bank-reports.ts"
export { BankReports, REPORT_REFUSED, type ReportFile, REPORTS_UNAVAILABLE } from "./bank-reports.ts"
export { BANK_REPORT_MAX_BYTES, type IncomingReport, type Received, REPORT_APPLY_FAILED, ReportRefused } from "./receive.ts"
export { REPORT_PAGE } from "./entries.ts"
