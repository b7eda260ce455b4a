import { repositoryService } from "../kernel/repository-service.ts"
import { bankReportEntries, bankReportNotes, bankReports } from "./domain/bank-reports.ts"

/** The bank reports' repositories, keyed `@paykit/engine/<name>`. */
export class BankReportRepository extends repositoryService<BankReportRepository>()("BankReportRepository", bankReports) {}
export class BankReportEntryRepository extends repositoryService<BankReportEntryRepository>()("BankReportEntryRepository", bankReportEntries) {}
export class BankReportNoteRepository extends repositoryService<BankReportNoteRepository>()("BankReportNoteRepository", bankReportNotes) {}
