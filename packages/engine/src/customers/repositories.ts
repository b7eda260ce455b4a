import { repositoryService } from "../kernel/repository-service.ts"
import { customerBankAccounts } from "./domain/customer-bank-accounts.ts"
import { customers } from "./domain/customers.ts"

/** The repositories of the customers' resources, keyed `@paykit/engine/<name>`. */
export class CustomerRepository extends repositoryService<CustomerRepository>()("CustomerRepository", customers) {}
export class CustomerBankAccountRepository extends repositoryService<CustomerBankAccountRepository>()("CustomerBankAccountRepository", customerBankAccounts) {}
