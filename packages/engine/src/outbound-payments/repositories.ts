import { repositoryService } from "../kernel/repository-service.ts"
import { outboundPayments } from "./domain/outbound-payments.ts"
import { outboundPaymentImportEntries, outboundPaymentImports } from "./domain/outbound-payment-imports.ts"

/** The repositories of outbound payments and their imports, keyed `@paykit/engine/<name>`. */
export class OutboundPaymentRepository extends repositoryService<OutboundPaymentRepository>()("OutboundPaymentRepository", outboundPayments) {}
export class OutboundPaymentImportRepository extends repositoryService<OutboundPaymentImportRepository>()("OutboundPaymentImportRepository", outboundPaymentImports) {}
export class OutboundPaymentImportEntryRepository extends repositoryService<OutboundPaymentImportEntryRepository>()("OutboundPaymentImportEntryRepository", outboundPaymentImportEntries) {}
