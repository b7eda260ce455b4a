import { Layer } from "effect"
import { defineRoom, store } from "../registry/room.ts"
import { creditorBankAccounts } from "./domain/creditor-bank-accounts.ts"
import { creditors } from "./domain/creditors.ts"
import { payerThemes, PayerThemeCreateRequest } from "./domain/payer-themes.ts"
import { CreditorBankAccountCreateRequest, CreditorCreateRequest, CreditorUpdateRequest, VerificationDetailCreateRequest } from "./domain/requests.ts"
import { SchemeIdentifierCreateRequest, schemeIdentifierLocations } from "./domain/scheme-identifiers.ts"
import { verificationDetails } from "./domain/verification-details.ts"
import { creditorDueWork } from "./jobs.ts"
import {
  CreditorBankAccountRepository, CreditorRepository, PayerThemeRepository, SchemeIdentifierLocationRepository, VerificationDetailRepository
} from "./repositories.ts"
import { Creditors } from "./creditors.ts"
import { PayerThemes } from "./payer-themes.ts"
import { SchemeIdentifiers } from "./scheme-identifier-records.ts"

/** The creditors' room: the creditors, their bank accounts, verification, scheme identifiers and payer themes. */
export const creditorsRoom = defineRoom({
  stores: [
    store(CreditorRepository, creditors),
    store(CreditorBankAccountRepository, creditorBankAccounts),
    store(VerificationDetailRepository, verificationDetails),
    store(PayerThemeRepository, payerThemes),
    store(SchemeIdentifierLocationRepository, schemeIdentifierLocations)
  ],
  requestBodies: {
    creditors: { create: CreditorCreateRequest, update: CreditorUpdateRequest },
    scheme_identifiers: { create: SchemeIdentifierCreateRequest },
    creditor_bank_accounts: { create: CreditorBankAccountCreateRequest },
    verification_details: { create: VerificationDetailCreateRequest },
    payer_themes: { create: PayerThemeCreateRequest }
  },
  dueWork: creditorDueWork,
  services: Layer.mergeAll(Creditors.layer, PayerThemes.layer, SchemeIdentifiers.layer)
})
