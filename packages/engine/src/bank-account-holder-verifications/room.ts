import { defineRoom, store } from "../registry/room.ts"
import {
  BankAccountHolderVerificationCreateRequest, bankAccountHolderVerifications
} from "./domain/bank-account-holder-verifications.ts"
import { BankAccountHolderVerificationRepository } from "./repositories.ts"

/** The bank account holder verifications' room (confirmation of payee). */
export const bankAccountHolderVerificationsRoom = defineRoom({
  stores: [store(BankAccountHolderVerificationRepository, bankAccountHolderVerifications)],
  requestBodies: { bank_account_holder_verifications: { create: BankAccountHolderVerificationCreateRequest } }
})
