import { defineRoom, store } from "../registry/room.ts"
import { customerBankAccounts, CustomerBankAccountCreateRequest, CustomerBankAccountUpdateRequest } from "./domain/customer-bank-accounts.ts"
import { CustomerCreateRequest, customers, CustomerUpdateRequest } from "./domain/customers.ts"
import { CustomerBankAccountRepository, CustomerRepository } from "./repositories.ts"
import { Customers } from "./customers.ts"

/** The customers' room: the payers and their bank accounts. */
export const customersRoom = defineRoom({
  stores: [
    store(CustomerRepository, customers),
    store(CustomerBankAccountRepository, customerBankAccounts)
  ],
  requestBodies: {
    customers: { create: CustomerCreateRequest, update: CustomerUpdateRequest },
    customer_bank_accounts: { create: CustomerBankAccountCreateRequest, update: CustomerBankAccountUpdateRequest }
  },
  services: Customers.layer
})
