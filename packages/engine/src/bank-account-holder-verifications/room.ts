import { defineRoom, store } from "../registry/room.ts"
import {
  BankAccountHolderVerificationCreateRequest, bankAccountHolderVerifications
} from "./domain/bank-account-holder-verifications.ts"
import { BankAccountHolderVerificationRepository } from "./repositories.ts"
import { BankAccountHolderVerifications } from "./bank-account-holder-verifications.ts"

/** The bank account holder verifications' room (confirmation of payee). */
export const bankAccountHolderVerificationsRoom = defineRoom({
  stores: [store(BankAccountHolderVerificationRepository, bankAccountHolderVerifications)],
  requestBodies: { bank_account_holder_verifications: { create: BankAccountHolderVerificationCreateRequest } },
  services: BankAccountHolderVerifications.layer
})
