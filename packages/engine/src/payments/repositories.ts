import { repositoryService } from "../kernel/repository-service.ts"
import { instalmentScheduleChecks } from "./domain/instalment-schedule-checks.ts"
import { payments } from "./domain/payments.ts"
import { paymentReversals } from "./domain/payment-reversals.ts"

/** The repositories of the payments and their side records, keyed `@paykit/engine/<name>`. */
export class PaymentRepository extends repositoryService<PaymentRepository>()("PaymentRepository", payments) {}
export class PaymentReversalRepository extends repositoryService<PaymentReversalRepository>()("PaymentReversalRepository", paymentReversals) {}
export class InstalmentScheduleCheckRepository extends repositoryService<InstalmentScheduleCheckRepository>()("InstalmentScheduleCheckRepository", instalmentScheduleChecks) {}
