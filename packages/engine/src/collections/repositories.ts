import { repositoryService } from "../kernel/repository-service.ts"
import { customerBankAccounts } from "./domain/customer-bank-accounts.ts"
import { customers } from "./domain/customers.ts"
import { mandates } from "./domain/mandates.ts"
import { instalmentScheduleChecks } from "./domain/instalment-schedule-checks.ts"
import { mandateDormancies } from "./domain/mandate-dormancy.ts"
import { payments } from "./domain/payments.ts"
import { paymentReversals } from "./domain/payment-reversals.ts"
import { refunds } from "./domain/refunds.ts"
import { subscriptionSchedules, subscriptions } from "./domain/subscriptions.ts"

/** The repositories of the collections feature's resources, keyed `@paykit/engine/<name>`. */
export class CustomerRepository extends repositoryService<CustomerRepository>()("CustomerRepository", customers) {}
export class CustomerBankAccountRepository extends repositoryService<CustomerBankAccountRepository>()("CustomerBankAccountRepository", customerBankAccounts) {}
export class MandateRepository extends repositoryService<MandateRepository>()("MandateRepository", mandates) {}
export class MandateDormancyRepository extends repositoryService<MandateDormancyRepository>()("MandateDormancyRepository", mandateDormancies) {}
export class PaymentRepository extends repositoryService<PaymentRepository>()("PaymentRepository", payments) {}
export class PaymentReversalRepository extends repositoryService<PaymentReversalRepository>()("PaymentReversalRepository", paymentReversals) {}
export class RefundRepository extends repositoryService<RefundRepository>()("RefundRepository", refunds) {}
export class SubscriptionRepository extends repositoryService<SubscriptionRepository>()("SubscriptionRepository", subscriptions) {}
export class SubscriptionScheduleRepository extends repositoryService<SubscriptionScheduleRepository>()("SubscriptionScheduleRepository", subscriptionSchedules) {}
export class InstalmentScheduleCheckRepository extends repositoryService<InstalmentScheduleCheckRepository>()("InstalmentScheduleCheckRepository", instalmentScheduleChecks) {}
